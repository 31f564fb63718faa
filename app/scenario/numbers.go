package scenario

import (
	"fmt"
	"math"

	"simgui/plugins"
)

// MaxActionPeriod is the longest sim time one training-API step may advance, in seconds.
const MaxActionPeriod = 60

// checkNumbers checks the numbers of a decoded scenario that have a range of their own:
// spawn poses (plugins.SpawnPoseParams: within ±plugins.WorldExtent, yaw within ±360°),
// route waypoints and reach distance (plugins.GeometryParams) and the action period. Vehicle
// and track params are checked against their tables when the scenario resolves; .nan and
// .inf never get this far (checkLimits).
func (s *Scenario) checkNumbers() error {
	check := func(key string, specs []plugins.ParamSpec, name string, x float64) error {
		if err := plugins.CheckParam(specs, name, x); err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		return nil
	}
	// In rusim's axes a position is [x, y up, z north]: its second value is the altitude.
	axes := []string{"x", "y", "z"}
	if s.RusimAxes() {
		axes = []string{"x", "z", "y"}
	}
	if a := s.Agents; a != nil {
		for i, v := range a.Vehicles {
			sp := v.SpawnPose
			if sp == nil {
				continue
			}
			key := fmt.Sprintf("agents.vehicles[%d].spawnPose", i)
			for j, name := range axes {
				if err := check(key+".position."+[]string{"x", "y", "z"}[j], plugins.SpawnPoseParams, name, sp.Position[j]); err != nil {
					return err
				}
			}
			if err := check(key+".yawDeg", plugins.SpawnPoseParams, "yawDeg", sp.YawDeg); err != nil {
				return err
			}
		}
	}
	if r := s.Route; r != nil {
		for i, wp := range r.Waypoints {
			for j, x := range wp {
				if err := check(fmt.Sprintf("route.waypoints[%d][%d]", i, j), plugins.GeometryParams, "x", x); err != nil {
					return err
				}
			}
		}
		if err := check("route.reachDistanceM", plugins.GeometryParams, "reachDistance", r.ReachDistanceM); err != nil {
			return err
		}
	}
	if ap := s.Runtime.ActionPeriod; ap < 0 || ap > MaxActionPeriod || math.IsNaN(ap) {
		return &FieldError{"runtime.actionPeriod", fmt.Errorf("%g s is outside 0..%d (0: the default %g s)", ap, MaxActionPeriod, DefaultActionPeriod)}
	}
	return nil
}
