package scenario

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"simgui/app/rosname"
	"simgui/app/systems"
	"simgui/app/world"
	"simgui/physics"
	"simgui/plugins"
)

// Plan is a checked scenario, ready to build a world from.
type Plan struct {
	Scenario    *Scenario
	WorldName   string
	Track       *plugins.TrackDescriptor
	TrackParams map[string]any
	// Agents with vehicle params applied, in spawn order. The first is the primary unless an
	// agent says primary.
	Agents  []world.AgentSpec
	Primary string
	// AgentParams keeps each agent's raw vehicle params (for re-applying after randomization).
	AgentParams [][2]map[string]any
	Systems     []systems.Built

	Seed         int64
	StepSize     float64
	TimeScale    float64
	ActionPeriod float64
	// ActionSteps is the physics steps in an action period: ActionPeriod / StepSize, a whole
	// number (Resolve refuses a period that is not).
	ActionSteps       int
	Lockstep          bool
	Headless          bool
	Physics           physics.Mode
	VehicleCollisions bool
	Isolated          bool
	SeeEachOther      bool
}

// RunNote is a line a run of a plan says about it (see Plan.RunNotes); Warn: as a warning.
type RunNote struct {
	Text string
	Warn bool
}

// RunNotes are what simgui run and the window say of the plan as they show it: what the
// vehicles are given but leave unused (see Unused), and that a randomization block is drawn
// only at training resets, not in this run.
func (p *Plan) RunNotes() []RunNote {
	var out []RunNote
	for _, line := range p.Unused("set in the scenario", "set in the vehicle's descriptor") {
		out = append(out, RunNote{Text: "scenario: " + line, Warn: true})
	}
	if p.Scenario != nil {
		if r, err := ParseRandomization(&p.Scenario.Randomization); err == nil && r.Enabled {
			out = append(out, RunNote{Text: "the scenario's randomization block is drawn at each training-API and fast-path reset; " +
				"this run shows the scenario as written"})
		}
	}
	return out
}

// Unused lists what the agents' vehicles are given but leave unused (see
// plugins.MountWarnings), once per vehicle and line however many agents share it, as
// "<vehicle id>: sensor.<id>.<param> (<where>): why", where is given when the agent's own
// params hold the key and otherwise when they do not (at most plugins.MaxWorded lines, then
// a count).
func (p *Plan) Unused(given, otherwise string) []string {
	var out []string
	seen := map[string]bool{}
	more := 0
	for i, a := range p.Agents {
		if a.Vehicle == nil {
			continue
		}
		for _, m := range a.Vehicle.Sensors {
			for _, w := range plugins.MountWarnings(m) {
				where := otherwise
				var params map[string]any
				if i < len(p.AgentParams) {
					params = p.AgentParams[i][0]
					if _, ok := params[w.Path]; ok {
						where = given
					}
				}
				if where == otherwise && focalOverFov(params, m.ID, w.Path) {
					continue
				}
				line := fmt.Sprintf("%s: %s (%s): %s", a.Vehicle.ID, w.Path, where, w.Message)
				if seen[line] {
					continue
				}
				seen[line] = true
				if len(out) == plugins.MaxWorded {
					more++
					continue
				}
				out = append(out, line)
			}
		}
	}
	if more > 0 {
		out = append(out, fmt.Sprintf("and %d more", more))
	}
	return out
}

// focalOverFov reports whether path is camera id's fovDeg, left unused because params give
// the camera's focal length in pixels (fx or fy) over a fovDeg params do not give: the
// vehicle's descriptor has one (the KS0223's 68°) that calibrating its camera in a scenario
// replaces, as the docs say, and cannot take out, so a warning on it is no news.
func focalOverFov(params map[string]any, id, path string) bool {
	prefix := "sensor." + id + "."
	if path != prefix+"fovDeg" {
		return false
	}
	if _, ok := params["camera.fov_deg"]; ok {
		return false
	}
	_, fx := params[prefix+"fx"]
	_, fy := params[prefix+"fy"]
	return fx || fy
}

// Defaults used when a scenario leaves them out.
const (
	DefaultTimeScale    = 1.0
	DefaultActionPeriod = 0.05
)

// Resolve checks a scenario against the plugins r knows and returns its plan. Errors name the
// scenario's source and the key.
func Resolve(s *Scenario, r plugins.Resolver) (*Plan, error) {
	p, err := resolve(s, r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Source, err)
	}
	return p, nil
}

func resolve(s *Scenario, r plugins.Resolver) (*Plan, error) {
	p := &Plan{
		Scenario: s, WorldName: s.World.Name, Seed: s.Runtime.Seed, StepSize: s.Runtime.StepSize,
		TimeScale: DefaultTimeScale, ActionPeriod: s.Runtime.ActionPeriod,
		Lockstep: s.Runtime.Lockstep, Headless: s.Runtime.Headless, VehicleCollisions: true,
	}
	if p.WorldName == "" {
		p.WorldName = "default"
	}
	if !ValidName(p.WorldName) {
		return nil, fmt.Errorf("world.name: %q must be letters, digits, '_' or '-'", p.WorldName)
	}
	var err error
	if p.Physics, err = physics.ParseMode(s.Runtime.Physics); err != nil {
		return nil, fmt.Errorf("runtime.physics: %w", err)
	}
	if s.Axes != "" && s.Axes != AxesWorld && s.Axes != AxesRusim {
		return nil, fmt.Errorf("axes: %q is not %s (x east, y north) or %s (x, y up, z north)", s.Axes, AxesWorld, AxesRusim)
	}
	if tp := s.Sensors.telemetryProfile(); tp != "" && tp != TelemetryDefault {
		return nil, fmt.Errorf("sensors.telemetry.profile: %q is not a telemetry profile (known: %s)", tp, TelemetryDefault)
	}
	// The profile reaches each vehicle as its camera.profile param, whose check would name
	// vehicle.params, a key the file may not have: it is checked here, under its own key.
	if cp := s.Sensors.cameraProfile(); cp != "" {
		if _, ok := plugins.LookupCameraProfile(cp); !ok {
			return nil, fmt.Errorf("sensors.camera.profile: %q is not a camera profile (known: %s)", cp, strings.Join(plugins.CameraProfileNames(), ", "))
		}
	}
	if s.Runtime.TimeScale != nil {
		p.TimeScale = *s.Runtime.TimeScale
		if err := world.CheckTimeScale(p.TimeScale); err != nil {
			return nil, fmt.Errorf("runtime.timeScale: %w", err)
		}
	}
	if p.StepSize == 0 {
		p.StepSize = world.DefaultStepSize
	}
	if p.StepSize < 1e-5 || p.StepSize > 0.1 {
		return nil, fmt.Errorf("runtime.stepSize: %g s is outside 0.00001..0.1", p.StepSize)
	}
	if p.ActionPeriod == 0 {
		// The default in whole steps, and never shorter than one: a stepSize above the default
		// period means one step an action.
		p.ActionPeriod = max(1, math.Round(DefaultActionPeriod/p.StepSize)) * p.StepSize
	}
	if p.ActionPeriod < p.StepSize {
		return nil, &FieldError{"runtime.actionPeriod", fmt.Errorf("%g s is shorter than the step %g s", p.ActionPeriod, p.StepSize)}
	}
	// A period between whole steps would be rounded, and a client would be told a period its
	// steps do not take.
	n := math.Round(p.ActionPeriod / p.StepSize)
	if math.Abs(n*p.StepSize-p.ActionPeriod) > 1e-6*p.ActionPeriod {
		lo := math.Floor(p.ActionPeriod / p.StepSize)
		return nil, &FieldError{"runtime.actionPeriod", fmt.Errorf("%g s is not a whole number of %g s physics steps (%.6g or %.6g s would be)",
			p.ActionPeriod, p.StepSize, lo*p.StepSize, (lo+1)*p.StepSize)}
	}
	p.ActionSteps = int(n)

	// Track.
	if s.World.TrackID == "" {
		return nil, errors.New("world.trackId is required (for example track.cardboard_corridor.v1)")
	}
	t, err := r.Track(s.World.TrackID)
	if err != nil {
		return nil, fmt.Errorf("world.trackId: %w", err)
	}
	p.Track = t
	if s.RusimAxes() {
		// From here on the scenario is in the world frame; p.Scenario stays as written.
		if s, err = s.InWorldAxes(t); err != nil {
			return nil, err
		}
	}
	p.TrackParams = map[string]any{}
	for k, v := range s.World.Params {
		p.TrackParams[k] = v
	}
	if err := routeParams(s.Route, p.TrackParams); err != nil {
		return nil, err
	}
	if err := plugins.ValidateTrackParams(t, p.TrackParams); err != nil {
		return nil, paramsError("world.params", err)
	}

	// Agents.
	if err := resolveAgents(s, r, p); err != nil {
		return nil, err
	}

	// Randomization is applied per reset by the training API; a broken block is an error for
	// every run, not only for training. A draw that cannot work (a track parameter the track
	// lacks) is one too: one draw with every range of the block, on or off, finds it now
	// rather than at the first reset.
	random, err := ParseRandomization(&s.Randomization)
	if err != nil {
		return nil, err
	}
	if len(p.Agents) > 0 {
		probe := *random
		probe.Enabled = true
		if _, err := probe.Sample(p.Seed, p.Agents[0].Vehicle, t); err != nil {
			return nil, err
		}
		var vs []*plugins.VehicleDescriptor
		for _, a := range p.Agents {
			vs = append(vs, a.Vehicle)
		}
		if err := random.Inapplicable(vs...); err != nil {
			return nil, err
		}
	}

	// Systems.
	if len(s.Plugins) > MaxSystems {
		return nil, fmt.Errorf("plugins: %d entries are over the limit of %d", len(s.Plugins), MaxSystems)
	}
	for i, e := range s.Plugins {
		b, err := systems.Build(e)
		if err != nil {
			return nil, fmt.Errorf("plugins[%d]: %w", i, err)
		}
		p.Systems = append(p.Systems, b)
	}
	return p, nil
}

func resolveAgents(s *Scenario, r plugins.Resolver, p *Plan) error {
	type want struct {
		name, vehicleID, key string
		params               map[string]any
		trackParams          map[string]any
		spawn                *SpawnPose
		primary              bool
	}
	var wants []want
	a := s.Agents
	count := 0 // not given
	if a != nil && a.Count != nil {
		if count = *a.Count; count < 1 {
			return fmt.Errorf("agents.count: %d; give 1 or more agents", count)
		}
	}
	switch {
	case a != nil && len(a.Vehicles) > 0:
		if count != 0 && count != len(a.Vehicles) {
			return fmt.Errorf("agents.count: %d, but agents.vehicles lists %d", count, len(a.Vehicles))
		}
		if len(a.Vehicles) > MaxAgents {
			return fmt.Errorf("agents.vehicles: %d agents are over the limit of %d", len(a.Vehicles), MaxAgents)
		}
		for i, v := range a.Vehicles {
			name := v.AgentID
			if name == "" {
				name = "agent-" + strconv.Itoa(i+1)
			}
			id := v.VehicleID
			if id == "" && s.Vehicle != nil {
				id = s.Vehicle.VehicleID
			}
			params := map[string]any{}
			if s.Vehicle != nil {
				for k, x := range s.Vehicle.Params {
					params[k] = x
				}
			}
			for k, x := range v.Params {
				params[k] = x
			}
			wants = append(wants, want{name: name, vehicleID: id, key: fmt.Sprintf("agents.vehicles[%d]", i),
				params: params, trackParams: v.TrackParams, spawn: v.SpawnPose, primary: v.Primary || v.IsPrimary})
		}
	case s.Vehicle != nil:
		n := max(1, count)
		if n > MaxAgents {
			return fmt.Errorf("agents.count: %d is over the limit of %d", n, MaxAgents)
		}
		for i := 0; i < n; i++ {
			name := "ego"
			if i > 0 {
				name = "agent-" + strconv.Itoa(i+1)
			}
			wants = append(wants, want{name: name, vehicleID: s.Vehicle.VehicleID, key: "vehicle", params: s.Vehicle.Params})
		}
	default:
		return errors.New("the scenario needs vehicle.vehicleId or agents.vehicles")
	}
	if a != nil {
		if a.CollisionsEnabled != nil {
			p.VehicleCollisions = *a.CollisionsEnabled
		}
		p.Isolated = a.Isolated
		p.SeeEachOther = a.SeeEachOther == nil || *a.SeeEachOther
	} else {
		p.SeeEachOther = true
	}
	camera := ""
	if s.Sensors != nil && s.Sensors.Camera != nil {
		camera = s.Sensors.Camera.Profile
	}
	defController := "manual"
	if v, ok := p.TrackParams[KeyController]; ok {
		defController = fmt.Sprint(v)
	}
	var followed []string
	seen := map[string]bool{}
	ids := AgentIDs{}
	for _, w := range wants {
		if seen[w.name] {
			return fmt.Errorf("%s.agentId: %q is used twice", w.key, w.name)
		}
		seen[w.name] = true
		if err := ids.Add(w.name); err != nil {
			return fmt.Errorf("%s.agentId: %w", w.key, err)
		}
		if w.vehicleID == "" {
			return fmt.Errorf("%s.vehicleId is required (for example vehicle.ks0223.v1)", w.key)
		}
		v, err := r.Vehicle(w.vehicleID)
		if err != nil {
			return fmt.Errorf("%s.vehicleId: %w", w.key, err)
		}
		params, profile, err := takeController(w.params, defController, w.key+".params")
		if err != nil {
			return err
		}
		if profile == "waypoint_follower" {
			followed = append(followed, w.name)
		}
		if camera != "" {
			params = withDefault(params, "camera.profile", camera)
		}
		v, err = plugins.ApplyVehicleConfig(v, params)
		if err != nil {
			return paramsError(w.key+".params", err)
		}
		v = s.Sensors.apply(v)
		if w.trackParams != nil {
			if err := plugins.ValidateTrackParams(p.Track, merge(p.TrackParams, w.trackParams)); err != nil {
				return paramsError(w.key+".trackParams", err)
			}
		}
		spec := world.AgentSpec{Name: w.name, Vehicle: v}
		switch sp := w.spawn; {
		case sp == nil:
		case sp.components == 0:
			// A spawnPose of a yaw alone; without even that it is as none.
			if sp.hasYaw {
				yaw := sp.YawDeg * math.Pi / 180
				spec.SpawnYaw = &yaw
			}
		default:
			spec.Spawn = &world.Pose{X: sp.Position[0], Y: sp.Position[1], Z: sp.Position[2], Yaw: sp.YawDeg * math.Pi / 180}
		}
		p.Agents = append(p.Agents, spec)
		p.AgentParams = append(p.AgentParams, [2]map[string]any{w.params, w.trackParams})
		if w.primary {
			if p.Primary != "" {
				return fmt.Errorf("%s.primary: %s is the primary agent already; mark one", w.key, p.Primary)
			}
			p.Primary = w.name
		}
	}
	if p.Primary == "" {
		p.Primary = p.Agents[0].Name
	}
	if len(followed) > 0 {
		b, err := followerSystem(followed)
		if err != nil {
			return err
		}
		p.Systems = append(p.Systems, b)
	}
	return nil
}

// routeParams moves rusim's route block into track params (route.waypoints "x,y;x,y", ...).
// A key the params already have is theirs: world.params, where a training API reset puts the
// client's trackParams, win over the route block.
func routeParams(r *Route, into map[string]any) error {
	if r == nil {
		return nil
	}
	set := func(k string, v any) {
		if _, given := into[k]; !given {
			into[k] = v
		}
	}
	for k, v := range r.Params {
		set(k, v)
	}
	if len(r.Waypoints) > 0 {
		var parts []string
		for i, wp := range r.Waypoints {
			if len(wp) != 2 {
				return fmt.Errorf("route.waypoints[%d]: want [x, y], got %d numbers", i, len(wp))
			}
			parts = append(parts, formatPoint(wp[0], wp[1]))
		}
		set("route.waypoints", strings.Join(parts, ";"))
	}
	if r.Loop != nil {
		set("route.loop", *r.Loop)
	}
	if r.ReachDistanceM > 0 {
		set("route.reach_distance_m", r.ReachDistanceM)
	}
	return nil
}

func withDefault(m map[string]any, k string, v any) map[string]any {
	if _, ok := m[k]; ok {
		return m
	}
	out := map[string]any{k: v}
	for kk, vv := range m {
		out[kk] = vv
	}
	return out
}

func merge(a, b map[string]any) map[string]any {
	out := make(map[string]any, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// AgentIDs checks the ids of the agents of one world as they come, by their ROS 2 names.
type AgentIDs map[string]string

// Add checks id and keeps it: an agent id is a ValidName, and no two agents of a world are
// one name to ROS 2, by which the device bridge serves a robot's devices. The error names no
// field: its caller says which, in its own words.
func (a AgentIDs) Add(id string) error {
	if !ValidName(id) {
		return fmt.Errorf("%q must be 1 to 64 letters, digits, '_' or '-' (it names the robot's topics)", id)
	}
	rn := rosname.Of(id)
	if other, clash := a[rn]; clash {
		return fmt.Errorf("%q and %q are one name to ROS 2, %s, by which the device bridge serves a robot's devices: name them apart", other, id, rn)
	}
	a[rn] = id
	return nil
}

// ValidName reports whether s may name a world or an agent: 1 to 64 letters, digits, '_' or
// '-', safe in topic paths.
func ValidName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// paramsError places the problems of a parameter map at where the scenario holds it:
// parameter errors take prefix as their path (they name the map as the plugin sees it, such
// as vehicle.params for an agent's), other errors are wrapped with it.
func paramsError(prefix string, err error) error {
	var pe plugins.ParamErrors
	if errors.As(err, &pe) {
		pe.SetPrefix(prefix)
		return pe
	}
	return fmt.Errorf("%s: %w", prefix, err)
}
