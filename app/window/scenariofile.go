package window

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

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

func (s *simScreen) openPrompt() {
	if s.g.opts.Load == nil || s.g.opts.New == nil {
		s.status("opening scenarios is not available here")
		return
	}
	initial := ""
	if src := s.g.cur.Plan.Scenario.Source; fileExists(src) {
		initial = src
	}
	s.openPromptAt(initial, "")
}

// openPromptAt opens the Open prompt holding path, with note under it: after a failed open,
// the path to mend and why it failed.
func (s *simScreen) openPromptAt(path, note string) {
	req := FileRequest{Title: "Open scenario", Filter: "Scenario (YAML)", Extensions: []string{"yaml", "yml"}, StartDir: dirOf(path)}
	s.prompt = newPrompt("Open scenario", req, path, func(p string) {
		if p == defaultWord && !fileExists(p) {
			s.g.openDefault()
			return
		}
		s.g.openScenario(p, func(err string) {
			if s.prompt == nil { // not over another prompt opened meanwhile
				s.openPromptAt(p, err)
			}
		})
	})
	// The examples are folders (examples/maze/scenario.yaml): a folder typed failed as "not a
	// regular file (a folder)", leaving the file in it to be guessed.
	s.prompt.inFolder = folderScenario
	if n := s.unsavedHere(); n > 0 {
		// The prompt is the confirmation: Enter replaces the world and these robots with it.
		s.prompt.warn = fmt.Sprintf("Opening replaces this world and the %s spawned here (Esc, then Ctrl+S, saves a world with them)", robotsCount(n))
	} else if note == "" && s.g.cur.Plan.Scenario.Source != scenario.DefaultName {
		note = `"` + defaultWord + `" opens the default scenario, the KS0223 in the cardboard corridor`
	}
	s.prompt.note = note
	s.prompt.layout(s.w, s.h, s.barH)
}

// defaultWord, typed in the Open prompt, opens the default scenario (unless a file of that
// name is in the working directory).
const defaultWord = "default"

// openDefault makes the default scenario the host's scenario world again.
func (g *game) openDefault() {
	g.Status("opening the default scenario …")
	g.replaceScenario("open failed: ", func() (*scenario.Plan, error) { return g.opts.Load("") }, "opened the default scenario", nil)
}

// robotsCount is "1 robot" or "n robots".
func robotsCount(n int) string {
	if n == 1 {
		return "1 robot"
	}
	return fmt.Sprintf("%d robots", n)
}

func (s *simScreen) savePrompt() {
	// Suggest a name no file has: Enter alone must not overwrite anything.
	dir, base := "", "scenario"
	if src := s.g.cur.Plan.Scenario.Source; fileExists(src) {
		dir, base = filepath.Dir(src), strings.TrimSuffix(filepath.Base(src), filepath.Ext(src))+"-saved"
	}
	s.savePromptAt(freeName(dir, base, ".yaml"), "")
}

// savePromptAt opens the Save prompt holding path, with note under it: after a failed save,
// the path to mend and why it failed.
func (s *simScreen) savePromptAt(path, note string) {
	req := FileRequest{Title: "Save scenario", Save: true, Filter: "Scenario (YAML)", Extensions: []string{"yaml", "yml"}, StartDir: dirOf(path),
		Name: filepath.Base(path)}
	s.prompt = newPrompt("Save the world as a scenario", req, path, func(path string) {
		// The world as it is when the path is given (game goroutine).
		plan, snap := s.g.cur.Plan, s.g.cur.Loop.Snapshot()
		s.status("saving " + path + " …")
		s.g.async(func() func() {
			err := saveScenario(path, scenarioFromWorld(plan, snap))
			return func() {
				if err == nil && s.g.cur.Plan == plan { // the same world still
					s.savedNames = map[string]bool{}
					for _, m := range snap.Models {
						s.savedNames[m.Name] = true
					}
				}
				if err != nil {
					msg := "save failed: " + err.Error()
					s.status(msg)
					if s.prompt == nil { // not over another prompt opened meanwhile
						s.savePromptAt(path, msg)
					}
					return
				}
				s.status("saved " + path)
			}
		})
	})
	s.prompt.note = note
	s.prompt.layout(s.w, s.h, s.barH)
}

// openScenario loads path and, if it checks out, makes it the host's scenario world.
// failed, when not nil, is told why on the game goroutine (the prompt comes back with the path).
func (g *game) openScenario(path string, failed func(why string)) {
	g.Status("opening " + path + " …")
	g.replaceScenario("open failed: ", func() (*scenario.Plan, error) { return g.opts.Load(path) }, "opened "+path, failed)
}

// replaceScenario builds, on the worker, the plan that plan gives and makes it the host's
// scenario world (the host stops and closes the old one); the status then says done. If it
// cannot be built, the old scenario keeps running, and the status (and failed, when not nil)
// says why after prefix.
func (g *game) replaceScenario(prefix string, plan func() (*scenario.Plan, error), done string, failed func(why string)) {
	fail := func(err error) func() {
		msg := prefix + err.Error()
		return func() {
			g.Status(msg)
			if failed != nil {
				failed(msg)
			}
		}
	}
	g.async(func() func() {
		p, err := plan()
		if err != nil {
			return fail(err)
		}
		sim, err := g.opts.New(p)
		if err != nil {
			return fail(err)
		}
		g.host.SetScenario(sim)
		// What the run says of the scenario (values it leaves unused, a randomization block
		// it does not draw), which the log alone would keep from the window's user.
		msg := done
		if notes := p.RunNotes(); len(notes) > 0 {
			msg += "; " + notes[0].Text
			if len(notes) > 1 {
				msg += fmt.Sprintf(" (and %d more in the log)", len(notes)-1)
			}
		}
		return func() { g.Status(msg) }
	})
}

// freeName is dir/base+ext, or dir/base-2+ext, -3, ... the first no file has.
func freeName(dir, base, ext string) string {
	p := filepath.Join(dir, base+ext)
	for n := 2; n < 1000; n++ {
		if _, err := os.Lstat(p); os.IsNotExist(err) {
			break
		}
		p = filepath.Join(dir, fmt.Sprintf("%s-%d%s", base, n, ext))
	}
	return p
}

// folderScenario is the scenario file in folder p (scenario.yaml or .yml, as the examples
// have), or "" when p is not a folder or holds neither.
func folderScenario(p string) string {
	if st, err := os.Stat(p); err != nil || !st.IsDir() {
		return ""
	}
	for _, name := range []string{"scenario.yaml", "scenario.yml"} {
		if f := filepath.Join(p, name); fileExists(f) {
			return f
		}
	}
	return ""
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

func dirOf(p string) string {
	if p == "" {
		return ""
	}
	return filepath.Dir(p)
}
