package fastpath

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"simgui/app/scenario"
	"simgui/app/sensors/camera"
	"simgui/plugins"
)

// agentName is the model every env drives. The training API names a reset's only agent "ego"
// too; sensor noise streams are named after the model, so both faces draw the same numbers.
const agentName = "ego"

// Frame sides an open request may ask for.
const (
	minFrameSide = 16
	maxFrameSide = 1024
)

// Vehicle params handled here rather than by plugins.ApplyVehicleConfig, as the training API
// handles them: the frame size is set after randomization, the image gains post-process
// frames.
const (
	keyCameraWidth  = "camera.width"
	keyCameraHeight = "camera.height"
	maxImageGain    = 4.0
)

// sessionPlan is a checked open request: the scenario resolved for one agent, and what every
// episode draws on top of it.
type sessionPlan struct {
	base   *scenario.Plan
	random *scenario.Randomization
	// width, height are the frame size asked for (0: the camera's) until planSession has
	// drawn the first episode, then the frame size; channels is 3 (RGB) or 1 (grey).
	width, height, channels int
	image                   map[string]float64 // image gains given in the request
	keep                    map[string]bool    // sensors to run; nil runs all
	actionPeriod            float64
	steps                   int // world steps per action
	// protocol is the request's; actions name the columns of its step messages' actions.
	protocol int
	actions  []string
}

// episodePlan is one episode of one env: its seed, vehicle, track params and image gains.
type episodePlan struct {
	seed        int64
	vehicle     *plugins.VehicleDescriptor
	trackParams map[string]any
	gains       [3]float64
	draw        scenario.Draw
}

// planSession resolves an open request against base (the scenario, parsed) and the plugins,
// the way the training API resolves a reset with one agent: the scenario's vehicle
// (Scenario.LeadVehicle) with its params and the request's, called "ego", on the scenario's track with the request's track
// params on top.
func planSession(sc *scenario.Scenario, req *OpenRequest, r plugins.Resolver) (*sessionPlan, error) {
	sp := &sessionPlan{width: req.FrameWidth, height: req.FrameHeight, image: map[string]float64{}}
	for _, m := range []struct {
		name string
		keys []string
	}{{"vehicleParams", slices.Sorted(maps.Keys(req.VehicleParams))}, {"trackParams", slices.Sorted(maps.Keys(req.TrackParams))},
		{"randomization", slices.Sorted(maps.Keys(req.Randomization))}} {
		if err := scenario.CheckKeys(m.name, m.keys); err != nil {
			return nil, &fieldError{m.name, err}
		}
	}
	for _, side := range []struct {
		field string
		px    int
	}{{"frameWidth", req.FrameWidth}, {"frameHeight", req.FrameHeight}} {
		if side.px != 0 && (side.px < minFrameSide || side.px > maxFrameSide) {
			return nil, &fieldError{side.field, fmt.Errorf("frame %d×%d: each side is 0 (the camera's) or %d..%d px",
				req.FrameWidth, req.FrameHeight, minFrameSide, maxFrameSide)}
		}
	}
	if (req.FrameWidth == 0) != (req.FrameHeight == 0) {
		// One side of the camera's and one given made a 640×84 strip of a 158° view.
		field := "frameWidth"
		if req.FrameHeight == 0 {
			field = "frameHeight"
		}
		return nil, &fieldError{field, fmt.Errorf("frame %d×%d: give both sides, or 0×0 for the camera's size", req.FrameWidth, req.FrameHeight)}
	}
	vehicleID, leadParams, ok := sc.LeadVehicle()
	if !ok {
		return nil, errors.New("the scenario names no vehicle (vehicle.vehicleId)")
	}
	params := maps.Clone(leadParams)
	if params == nil {
		params = map[string]any{}
	}
	for k, v := range req.VehicleParams {
		params[k] = v
	}
	for _, k := range slices.Sorted(maps.Keys(params)) {
		switch strings.ToLower(k) {
		case keyCameraWidth, keyCameraHeight:
			n, err := wholeNumber(params[k])
			if err != nil || n < minFrameSide || n > maxFrameSide {
				return nil, fmt.Errorf("vehicle param %s: want a whole number of pixels in %d..%d", k, minFrameSide, maxFrameSide)
			}
			if strings.EqualFold(k, keyCameraWidth) && sp.width == 0 {
				sp.width = n
			} else if strings.EqualFold(k, keyCameraHeight) && sp.height == 0 {
				sp.height = n
			}
			delete(params, k)
		case scenario.KeyBrightness, scenario.KeyColorGainR, scenario.KeyColorGainG, scenario.KeyColorGainB:
			x, err := number(params[k])
			if err != nil || !(x >= 0 && x <= maxImageGain) {
				return nil, fmt.Errorf("vehicle param %s: want a number in 0..%g", k, maxImageGain)
			}
			sp.image[strings.ToLower(k)] = x
			delete(params, k)
		}
	}

	s := *sc
	s.Source = "fast path session"
	s.Faces = nil
	s.Vehicle = nil
	s.World.Params = maps.Clone(sc.World.Params)
	if s.World.Params == nil {
		s.World.Params = map[string]any{}
	}
	maps.Copy(s.World.Params, req.TrackParams)
	collisions, seePeers := true, true
	if a := sc.Agents; a != nil {
		if a.CollisionsEnabled != nil {
			collisions = *a.CollisionsEnabled
		}
		if a.SeeEachOther != nil {
			seePeers = *a.SeeEachOther
		}
	}
	s.Agents = &scenario.Agents{CollisionsEnabled: &collisions, SeeEachOther: &seePeers,
		Vehicles: []scenario.AgentVehicle{{AgentID: agentName, VehicleID: vehicleID, IsPrimary: true, Params: params}}}
	if req.ActionPeriod != 0 {
		if !(req.ActionPeriod > 0 && req.ActionPeriod <= 10) {
			return nil, &fieldError{"actionPeriod", fmt.Errorf("actionPeriod %g s is outside 0..10", req.ActionPeriod)}
		}
		s.Runtime.ActionPeriod = req.ActionPeriod
	}
	plan, err := scenario.Resolve(&s, r)
	if fe := (*scenario.FieldError)(nil); errors.As(err, &fe) && fe.Field == "runtime.actionPeriod" && req.ActionPeriod != 0 {
		// The request's period, not the scenario's, is not a whole number of its steps.
		return nil, &fieldError{"actionPeriod", fmt.Errorf("actionPeriod %w", fe.Err)}
	}
	if err != nil {
		return nil, err
	}
	sp.base = plan
	sp.actionPeriod = plan.ActionPeriod
	if len(req.Sensors) > 0 {
		if sp.keep, err = sensorsToKeep(plan.Agents[0].Vehicle, req.Sensors); err != nil {
			return nil, err
		}
	}
	sp.steps = plan.ActionSteps
	sp.protocol, sp.actions = req.Protocol, []string{actionThrottle, actionSteer}
	if v := plan.Agents[0].Vehicle; req.Protocol >= 2 && v.Drive != nil && plugins.DriveFlies(v.Drive.Model) {
		sp.actions = append(sp.actions, actionVertical)
	}

	random, err := scenario.ParseRandomization(&sc.Randomization)
	if err != nil {
		return nil, err
	}
	var overrides []scenario.Override
	for _, k := range slices.Sorted(maps.Keys(req.Randomization)) {
		overrides = append(overrides, scenario.Override{Key: k, Name: strings.ToLower(k), Value: req.Randomization[k]})
	}
	if err := random.SetAll(overrides); err != nil {
		return nil, &fieldError{"randomization", fmt.Errorf("randomization %w", err)}
	}
	if err := random.Inapplicable(plan.Agents[0].Vehicle); err != nil {
		return nil, &fieldError{"randomization", err}
	}
	sp.random = random
	// A draw that cannot work (a track parameter the track lacks) fails now, not at the first
	// reset.
	first, err := sp.episode(0)
	if err != nil {
		return nil, err
	}
	if sp.width, sp.height, sp.channels, err = frameOf(first.vehicle); err != nil {
		return nil, err
	}
	// The camera's own size (its contract's, or a camera.profile's) is held to the same sides.
	if max(sp.width, sp.height) > maxFrameSide || min(sp.width, sp.height) < minFrameSide {
		// The frame size's field: a client that asked for the camera's own size gets its
		// argument for the frame size named (the Python envs' frame_size).
		return nil, &fieldError{"frameWidth", fmt.Errorf("the camera's frame is %d×%d; each side must be %d..%d px here: set frameWidth and frameHeight",
			sp.width, sp.height, minFrameSide, maxFrameSide)}
	}
	return sp, nil
}

// episode draws the episode of seed: randomization (scenario.Randomization.Sample) applied to
// the vehicle and the track params, then the frame size, and raw frames for the shared
// memory. The training API draws a reset with one agent in the same way.
func (sp *sessionPlan) episode(seed int64) (*episodePlan, error) {
	base := sp.base
	v := base.Agents[0].Vehicle
	// A draw that fails is the randomization's fault (a range the vehicle or track cannot take).
	d, err := sp.random.Sample(seed, v, base.Track)
	if err != nil {
		return nil, &fieldError{"randomization", fmt.Errorf("randomization: %w", err)}
	}
	if len(d.Vehicle) > 0 {
		if v, err = plugins.ApplyVehicleConfig(v, d.Vehicle); err != nil {
			return nil, &fieldError{"randomization", fmt.Errorf("randomization: %w", err)}
		}
	}
	params, err := sp.random.BuildableTrack(&d, base.Track, base.TrackParams, scenario.TrackBuilds(base.Track, seed))
	if err != nil {
		return nil, &fieldError{"randomization", fmt.Errorf("randomization: %w", err)}
	}
	image := maps.Clone(sp.image)
	maps.Copy(image, d.Image)
	ep := &episodePlan{seed: seed, trackParams: params, draw: d, gains: scenario.ImageGains(image)}
	v = v.Clone()
	cam := v.SetFrameSize(sp.width, sp.height)
	if cam == nil {
		return nil, fmt.Errorf("vehicle %s has no camera", v.ID)
	}
	cam.Format = "raw" // the shared memory takes the pixels as they are
	if sp.keep != nil {
		keepSensors(v, sp.keep)
	}
	ep.vehicle = v
	return ep, nil
}

// sensorsToKeep checks a request's sensor list against the vehicle and adds its first camera.
// An entry is a mount id, or else a sensor kind ("ultrasonic"), which keeps the vehicle's first
// mount of that kind if it has one: a trainer asks for the sonar of whatever vehicle the
// scenario names, and a drone without one is not an error.
func sensorsToKeep(v *plugins.VehicleDescriptor, ids []string) (map[string]bool, error) {
	if len(ids) > len(v.Sensors)+len(plugins.SensorKinds())+1 {
		return nil, fmt.Errorf("sensors: %d listed; vehicle %s has %d", len(ids), v.ID, len(v.Sensors))
	}
	keep := map[string]bool{}
	var known []string
	for _, m := range v.Sensors {
		known = append(known, m.ID)
		if m.Kind == plugins.SensorCamera && len(keep) == 0 {
			keep[m.ID] = true
		}
	}
	for _, id := range ids {
		switch i := slices.IndexFunc(v.Sensors, func(m plugins.SensorMount) bool { return m.Kind == id }); {
		case slices.Contains(known, id):
			keep[id] = true
		case i >= 0:
			keep[v.Sensors[i].ID] = true
		case !slices.Contains(plugins.SensorKinds(), id):
			return nil, fmt.Errorf("sensors: vehicle %s has no sensor %q (it has %s), and %q is not a sensor kind (%s)",
				v.ID, id, strings.Join(known, ", "), id, strings.Join(plugins.SensorKinds(), ", "))
		}
	}
	return keep, nil
}

// keepSensors removes the mounts and contract sensors not in keep.
func keepSensors(v *plugins.VehicleDescriptor, keep map[string]bool) {
	v.Sensors = slices.DeleteFunc(v.Sensors, func(m plugins.SensorMount) bool { return !keep[m.ID] })
	if v.Contract != nil {
		v.Contract.Sensors = slices.DeleteFunc(v.Contract.Sensors, func(s plugins.SensorDescriptor) bool { return !keep[s.ID] })
	}
}

// frameOf returns the size of the first camera's frames.
func frameOf(v *plugins.VehicleDescriptor) (w, h, c int, err error) {
	for _, m := range v.Sensors {
		if m.Kind != plugins.SensorCamera {
			continue
		}
		for _, s := range v.Contract.Sensors {
			if s.ID == m.ID {
				return camera.FrameShape(s.Shape)
			}
		}
	}
	return 0, 0, 0, fmt.Errorf("vehicle %s has no camera", v.ID)
}

// number reads a param that is a number or a string holding one.
func number(v any) (float64, error) {
	var x float64
	switch t := v.(type) {
	case float64:
		x = t
	case int:
		x = float64(t)
	case string:
		var err error
		if x, err = strconv.ParseFloat(strings.TrimSpace(t), 64); err != nil {
			return 0, err
		}
	default:
		return 0, fmt.Errorf("%v is not a number", v)
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("%v is not finite", v)
	}
	return x, nil
}

func wholeNumber(v any) (int, error) {
	x, err := number(v)
	if err != nil || x != math.Trunc(x) || math.Abs(x) > 1<<30 {
		return 0, fmt.Errorf("%v is not a whole number", v)
	}
	return int(x), nil
}
