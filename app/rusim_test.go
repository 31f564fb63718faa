package app_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"simgui/app/scenario"
	"simgui/app/world"
	"simgui/plugins"
)

// rusimDir holds the 30 scenario files of rusim's configs/scenarios (uav-simulator/uavsimulator),
// byte for byte, with the README that says where each came from.
const rusimDir = "testdata/rusim-scenarios"

// rusimRunSeconds is how long each file runs headless.
const rusimRunSeconds = 3

// rusimFailing are the files that must not load, with why: demo.yaml names a vehicle id rusim
// retired (rusim's runtime refuses it too).
var rusimFailing = map[string]string{
	"demo.yaml": `unknown vehicleId "vehicle.ks0223.arcade.blue.v1"`,
}

// expectedAgent is what a rusim file says about one agent, read from the YAML as rusim reads it.
type expectedAgent struct {
	name, vehicle string
	// at is the spawn position in the world frame (x east, y north) and yawDeg the heading,
	// when the file gives them.
	at     *[2]float64
	yawDeg *float64
}

// expectAgents reads the agents a rusim file asks for: agents.vehicles (agentId or agent-<i+1>,
// vehicleId or vehicle.vehicleId, spawnPose [x, y up, z] with yawDeg clockwise from north),
// else agents.count of vehicle.vehicleId named ego, agent-2, ...; the first of those starts at
// route.params spawn.position, else at the first waypoint facing the second.
func expectAgents(raw map[string]any) []expectedAgent {
	vehicle, agents, route := mapOf(raw["vehicle"]), mapOf(raw["agents"]), mapOf(raw["route"])
	defaultVehicle, _ := vehicle["vehicleId"].(string)
	var out []expectedAgent
	if vs, ok := agents["vehicles"].([]any); ok && len(vs) > 0 {
		for i, v := range vs {
			a := mapOf(v)
			e := expectedAgent{name: fmt.Sprintf("agent-%d", i+1), vehicle: defaultVehicle}
			if id, _ := a["agentId"].(string); id != "" {
				e.name = id
			}
			if vid, _ := a["vehicleId"].(string); vid != "" {
				e.vehicle = vid
			}
			if sp := mapOf(a["spawnPose"]); len(sp) > 0 {
				p := sp["position"].([]any)
				e.at = &[2]float64{num(p[0]), num(p[len(p)-1])}
				if y, ok := sp["yawDeg"]; ok {
					yaw := 90 - num(y)
					e.yawDeg = &yaw
				}
			}
			out = append(out, e)
		}
		return out
	}
	n := 1
	if c, ok := agents["count"].(int); ok && c > 0 {
		n = c
	}
	for i := range n {
		e := expectedAgent{name: "ego", vehicle: defaultVehicle}
		if i > 0 {
			e.name = fmt.Sprintf("agent-%d", i+1)
		}
		out = append(out, e)
	}
	wps, _ := route["waypoints"].([]any)
	if s, ok := mapOf(route["params"])["spawn.position"].(string); ok {
		xs := strings.Split(s, ",")
		var x, z float64
		fmt.Sscan(xs[0], &x)
		fmt.Sscan(xs[len(xs)-1], &z)
		out[0].at = &[2]float64{x, z}
	} else if len(wps) > 1 {
		a, b := wps[0].([]any), wps[1].([]any)
		out[0].at = &[2]float64{num(a[0]), num(a[len(a)-1])}
		yaw := math.Atan2(num(b[len(b)-1])-num(a[len(a)-1]), num(b[0])-num(a[0])) * 180 / math.Pi
		out[0].yawDeg = &yaw
	}
	return out
}

// rusimFiles returns the scenario files under rusimDir, by path, with their YAML as rusim's
// client reads it (a plain mapping).
func rusimFiles(t *testing.T) map[string]map[string]any {
	t.Helper()
	files := map[string]map[string]any{}
	err := filepath.WalkDir(rusimDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var raw map[string]any
		if err := yaml.Unmarshal(b, &raw); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		rel, _ := filepath.Rel(rusimDir, p)
		files[filepath.ToSlash(rel)] = raw
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 30 {
		t.Fatalf("%d scenario files in %s, want rusim's 30", len(files), rusimDir)
	}
	return files
}

// startPoses are the models of a world and the poses they started at, in spawn order.
type startPoses struct {
	names, vehicles []string
	poses           []world.Pose
	layout          *plugins.Layout
	track           string
}

func (s *startPoses) read(w *world.World) {
	for _, m := range w.Models() {
		s.names = append(s.names, m.Name)
		s.vehicles = append(s.vehicles, m.Vehicle.ID)
		s.poses = append(s.poses, m.Initial)
	}
	s.layout, s.track = w.Layout(), w.Track().ID
}

// Every scenario file of rusim's repository runs headless for a few seconds as rusim means it:
// the agents it names, on the track it names, where it puts them, in the ground plane.
func TestRusimScenariosRun(t *testing.T) {
	files := rusimFiles(t)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		raw := files[name]
		t.Run(name, func(t *testing.T) {
			sc, err := scenario.Load(filepath.Join(rusimDir, name))
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			plan, err := scenario.Resolve(sc, plugins.Builtin())
			if want, bad := rusimFailing[name]; bad {
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Fatalf("resolve: %v, want an error containing %s", err, want)
				}
				return
			}
			if err != nil {
				t.Fatalf("resolve: %v", err)
			}
			if !sc.RusimAxes() || sc.DisplayName != raw["displayName"] || sc.Version != raw["version"] {
				t.Errorf("metadata: rusim axes %v, displayName %q, version %d", sc.RusimAxes(), sc.DisplayName, sc.Version)
			}
			steps := uint64(math.Round(rusimRunSeconds / plan.StepSize))
			start, after, ran := runHeadless(t, plan, steps)
			checkRusimStart(t, raw, start)
			if ran != steps {
				t.Fatalf("ran %d steps, want %d", ran, steps)
			}
			f := start.layout.Floor
			for _, m := range after.Models() {
				p := m.Body.Pose()
				if bad := math.IsNaN(p.X + p.Y + p.Yaw); bad || m.Body.Base != 0 ||
					math.Abs(p.X-f.X) > f.Length/2+1 || math.Abs(p.Y-f.Y) > f.Width/2+1 {
					t.Errorf("%s after %d s: (%.3f, %.3f) base %g, off the %g × %g m floor or the ground", m.Name,
						rusimRunSeconds, p.X, p.Y, m.Body.Base, f.Length, f.Width)
				}
			}
		})
	}
}

// checkRusimStart checks a world's start against what the file says.
func checkRusimStart(t *testing.T, raw map[string]any, s *startPoses) {
	t.Helper()
	want := expectAgents(raw)
	if s.track != mapOf(raw["world"])["trackId"] {
		t.Errorf("track %s, the file names %v", s.track, mapOf(raw["world"])["trackId"])
	}
	if len(s.layout.Elements) == 0 {
		t.Errorf("track %s laid out with no elements", s.track)
	}
	if len(s.names) != len(want) {
		t.Fatalf("%d agents %v, the file asks for %d", len(s.names), s.names, len(want))
	}
	for i, w := range want {
		p := s.poses[i]
		if s.names[i] != w.name || s.vehicles[i] != w.vehicle {
			t.Errorf("agent %d is %s (%s), the file says %s (%s)", i, s.names[i], s.vehicles[i], w.name, w.vehicle)
		}
		if p.Z != 0 {
			t.Errorf("%s starts %g m up; ground vehicles start on the ground", w.name, p.Z)
		}
		if w.at != nil && (math.Abs(p.X-w.at[0]) > 1e-9 || math.Abs(p.Y-w.at[1]) > 1e-9) {
			t.Errorf("%s starts at (%g, %g), the file says (%g, %g)", w.name, p.X, p.Y, w.at[0], w.at[1])
		}
		if w.yawDeg != nil && math.Abs(math.Remainder(p.Yaw*180/math.Pi-*w.yawDeg, 360)) > 1e-9 {
			t.Errorf("%s starts facing %g°, the file says %g°", w.name, p.Yaw*180/math.Pi, *w.yawDeg)
		}
	}
	if mapOf(raw["world"])["trackId"] == "track.basic_arena.v1" && len(want) == 16 {
		// demo-swarm: 16 cars on a circle of radius 4 m, each 22.5° on from the one before, all
		// on the ground.
		seen := map[int]bool{}
		for i, p := range s.poses {
			if r := math.Hypot(p.X, p.Y); math.Abs(r-4) > 1e-3 || p.Z != 0 {
				t.Errorf("swarm car %d at (%g, %g, %g): %g m from the centre", i, p.X, p.Y, p.Z, r)
			}
			seen[int(math.Round(math.Atan2(p.Y, p.X)*180/math.Pi/22.5))] = true
		}
		if len(seen) != 16 {
			t.Errorf("the swarm takes %d of the circle's 16 places", len(seen))
		}
	}
}

// The same files through the training API, as rusim's client sends them (rusimReset): POST
// /reset to a simgui serving its default scenario gives each file's world: the same agents,
// starting poses and track layout as the file run headless.
func TestRusimScenariosThroughReset(t *testing.T) {
	url, current := resetServer(t)
	client := &http.Client{Timeout: 60 * time.Second}
	files := rusimFiles(t)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		raw := files[name]
		t.Run(name, func(t *testing.T) {
			body, _ := json.Marshal(rusimReset(raw))
			r, err := client.Post(url, "application/json", bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			reply, _ := io.ReadAll(r.Body)
			r.Body.Close()
			if want, bad := rusimFailing[name]; bad {
				if r.StatusCode != http.StatusBadRequest || !strings.Contains(string(reply), "Unknown vehicle id: 'vehicle.ks0223.arcade.blue.v1'.") {
					t.Fatalf("reset: %d %s; the file run fails with %s", r.StatusCode, reply, want)
				}
				return
			}
			if r.StatusCode != http.StatusOK {
				t.Fatalf("reset: %d %s\nrequest %s", r.StatusCode, reply, body)
			}
			ep := current()
			file := fileStart(t, name)
			if ep.trackID != file.track {
				t.Errorf("API track %s, file %s", ep.trackID, file.track)
			}
			if len(ep.agents) != len(file.names) {
				t.Fatalf("API agents %d, file %d", len(ep.agents), len(file.names))
			}
			shared := true
			for _, a := range ep.agents {
				shared = shared && a.world == ep.agents[0].world
			}
			for i, a := range ep.agents {
				s := a.world
				k := slices.Index(s.names, a.id)
				if a.id != file.names[i] || k < 0 || s.vehicles[k] != file.vehicles[i] {
					t.Errorf("agent %d: API %s (%s), file %s (%s)", i, a.id, a.vehicleID, file.names[i], file.vehicles[i])
					continue
				}
				// Isolated agents each have a world of their own, at the track's spawn: the file
				// run's one world places the others apart, so only the primary is compared.
				if (shared || i == ep.primary) && !samePose(s.poses[k], file.poses[i]) {
					t.Errorf("%s starts at %+v through /reset, at %+v from the file", a.id, s.poses[k], file.poses[i])
				}
			}
			if got := ep.agents[ep.primary].world.layout; !reflect.DeepEqual(got, file.layout) {
				t.Errorf("the track is laid out differently through /reset:\nAPI  %s\nfile %s", layoutSummary(got), layoutSummary(file.layout))
			}
		})
	}
}

// fileStart builds the world a file gives when run (without running it) and reads its start.
func fileStart(t *testing.T, name string) *startPoses {
	t.Helper()
	sc, err := scenario.Load(filepath.Join(rusimDir, name))
	if err != nil {
		t.Fatal(err)
	}
	plan, err := scenario.Resolve(sc, plugins.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	return buildStart(t, plan)
}

func samePose(a, b world.Pose) bool {
	return math.Abs(a.X-b.X) < 1e-9 && math.Abs(a.Y-b.Y) < 1e-9 && a.Z == b.Z &&
		math.Abs(math.Remainder(a.Yaw-b.Yaw, 2*math.Pi)) < 1e-9
}

func layoutSummary(l *plugins.Layout) string {
	b, _ := json.Marshal(struct {
		Floor    plugins.Floor
		Elements int
		Spawn    []plugins.SpawnPoint
		Route    *plugins.Route
	}{l.Floor, len(l.Elements), l.SpawnPoints, l.Route})
	return string(b)
}
