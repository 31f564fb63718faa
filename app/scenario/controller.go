package scenario

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"simgui/app/systems"
	"simgui/app/systems/follower"
)

// Agent controller keys of rusim's scenarios, taken out of an agent's vehicle params: they
// say who drives the vehicle, not what it is.
const (
	// KeyController is manual (the agent's commands drive it) or waypoint_follower (it drives
	// itself along the route: systems.waypoint_follower). route.params may give it for every
	// agent.
	KeyController = "controller.profile"
	// KeyWaypointGraph names the route a follower follows: the track's route.
	KeyWaypointGraph = "waypoint.graph"
	// KeyGate is what lets a follower through a traffic light in rusim (onnx, a policy;
	// ground_truth, the light's state). simgui does not simulate the lights: accepted, no
	// effect.
	KeyGate = "gate.kind"
)

// Controller profiles and gates.
var (
	controllers = []string{"manual", "waypoint_follower"}
	gates       = []string{"onnx", "ground_truth"}
)

// takeController removes the controller keys from params (a copy when it has any) and
// returns the profile, def when params give none; key names the params in errors.
func takeController(params map[string]any, def, key string) (map[string]any, string, error) {
	profile := def
	if !slices.ContainsFunc([]string{KeyController, KeyWaypointGraph, KeyGate}, func(k string) bool { _, ok := params[k]; return ok }) {
		return params, profile, nil
	}
	out := maps.Clone(params)
	if v, ok := out[KeyController]; ok {
		profile = strings.TrimSpace(fmt.Sprint(v))
		if !slices.Contains(controllers, profile) {
			return nil, "", fmt.Errorf("%s.%s: %q is not a controller (known: %s)", key, KeyController, profile, strings.Join(controllers, ", "))
		}
	}
	if v, ok := out[KeyGate]; ok {
		if g := strings.TrimSpace(fmt.Sprint(v)); !slices.Contains(gates, g) {
			return nil, "", fmt.Errorf("%s.%s: %q is not a gate (known: %s)", key, KeyGate, g, strings.Join(gates, ", "))
		}
	}
	if v, ok := out[KeyWaypointGraph]; ok && strings.TrimSpace(fmt.Sprint(v)) == "" {
		return nil, "", fmt.Errorf("%s.%s is empty", key, KeyWaypointGraph)
	}
	delete(out, KeyController)
	delete(out, KeyWaypointGraph)
	delete(out, KeyGate)
	return out, profile, nil
}

// followerSystem builds the system that drives the named agents along the route.
func followerSystem(names []string) (systems.Built, error) {
	var cfg yaml.Node
	if err := cfg.Encode(map[string]any{"models": names}); err != nil {
		return systems.Built{}, err
	}
	return systems.Build(systems.Entry{Type: follower.ID, Config: cfg})
}
