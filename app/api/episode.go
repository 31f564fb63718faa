package api

import (
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"simgui/app/scenario"
	"simgui/plugins"

	"gopkg.in/yaml.v3"
)

// Vehicle params the API handles itself instead of passing them to plugins.ApplyVehicleConfig.
const (
	keyCameraWidth  = "camera.width"
	keyCameraHeight = "camera.height"
	keyCameraMode   = "camera.mode" // rusim's; accepted and ignored
)

// Frame size limits of camera.width and camera.height. rusim takes 320–1920 × 240–1080; simgui
// also renders the small frames a policy consumes (84×84) directly.
const (
	minFrameSide   = 16
	maxFrameWidth  = 1920
	maxFrameHeight = 1080
)

// agentPlan is one agent of a reset, before any world is built.
type agentPlan struct {
	id, vehicleID string
	primary       bool
	seed          int64
	vehicleParams map[string]any
	width, height int // 0 keeps the camera's size
	image         map[string]float64
	trackParams   map[string]any // the agent's own, world frame
	random        *scenario.Randomization
}

// episodePlan is a checked reset request: the plans of the worlds to build and their agents.
type episodePlan struct {
	seed     int64
	isolated bool
	track    *plugins.TrackDescriptor
	agents   []agentPlan
	// worlds holds one plan per world: one per agent when isolated, else one for all; owners
	// lists the agent indexes each world holds.
	worlds []*scenario.Plan
	owners [][]int
	draws  []scenario.Draw
}

// planReset turns a reset request into world plans. Errors are *Error with rusim's status.
func (s *Service) planReset(req *ResetRequest) (*episodePlan, error) {
	if err := checkKeys(req); err != nil {
		return nil, err
	}
	base, random, err := s.baseNow()
	if err != nil {
		return nil, internalError("%v", err)
	}
	if base.RusimAxes() {
		// Requests are converted to the world frame as they arrive; so is the scenario under them.
		source := base.Source
		if base, err = base.InWorldAxes(nil); err != nil {
			return nil, internalError("Scenario %s: %v", source, err)
		}
	}
	ep := &episodePlan{seed: req.Seed}

	// Flags: episode-wide ones from the global list, scenario values as defaults.
	isolated, seePeers, collisions := false, true, true
	if a := base.Agents; a != nil {
		isolated = a.Isolated
		if a.SeeEachOther != nil {
			seePeers = *a.SeeEachOther
		}
		if a.CollisionsEnabled != nil {
			collisions = *a.CollisionsEnabled
		}
	}
	for _, f := range []struct {
		key string
		dst *bool
	}{{"agents.isolated", &isolated}, {"agents.see_each_other", &seePeers}, {"agents.collisions_enabled", &collisions}} {
		if v, ok := kvLookup(req.Flags, f.key); ok {
			b, err := scenario.ParseBool(v)
			if err != nil {
				return nil, badRequest("Flag %s: %v.", f.key, err)
			}
			*f.dst = b
		}
	}
	ep.isolated = isolated
	if isolated && len(req.Agents) > MaxIsolatedAgents {
		// Checked before any world is planned: each would be resolved first.
		return nil, badRequest("A reset with agents.isolated may have at most %d agents (each is a world of its own); this one has %d.",
			MaxIsolatedAgents, len(req.Agents))
	}

	// Track.
	trackID := req.SelectedTrackID
	if trackID == "" {
		trackID = base.World.TrackID
	}
	track, err := s.opts.Plugins.Track(trackID)
	if err != nil {
		if errors.Is(err, plugins.ErrUnknownPlugin) {
			return nil, badRequest("Unknown track id: '%s'.", trackID)
		}
		return nil, internalError("Track %s: %v", trackID, err)
	}
	ep.track = track
	trackParams := map[string]any{}
	sameTrack := trackID == base.World.TrackID
	if sameTrack {
		maps.Copy(trackParams, base.World.Params)
	}
	reqTrack, err := worldTrackParams(req.TrackParams)
	if err != nil {
		return nil, err
	}
	maps.Copy(trackParams, reqTrack)

	// Vehicles and agents.
	defaultVehicle := s.defaultVehicle(base)
	globalVehicle := req.SelectedVehicleID
	if globalVehicle == "" {
		globalVehicle = defaultVehicle
	}
	if _, err := s.opts.Plugins.Vehicle(globalVehicle); err != nil {
		if errors.Is(err, plugins.ErrUnknownPlugin) {
			return nil, badRequest("Unknown vehicle id: '%s'.", globalVehicle)
		}
		return nil, internalError("Vehicle %s: %v", globalVehicle, err)
	}
	agents := req.Agents
	if len(agents) == 0 {
		agents = []AgentRequest{{AgentID: "ego", VehicleID: globalVehicle, IsPrimary: true}}
	}
	seen := map[string]bool{}
	ids := scenario.AgentIDs{}
	primary := -1
	for i, ar := range agents {
		ap := agentPlan{id: strings.TrimSpace(ar.AgentID), vehicleID: strings.TrimSpace(ar.VehicleID), seed: req.Seed + int64(i)}
		if ap.id == "" {
			ap.id = "agent-" + strconv.Itoa(i+1)
		}
		if seen[ap.id] {
			return nil, badRequest("Duplicate agentId '%s'.", ap.id)
		}
		seen[ap.id] = true
		// Checked here to be named in the request's words: the scenario the reset builds would
		// name agents.vehicles[i]. Isolated agents are each a world of their own.
		world := ids
		if ep.isolated {
			world = scenario.AgentIDs{}
		}
		if err := world.Add(ap.id); err != nil {
			return nil, badRequest("agents[%d].agentId: %v", i, err)
		}
		if ap.vehicleID == "" {
			ap.vehicleID = globalVehicle
		}
		if _, err := s.opts.Plugins.Vehicle(ap.vehicleID); err != nil {
			// rusim answers an unknown agent vehicle with 500 (an invalid state), unlike the
			// selected vehicle.
			return nil, internalError("Unknown vehicle id: '%s'.", ap.vehicleID)
		}
		if ar.IsPrimary && primary < 0 {
			primary = i
		}
		// Vehicle params: the scenario's for its own vehicle, then the request's, then the agent's.
		var kvs []KV
		if sv := base.Vehicle; sv != nil && sv.VehicleID == ap.vehicleID {
			kvs = kvsFromMap(sv.Params)
		}
		kvs = mergeKVs(mergeKVs(kvs, req.VehicleParams), ar.VehicleParams)
		if err := ap.splitVehicleParams(kvs); err != nil {
			return nil, err
		}
		if ap.trackParams, err = worldTrackParams(ar.TrackParams); err != nil {
			return nil, err
		}
		ap.random = random.Clone()
		var overrides []scenario.Override
		for _, kv := range mergeKVs(req.Flags, ar.Flags) {
			if name, ok := strings.CutPrefix(strings.ToLower(kv.Key), "randomization."); ok {
				overrides = append(overrides, scenario.Override{Key: kv.Key, Name: name, Value: string(kv.Value)})
			}
		}
		if err := ap.random.SetAll(overrides); err != nil {
			return nil, badRequest("Flag %v.", err)
		}
		ep.agents = append(ep.agents, ap)
	}
	if primary < 0 {
		primary = 0
	}
	ep.agents[primary].primary = true

	// Scenarios, resolved by the scenario package (strict checks, camera profile, params).
	scenarioFor := func(idx []int, params map[string]any, seed int64) *scenario.Scenario {
		sc := *base
		sc.Source = "reset"
		sc.Runtime.Seed = seed
		sc.World = scenario.WorldSpec{Name: base.World.Name, TrackID: trackID, Params: params}
		if !sameTrack {
			sc.Route = nil
		}
		sc.Vehicle = nil
		// The episode draws with its agents' own copies (ap.random), checked against all its
		// vehicles below: a world of one agent of a mixed fleet would refuse the block's
		// motor gains for its drone alone.
		sc.Randomization = yaml.Node{}
		coll := collisions
		see := seePeers
		sc.Agents = &scenario.Agents{Isolated: isolated, CollisionsEnabled: &coll, SeeEachOther: &see}
		for _, i := range idx {
			ap := &ep.agents[i]
			av := scenario.AgentVehicle{AgentID: ap.id, VehicleID: ap.vehicleID, IsPrimary: ap.primary, Params: ap.vehicleParams}
			if !isolated {
				av.SpawnPose = spawnPose(ap.trackParams, track)
			}
			sc.Agents.Vehicles = append(sc.Agents.Vehicles, av)
		}
		return &sc
	}
	var scenarios []*scenario.Scenario
	if isolated {
		for i := range ep.agents {
			params := map[string]any{}
			maps.Copy(params, trackParams)
			maps.Copy(params, ep.agents[i].trackParams)
			scenarios = append(scenarios, scenarioFor([]int{i}, params, ep.agents[i].seed))
			ep.owners = append(ep.owners, []int{i})
		}
	} else {
		all := make([]int, len(ep.agents))
		for i := range all {
			all[i] = i
		}
		scenarios = append(scenarios, scenarioFor(all, trackParams, req.Seed))
		ep.owners = append(ep.owners, all)
	}
	ep.draws = make([]scenario.Draw, len(ep.agents))
	for w, sc := range scenarios {
		plan, err := scenario.Resolve(sc, s.opts.Plugins)
		if err != nil {
			if e, ok := paramRefusal(err, len(req.Agents) > 0); ok {
				return nil, e
			}
			return nil, badRequest("%v", err)
		}
		if err := ep.randomize(plan, ep.owners[w]); err != nil {
			return nil, err
		}
		ep.worlds = append(ep.worlds, plan)
	}
	var vs []*plugins.VehicleDescriptor
	for _, w := range ep.worlds {
		for _, a := range w.Agents {
			vs = append(vs, a.Vehicle)
		}
	}
	for _, ap := range ep.agents {
		if err := ap.random.Inapplicable(vs...); err != nil {
			return nil, badRequest("Randomization: %v.", err)
		}
	}
	return ep, nil
}

// randomize draws each agent's values in plan (seed+i), applies them to its vehicle and the
// world's track params, then applies the API's own camera keys.
func (ep *episodePlan) randomize(plan *scenario.Plan, owners []int) error {
	for k, i := range owners {
		ap := &ep.agents[i]
		spec := &plan.Agents[k]
		track := ep.track
		if k > 0 {
			track = nil // a shared world's track is drawn once, with the first agent's seed
		}
		d, err := ap.random.Sample(ap.seed, spec.Vehicle, track)
		if err != nil {
			return badRequest("Randomization: %v.", err)
		}
		if len(d.Track) > 0 {
			params, err := ap.random.BuildableTrack(&d, plan.Track, plan.TrackParams, scenario.TrackBuilds(plan.Track, plan.Seed))
			if err != nil {
				return badRequest("Randomization: %v.", err)
			}
			plan.TrackParams = params
		}
		ep.draws[i] = d
		if len(d.Vehicle) > 0 {
			v, err := plugins.ApplyVehicleConfig(spec.Vehicle, d.Vehicle)
			if err != nil {
				return internalError("Randomization of %s: %v", ap.id, err)
			}
			spec.Vehicle = v
		}
		maps.Copy(ap.image, d.Image)
		if ap.width > 0 || ap.height > 0 {
			v := spec.Vehicle.Clone()
			if v.SetFrameSize(ap.width, ap.height) == nil {
				return badRequest("Vehicle %s has no camera for camera.width/camera.height.", ap.vehicleID)
			}
			spec.Vehicle = v
		}
	}
	return nil
}

// splitVehicleParams separates the keys the API handles (frame size, image post-processing,
// camera.mode) from those for plugins.ApplyVehicleConfig.
func (ap *agentPlan) splitVehicleParams(kvs []KV) error {
	ap.vehicleParams = map[string]any{}
	ap.image = map[string]float64{}
	for _, kv := range kvs {
		key, val := kv.Key, strings.TrimSpace(string(kv.Value))
		lower := strings.ToLower(key)
		switch lower {
		case keyCameraMode:
			continue
		case keyCameraWidth, keyCameraHeight:
			limit := maxFrameWidth
			if lower == keyCameraHeight {
				limit = maxFrameHeight
			}
			n, err := strconv.Atoi(val)
			if errors.Is(err, strconv.ErrRange) { // a whole number, too many digits for an int
				return badRequest("vehicleParams %s: %s pixels is outside %d..%d.", key, val, minFrameSide, limit)
			}
			if err != nil {
				return badRequest("vehicleParams %s: '%s' is not a whole number (pixels, %d..%d).", key, val, minFrameSide, limit)
			}
			if n < minFrameSide || n > limit {
				return badRequest("vehicleParams %s: %d pixels is outside %d..%d.", key, n, minFrameSide, limit)
			}
			if lower == keyCameraWidth {
				ap.width = n
			} else {
				ap.height = n
			}
			continue
		case scenario.KeyBrightness, scenario.KeyColorGainR, scenario.KeyColorGainG, scenario.KeyColorGainB:
			const limit = 4.0
			x, err := strconv.ParseFloat(val, 64)
			if err != nil || !(x >= 0 && x <= limit) {
				return badRequest("vehicleParams %s: '%s' is not a number in 0..%g.", key, val, limit)
			}
			ap.image[lower] = x
			continue
		}
		if knownVehicleKeys[lower] {
			key = lower
		}
		ap.vehicleParams[key] = val
	}
	return nil
}

// knownVehicleKeys are plugins' fixed vehicle param keys, matched in any case as rusim's
// keys are.
var knownVehicleKeys = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range plugins.VehicleParamKeys() {
		m[k] = true
	}
	return m
}()

// worldTrackParams converts rusim trackParams (Unity axes) into world-frame track params:
// positions "x,y,z" or "x,z" become "x,y", spawn.yaw_deg turns from clockwise-from-north to
// counter-clockwise-from-east. Other values pass through as strings (the track's schema
// coerces them).
func worldTrackParams(kvs []KV) (map[string]any, error) {
	out := map[string]any{}
	for _, kv := range mergeKVs(nil, kvs) {
		key, val := kv.Key, string(kv.Value)
		lower := strings.ToLower(key)
		switch lower {
		case "route.waypoints", "maze.path_encoded", "spawn.position", "spawn.yaw_deg":
			c, err := scenario.UnityTrackParam(lower, val)
			if err != nil {
				return nil, badRequest("trackParams %s: %v.", key, err)
			}
			out[lower] = c
		default:
			out[key] = val
		}
	}
	return out, nil
}

// spawnPose reads an agent's own spawn.position and spawn.yaw_deg (already in the world frame)
// for a shared world, where the track's spawn parameters place only the first agent. Without
// spawn.yaw_deg the agent faces as the track's first spawn point, or north.
func spawnPose(tp map[string]any, t *plugins.TrackDescriptor) *scenario.SpawnPose {
	yaw, hasYaw := tp["spawn.yaw_deg"].(float64)
	pos, ok := tp["spawn.position"].(string)
	if !ok {
		// A yaw alone, as rusim's scenario_to_reset_config sends an agent's: placed as
		// without a pose, facing so (it was dropped).
		if hasYaw {
			return scenario.HeadingOnly(yaw)
		}
		return nil
	}
	x, y, err := scenario.UnityPoint(pos) // "x,y" in the world frame here: two components pass through
	if err != nil {
		return nil
	}
	if !hasYaw {
		yaw = 90
		if len(t.SpawnPoints) > 0 {
			yaw = t.SpawnPoints[0].YawDeg
		}
	}
	return scenario.SpawnAt(x, y, yaw)
}

// kvsFromMap turns scenario params into KVs, sorted by key.
func kvsFromMap(m map[string]any) []KV {
	out := make([]KV, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, KV{Key: k, Value: KVValue(fmt.Sprint(m[k]))})
	}
	return out
}

// defaultVehicle is the vehicle of a reset that names none: the scenario's, else the first
// registered.
func (s *Service) defaultVehicle(base *scenario.Scenario) string {
	if id, _, ok := base.LeadVehicle(); ok {
		return id
	}
	if ids := s.opts.Plugins.Vehicles(); len(ids) > 0 {
		return ids[0]
	}
	return ""
}

// Error is an error answered to a client: its status and rusim's {"error": Message}.
type Error struct {
	Status  int
	Message string
}

func (e *Error) Error() string { return e.Message }

func badRequest(format string, args ...any) *Error {
	return &Error{Status: http.StatusBadRequest, Message: fmt.Sprintf(format, args...)}
}

func internalError(format string, args ...any) *Error {
	return &Error{Status: http.StatusInternalServerError, Message: fmt.Sprintf(format, args...)}
}

// checkKeys refuses a reset with a key list over scenario.CheckKeys's bounds.
func checkKeys(req *ResetRequest) error {
	type list struct {
		name string
		kvs  []KV
	}
	lists := []list{{"trackParams", req.TrackParams}, {"vehicleParams", req.VehicleParams}, {"flags", req.Flags}}
	for i := range req.Agents {
		a := &req.Agents[i]
		at := fmt.Sprintf("agents[%d].", i)
		lists = append(lists, list{at + "trackParams", a.TrackParams}, list{at + "vehicleParams", a.VehicleParams}, list{at + "flags", a.Flags})
	}
	for _, l := range lists {
		keys := make([]string, len(l.kvs))
		for i, kv := range l.kvs {
			keys[i] = kv.Key
		}
		if err := scenario.CheckKeys(l.name, keys); err != nil {
			return badRequest("%v.", err)
		}
	}
	return nil
}
