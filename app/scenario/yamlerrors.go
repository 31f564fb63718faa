package scenario

import (
	"fmt"
	"reflect"
	"regexp"

	"gopkg.in/yaml.v3"

	"simgui/app/yamlkinds"
)

var (
	notFoundRE = regexp.MustCompile(`line (\d+): field (\S+) not found in type scenario\.(\w+)`)
	sections   = map[string]string{
		"Scenario": "the top level", "Runtime": "runtime", "WorldSpec": "world", "VehicleSpec": "vehicle",
		"Agents": "agents", "AgentVehicle": "agents.vehicles[]", "SpawnPose": "spawnPose", "Sensors": "sensors",
		"Route": "route", "CameraSettings": "sensors.camera", "TelemetrySettings": "sensors.telemetry",
		"LineTrackerSettings": "sensors.lineTracker", "UltrasonicSettings": "sensors.ultrasonic", "Logging": "logging",
	}
)

// scenarioDoc describes a scenario file to yamlkinds, which words the messages.
func scenarioDoc(data []byte) yamlkinds.Doc {
	d := yamlkinds.Doc{
		Type: reflect.TypeOf(Scenario{}),
		Name: "the scenario",
		Want: "a mapping of keys (scenarioId, world, vehicle, ...)",
	}
	if data != nil {
		var doc yaml.Node
		if yaml.Unmarshal(data, &doc) == nil {
			d.Node = &doc
		}
	}
	return d
}

// explainYAML rewrites yaml.v3's errors into one line naming the key and what was expected:
// an unknown key with the section it is in, a value of the wrong kind with its key path and
// the kind wanted ("line 3: world must be a mapping, not a number"), never a Go type. data is
// the document, to find the key paths in; nil for errors that are not about types.
func explainYAML(err error, data []byte) string {
	return nameSections(scenarioDoc(data).Explain(err))
}

// nameSections names unknown keys by the section of the scenario they are in.
func nameSections(s string) string {
	return notFoundRE.ReplaceAllStringFunc(s, func(m string) string {
		p := notFoundRE.FindStringSubmatch(m)
		where := sections[p[3]]
		if where == "" {
			where = p[3]
		}
		return fmt.Sprintf("line %s: unknown key %q in %s", p[1], p[2], where)
	})
}

// checkWholeNumbers refuses a number with a fraction where the scenario wants a whole one:
// yaml.v3 would cut "seed: 1.5" to 1 without a word. Floats written whole (1e3, 4.0) pass.
func checkWholeNumbers(data []byte) error {
	d := scenarioDoc(data)
	if d.Node == nil {
		return nil // Decode has reported it
	}
	return d.CheckWholeNumbers()
}
