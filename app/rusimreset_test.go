package app_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// This file is test data's reader: what rusim's own client does with a scenario file, written
// here from its behaviour (python/sim_client/scenario.py in uav-simulator/uavsimulator,
// scenario_to_reset_config), so that the test can send the /reset rusim sends and can say what
// each file asks for without simgui's scenario package.

// mapOf returns v as a mapping, or an empty one.
func mapOf(v any) map[string]any {
	if m, ok := v.(map[string]any); ok {
		return m
	}
	return map[string]any{}
}

// pyStr writes a YAML value as Python's str() does, which is how rusim's client turns params
// into strings: True/False for booleans, a float always with a decimal point.
func pyStr(v any) string {
	switch x := v.(type) {
	case bool:
		if x {
			return "True"
		}
		return "False"
	case float64:
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		return s
	case nil:
		return "None"
	}
	return fmt.Sprint(v)
}

// pyBool writes a value's truth as rusim's client does for flags: "true" or "false".
func pyBool(v any) string {
	switch x := v.(type) {
	case bool:
		return strconv.FormatBool(x)
	case nil:
		return "false"
	case int:
		return strconv.FormatBool(x != 0)
	case float64:
		return strconv.FormatBool(x != 0)
	case string:
		return strconv.FormatBool(x != "")
	}
	return "true"
}

func num(v any) float64 {
	switch x := v.(type) {
	case int:
		return float64(x)
	case float64:
		return x
	}
	f, _ := strconv.ParseFloat(fmt.Sprint(v), 64)
	return f
}

type kv struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// kvs turns a params mapping into key/value pairs, sorted by key (Go maps have no order; no
// file gives a key twice, so the order does not change the reset).
func kvs(m map[string]any) []kv {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := []kv{}
	for _, k := range keys {
		out = append(out, kv{k, pyStr(m[k])})
	}
	return out
}

// rusimReset is the /reset body rusim's client builds from a scenario file: route.params then
// world.params as trackParams; vehicle.params as vehicleParams, with sensors.camera.profile
// put over camera.profile; the waypoints as "x,y,z" with three decimals (a [x, z] pair gets
// y 0), route.loop and route.reach_distance_m (default 1.0) with them; flags for
// runtime.headless and the agents' isolated, seeEachOther and collisionsEnabled; an agents
// list from agents.vehicles (spawnPose as spawn.position "x,y,z" and spawn.yaw_deg in their
// trackParams) or, for agents.count above 1, ego, agent-2, ...; selectedVehicleId the primary
// agent's vehicle.
func rusimReset(raw map[string]any) map[string]any {
	world, vehicle, route := mapOf(raw["world"]), mapOf(raw["vehicle"]), mapOf(raw["route"])
	runtime, agents, sensors := mapOf(raw["runtime"]), mapOf(raw["agents"]), mapOf(raw["sensors"])
	trackParams := append(kvs(mapOf(route["params"])), kvs(mapOf(world["params"]))...)
	vehicleParams := kvs(mapOf(vehicle["params"]))
	if p, ok := mapOf(sensors["camera"])["profile"].(string); ok && strings.TrimSpace(p) != "" {
		i := slices.IndexFunc(vehicleParams, func(x kv) bool { return x.Key == "camera.profile" })
		if i < 0 {
			vehicleParams = append(vehicleParams, kv{"camera.profile", strings.TrimSpace(p)})
		} else {
			vehicleParams[i].Value = strings.TrimSpace(p)
		}
	}
	if wps, ok := route["waypoints"].([]any); ok && len(wps) > 0 {
		var parts []string
		for _, w := range wps {
			p := w.([]any)
			if len(p) == 2 {
				parts = append(parts, fmt.Sprintf("%.3f,0.000,%.3f", num(p[0]), num(p[1])))
			} else {
				parts = append(parts, fmt.Sprintf("%.3f,%.3f,%.3f", num(p[0]), num(p[1]), num(p[2])))
			}
		}
		reach := 1.0
		if r, ok := route["reachDistanceM"]; ok {
			reach = num(r)
		}
		trackParams = append(trackParams, kv{"route.waypoints", strings.Join(parts, ";")},
			kv{"route.loop", pyBool(route["loop"])}, kv{"route.reach_distance_m", pyStr(reach)})
	}
	flags := []kv{}
	if h, ok := runtime["headless"]; ok {
		flags = append(flags, kv{"runtime.headless", pyBool(h)})
	}
	for _, f := range [][2]string{{"isolated", "agents.isolated"}, {"seeEachOther", "agents.see_each_other"}, {"collisionsEnabled", "agents.collisions_enabled"}} {
		if v, ok := agents[f[0]]; ok {
			flags = append(flags, kv{f[1], pyBool(v)})
		}
	}
	list := rusimAgents(agents, vehicle, vehicleParams)
	selected := fmt.Sprint(vehicle["vehicleId"])
	if vehicle["vehicleId"] == nil {
		selected = ""
	}
	if len(list) > 0 {
		primary := list[0]
		if i := slices.IndexFunc(list, func(a map[string]any) bool { return a["isPrimary"] == true }); i >= 0 {
			primary = list[i]
		}
		selected = primary["vehicleId"].(string)
	}
	seed := 0
	if s, ok := runtime["seed"].(int); ok {
		seed = s
	}
	timeScale := 1.0
	if ts, ok := runtime["timeScale"]; ok && num(ts) != 0 {
		timeScale = num(ts)
	}
	return map[string]any{"seed": seed, "timeScale": timeScale, "selectedTrackId": fmt.Sprint(world["trackId"]),
		"selectedVehicleId": selected, "trackParams": trackParams, "vehicleParams": vehicleParams, "flags": flags, "agents": list}
}

// rusimAgents is the agents list of rusimReset.
func rusimAgents(agents, vehicle map[string]any, base []kv) []map[string]any {
	out := []map[string]any{}
	defaultVehicle, _ := vehicle["vehicleId"].(string)
	if vs, ok := agents["vehicles"].([]any); ok && len(vs) > 0 {
		hasPrimary := slices.ContainsFunc(vs, func(v any) bool { return mapOf(v)["primary"] == true })
		for i, v := range vs {
			a := mapOf(v)
			id, _ := a["agentId"].(string)
			if id == "" {
				id = fmt.Sprintf("agent-%d", i+1)
			}
			vid, _ := a["vehicleId"].(string)
			if vid == "" {
				vid = defaultVehicle
			}
			primary := i == 0
			if hasPrimary {
				primary = a["primary"] == true
			}
			tp := kvs(mapOf(a["trackParams"]))
			if sp, ok := a["spawnPose"].(map[string]any); ok {
				switch p := sp["position"].(type) {
				case []any:
					if len(p) == 2 {
						tp = append(tp, kv{"spawn.position", fmt.Sprintf("%.3f,0.200,%.3f", num(p[0]), num(p[1]))})
					} else if len(p) == 3 {
						tp = append(tp, kv{"spawn.position", fmt.Sprintf("%.3f,%.3f,%.3f", num(p[0]), num(p[1]), num(p[2]))})
					}
				case map[string]any:
					y := 0.2
					if v, ok := p["y"]; ok {
						y = num(v)
					}
					tp = append(tp, kv{"spawn.position", fmt.Sprintf("%.3f,%.3f,%.3f", num(p["x"]), y, num(p["z"]))})
				}
				yaw, ok := sp["yawDeg"]
				if !ok {
					yaw, ok = sp["yaw_deg"]
				}
				if ok {
					tp = append(tp, kv{"spawn.yaw_deg", pyStr(num(yaw))})
				}
			}
			out = append(out, map[string]any{"agentId": id, "vehicleId": vid, "isPrimary": primary, "trackParams": tp,
				"vehicleParams": kvs(mapOf(a["params"])), "flags": []kv{}})
		}
		return out
	}
	n, _ := agents["count"].(int)
	for i := 0; n > 1 && i < n; i++ {
		id := "ego"
		params := base
		if i > 0 {
			id, params = fmt.Sprintf("agent-%d", i+1), []kv{}
		}
		out = append(out, map[string]any{"agentId": id, "vehicleId": defaultVehicle, "isPrimary": i == 0,
			"trackParams": []kv{}, "vehicleParams": params, "flags": []kv{}})
	}
	return out
}
