package window

import (
	"fmt"
	"io"
	"math"

	"gopkg.in/yaml.v3"

	"simgui/app/scenario"
	"simgui/app/world"
	"simgui/plugins/archive"
	"simgui/safefile"
)

// scenarioFromWorld returns sc rewritten to start where the world is now: every robot on show
// (configured or spawned since) becomes an agents.vehicles entry at its current pose, with
// the vehicle params it was configured with, and the seed is the current episode's. Track,
// systems, runtime and the rest are kept.
func scenarioFromWorld(plan *scenario.Plan, snap *world.Snapshot) *scenario.Scenario {
	sc := *plan.Scenario
	sc.Runtime.Seed = snap.Seed
	params := map[string]map[string]any{}
	for i, a := range plan.Agents {
		if i < len(plan.AgentParams) {
			params[a.Name] = plan.AgentParams[i][0]
		}
	}
	agents := &scenario.Agents{}
	if sc.Agents != nil {
		agents.Isolated = sc.Agents.Isolated
		agents.SeeEachOther = sc.Agents.SeeEachOther
		agents.CollisionsEnabled = sc.Agents.CollisionsEnabled
	}
	for _, m := range snap.Models {
		agents.Vehicles = append(agents.Vehicles, scenario.AgentVehicle{
			AgentID: m.Name, VehicleID: m.VehicleID, Primary: m.Name == plan.Primary,
			Params: params[m.Name],
			// In the file's own axes: a rusim-shaped scenario stays rusim-shaped.
			SpawnPose: sc.PoseIn(round(m.Pose.X, 1e4), round(m.Pose.Y, 1e4), round(m.Pose.Z, 1e4), round(m.Pose.Yaw*180/math.Pi, 1e3)),
		})
	}
	if len(agents.Vehicles) > 0 {
		// vehicle: stays; its params are already part of each agent's, and merging them
		// again changes nothing.
		sc.Agents = agents
	}
	return &sc
}

// prune drops empty mapping values below n and puts scalar lists in flow style.
func prune(n *yaml.Node) {
	switch n.Kind {
	case yaml.MappingNode:
		kept := n.Content[:0]
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			prune(v)
			if empty(v) {
				continue
			}
			kept = append(kept, k, v)
		}
		n.Content = kept
	case yaml.SequenceNode:
		flat := true
		for _, c := range n.Content {
			prune(c)
			flat = flat && c.Kind == yaml.ScalarNode
		}
		if flat {
			n.Style = yaml.FlowStyle
		}
	}
}

func empty(n *yaml.Node) bool {
	switch n.Kind {
	case yaml.MappingNode, yaml.SequenceNode:
		return len(n.Content) == 0
	case yaml.ScalarNode:
		return n.Tag == "!!null" || (n.Tag == "!!str" && n.Value == "") || (n.Tag == "!!bool" && n.Value == "false")
	}
	return false
}

func round(x, k float64) float64 { return math.Round(x*k) / k }

// marshalScenario writes a scenario as YAML in the shape scenario.Parse reads, leaving out
// keys that say nothing (null, "", false, empty lists and maps) and writing short lists of
// numbers on one line.
func marshalScenario(sc *scenario.Scenario) ([]byte, error) {
	var n yaml.Node
	if err := n.Encode(sc); err != nil {
		return nil, fmt.Errorf("encode scenario: %w", err)
	}
	prune(&n)
	data, err := yaml.Marshal(&n)
	if err != nil {
		return nil, fmt.Errorf("encode scenario: %w", err)
	}
	header := "# Saved by the simgui window: the world as it was, robots at their poses then.\n"
	return append([]byte(header), data...), nil
}

// saveScenario writes sc to path atomically: a temporary file beside it, synced, renamed.
func saveScenario(path string, sc *scenario.Scenario) error {
	data, err := marshalScenario(sc)
	if err != nil {
		return err
	}
	if _, err := scenario.Parse(data, path); err != nil {
		return fmt.Errorf("%s: the scenario would not read back: %w", path, err)
	}
	if err := safefile.CheckWritable(path); err != nil {
		return err
	}
	return writeAtomic(path, data)
}

// writeAtomic writes data to path through a synced temporary file and a rename, so that a
// failure never leaves a half-written file.
func writeAtomic(path string, data []byte) error {
	err := archive.WriteAtomic(path, 0o644, func(w io.Writer) error { _, err := w.Write(data); return err })
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, safefile.Cause(err))
	}
	return nil
}
