package scenario

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"simgui/plugins"
)

// rusim writes positions in Unity's axes: x east, y up, z north, with yaw in degrees clockwise
// seen from above, 0 facing +z. The world frame is x east, y north, z up, yaw counter-clockwise
// from +x, so x = x_unity, y = z_unity and yaw = 90° − yaw_unity (docs/ARCHITECTURE.md). The
// up component is dropped: spawn points sit on the ground, and rusim's 0.2 m is the height it
// drops a car from.

// Axes values: which frame a scenario's positions are in.
const (
	AxesWorld = "world" // x east, y north: simgui's own frame
	AxesRusim = "rusim" // Unity's [x, y up, z north], yaw clockwise from north
)

// RusimAxes reports whether the scenario's positions and yaws are in rusim's axes: when it
// says axes: rusim, or says no axes and has runtime.runtimeMode, a key every rusim scenario
// has (rusim's validator requires it) and simgui's own scenarios leave out.
func (s *Scenario) RusimAxes() bool {
	switch s.Axes {
	case AxesRusim:
		return true
	case AxesWorld:
		return false
	}
	return s.Runtime.RuntimeMode != ""
}

// UnityYawDeg converts a yaw in degrees between rusim's axes and the world frame (the map is
// its own inverse).
func UnityYawDeg(deg float64) float64 { return 90 - deg }

// UnityPoint parses one rusim point, "x,y,z" (Unity, y up) or "x,z", into world x, y.
func UnityPoint(s string) (x, y float64, err error) { return unityPoint(s, "m") }

// unityPoint is UnityPoint for a point in unit (metres, or a maze's grid cells), which the
// range error names.
func unityPoint(s, unit string) (x, y float64, err error) {
	var xs []float64
	for p := range strings.SplitSeq(strings.TrimSpace(s), ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, 0, fmt.Errorf("%q is not \"x,z\" or \"x,y,z\"", s)
		}
		if math.Abs(v) > plugins.WorldExtent {
			return 0, 0, fmt.Errorf("%q: %s is outside -%d..%d %s", s, strings.TrimSpace(p), plugins.WorldExtent, plugins.WorldExtent, unit)
		}
		xs = append(xs, v)
	}
	switch len(xs) {
	case 2:
		return xs[0], xs[1], nil
	case 3:
		return xs[0], xs[2], nil
	}
	return 0, 0, fmt.Errorf("%q is not \"x,z\" or \"x,y,z\"", s)
}

// UnityPointList converts rusim's "x,y,z;x,y,z" (also "x,z", separated by ';', '|' or
// newlines) into the world form "x,y;x,y".
func UnityPointList(s string) (string, error) { return unityPointList(s, "m") }

// unityPointList is UnityPointList for points in unit.
func unityPointList(s, unit string) (string, error) {
	f := func(r rune) bool { return r == ';' || r == '|' || r == '\n' || r == '\r' }
	// Separators counted before splitting: a 2 MiB string of them must not become a million
	// parts (two a point leaves room for "\r\n" and a trailing one).
	seps := 0
	for _, r := range s {
		if f(r) {
			seps++
		}
	}
	if seps > 2*plugins.MaxWaypoints {
		return "", fmt.Errorf("%d separators: a list has at most %d points", seps, plugins.MaxWaypoints)
	}
	var out []string
	for _, p := range strings.FieldsFunc(s, f) {
		if strings.TrimSpace(p) == "" {
			continue
		}
		x, y, err := unityPoint(p, unit)
		if err != nil {
			return "", err
		}
		out = append(out, formatPoint(x, y))
	}
	if len(out) == 0 {
		return "", fmt.Errorf("%q holds no points", s)
	}
	if len(out) > plugins.MaxWaypoints {
		return "", fmt.Errorf("%d points: a list has at most %d", len(out), plugins.MaxWaypoints)
	}
	return strings.Join(out, ";"), nil
}

// formatPoint writes a world point "x,y" with the shortest exact decimals.
func formatPoint(x, y float64) string {
	return strconv.FormatFloat(x, 'g', -1, 64) + "," + strconv.FormatFloat(y, 'g', -1, 64)
}

// UnityTrackParam converts one rusim track parameter into the world frame: spawn.position
// ("x,y,z" or "x,z") becomes "x,y", route.waypoints and maze.path_encoded (grid cells "x,z",
// east and north) world point lists, spawn.yaw_deg 90° − yaw. Other keys are returned
// unchanged. Keys are matched in any case, as rusim matches them.
func UnityTrackParam(key string, v any) (any, error) {
	switch strings.ToLower(strings.TrimSpace(key)) {
	case "spawn.position":
		x, y, err := UnityPoint(fmt.Sprint(v))
		if err != nil {
			return nil, err
		}
		return formatPoint(x, y), nil
	case "route.waypoints":
		return UnityPointList(fmt.Sprint(v))
	case "maze.path_encoded":
		return unityPointList(fmt.Sprint(v), "cells")
	case "spawn.yaw_deg":
		d, err := number(v)
		if err != nil {
			return nil, err
		}
		// Checked as given, in rusim's frame: the world frame's range check quoted the
		// converted value (−400 as 490) and let 90 − 360 … 90 + 360 through.
		if d < -360 || d > 360 {
			return nil, fmt.Errorf("%v is outside -360..360 degrees", v)
		}
		return math.Remainder(UnityYawDeg(d), 360), nil
	}
	return v, nil
}

// number reads a YAML or request value as a finite number.
func number(v any) (float64, error) {
	switch x := v.(type) {
	case int:
		return float64(x), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, fmt.Errorf("%v is not a finite number", x)
		}
		return x, nil
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(fmt.Sprint(v)), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("%q is not a number", fmt.Sprint(v))
	}
	return f, nil
}

// unityTrackParams converts a map of rusim track parameters; where names the map in errors.
func unityTrackParams(where string, in map[string]any) (map[string]any, error) {
	if in == nil {
		return nil, nil
	}
	out := make(map[string]any, len(in))
	for k, v := range in {
		c, err := UnityTrackParam(k, v)
		if err != nil {
			return nil, fmt.Errorf("%s.%s: %w", where, k, err)
		}
		out[k] = c
	}
	return out, nil
}

// rusimReachDistance is the reach distance rusim's clients send with waypoints that give none.
const rusimReachDistance = 1.0

// InWorldAxes returns a copy of a scenario written in rusim's axes with every position and
// yaw in the world frame and Axes set to AxesWorld: world.params, route.params and each
// agent's trackParams (UnityTrackParam), route waypoints ([x, z] or [x, y up, z]), spawn poses
// (a pose without a yaw faces as track's first spawn point, else north, as the training API
// places agents; track may be nil). loop and reachDistanceM belong to the waypoints, as
// rusim's scenario_to_reset_config (python/sim_client/scenario.py) sends them: with waypoints
// they are always set (default false and 1 m), without them they are dropped. The receiver is
// not changed.
func (s *Scenario) InWorldAxes(track *plugins.TrackDescriptor) (*Scenario, error) {
	out := *s
	out.Axes = AxesWorld
	var err error
	if out.World.Params, err = unityTrackParams("world.params", s.World.Params); err != nil {
		return nil, err
	}
	if r := s.Route; r != nil {
		c := Route{}
		if c.Params, err = unityTrackParams("route.params", r.Params); err != nil {
			return nil, err
		}
		for i, wp := range r.Waypoints {
			switch len(wp) {
			case 2:
				c.Waypoints = append(c.Waypoints, []float64{wp[0], wp[1]})
			case 3:
				c.Waypoints = append(c.Waypoints, []float64{wp[0], wp[2]})
			default:
				return nil, fmt.Errorf("route.waypoints[%d]: want [x, z] or [x, y, z], got %d numbers", i, len(wp))
			}
		}
		if len(c.Waypoints) > 0 {
			loop := r.Loop != nil && *r.Loop
			c.Loop, c.ReachDistanceM = &loop, r.ReachDistanceM
			if c.ReachDistanceM <= 0 {
				c.ReachDistanceM = rusimReachDistance
			}
		}
		out.Route = &c
	}
	if a := s.Agents; a != nil {
		c := *a
		c.Vehicles = make([]AgentVehicle, len(a.Vehicles))
		yaw := 90.0
		if track != nil && len(track.SpawnPoints) > 0 {
			yaw = track.SpawnPoints[0].YawDeg
		}
		for i, v := range a.Vehicles {
			v.SpawnPose = unityPose(v.SpawnPose, yaw)
			if v.TrackParams, err = unityTrackParams(fmt.Sprintf("agents.vehicles[%d].trackParams", i), v.TrackParams); err != nil {
				return nil, err
			}
			c.Vehicles[i] = v
		}
		out.Agents = &c
	}
	return &out, nil
}

// unityPose converts a spawn pose written in rusim's axes: position [x, y up, z] (or [x, z])
// to world x, y on the ground, yaw clockwise from north to counter-clockwise from east. A pose
// without a yaw faces as defaultYaw (world degrees), as the training API does.
func unityPose(p *SpawnPose, defaultYaw float64) *SpawnPose {
	if p == nil {
		return nil
	}
	if p.components == 0 {
		// A heading alone: the agent is placed as without a pose, facing so.
		if !p.hasYaw {
			return nil
		}
		return HeadingOnly(UnityYawDeg(p.YawDeg))
	}
	x, z := p.Position[0], p.Position[2]
	if p.components == 2 {
		z = p.Position[1]
	}
	yaw := defaultYaw
	if p.hasYaw {
		yaw = UnityYawDeg(p.YawDeg)
	}
	return &SpawnPose{Position: Vec3{x, z, 0}, YawDeg: yaw, components: 3, hasYaw: true}
}

// PoseIn returns a world pose (x, y, altitude z and yaw in degrees) as a spawnPose in the
// scenario's axes, for writing it back into the file.
func (s *Scenario) PoseIn(x, y, z, yawDeg float64) *SpawnPose {
	if s.RusimAxes() {
		return &SpawnPose{Position: Vec3{x, z, y}, YawDeg: UnityYawDeg(yawDeg), components: 3, hasYaw: true}
	}
	return &SpawnPose{Position: Vec3{x, y, z}, YawDeg: yawDeg, components: 3, hasYaw: true}
}
