package scenario

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"simgui/assets"
	"simgui/plugins"
)

// FuzzParse feeds the scenario reader and the resolver with mutations of the shipped
// scenarios and of hostile snippets. Whatever the bytes, neither may panic, every error must
// start with the file's name, and a plan that resolves must hold finite spawn poses and a
// positive step.
func FuzzParse(f *testing.F) {
	def, err := assets.Scenarios.ReadFile("scenarios/default.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(def)
	examples, _ := filepath.Glob("../../examples/*/*.yaml")
	for _, p := range examples {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{
		"world: {trackId: track.basic_arena.v1}\nagents:\n  vehicles:\n    - {vehicleId: vehicle.ks0223.v1, spawnPose: {position: [1e308, 0], yawDeg: 0}}\n",
		"world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.drone.simple.v1, params: {mass: \"NaN\", drive.maxSpeed: 1e-300}}\n",
		"a: &x [1, 2]\nb: [*x, *x]\n",
		"runtime: {stepSize: 0.01, actionPeriod: 1e9, timeScale: 2}\nworld: {trackId: track.maze.v1, params: {rows: 3}}\nvehicle: {vehicleId: vehicle.ks0223.v1}\n",
		"route: {waypoints: [[0, 0], [1e300, 1]], reachDistanceM: 1e300}\nworld: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\n",
	} {
		f.Add([]byte(s))
	}
	builtin := plugins.Builtin()
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data, "fuzz.yaml")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.yaml: ") {
				t.Fatalf("Parse error does not name the file: %v", err)
			}
			return
		}
		start := time.Now()
		p, err := Resolve(s, builtin)
		if d := time.Since(start); d > 10*time.Second {
			t.Fatalf("Resolve took %v", d) // a hang, not a timing: the fuzzer reports it either way
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.yaml: ") {
				t.Fatalf("Resolve error does not name the file: %v", err)
			}
			return
		}
		if !(p.StepSize > 0) || !(p.ActionPeriod >= p.StepSize) || math.IsInf(p.ActionPeriod, 0) {
			t.Fatalf("resolved step %g, action period %g", p.StepSize, p.ActionPeriod)
		}
		for _, a := range p.Agents {
			if sp := a.Spawn; sp != nil {
				for _, x := range []float64{sp.X, sp.Y, sp.Z, sp.Yaw} {
					if math.IsNaN(x) || math.IsInf(x, 0) {
						t.Fatalf("agent %s resolved with spawn %+v", a.Name, *sp)
					}
				}
			}
		}
	})
}
