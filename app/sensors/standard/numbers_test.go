package standard_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"path"
	"strings"
	"testing"

	"simgui/app/sensors"
	"simgui/app/transport"
	"simgui/app/world"
	"simgui/assets"
	"simgui/plugins"
	"simgui/plugins/trackgen"
)

// runVerdict builds a world with v in the basic arena and its sensors system, as a run does,
// and steps it; it returns why the runtime refused the vehicle, or nil. A run that accepts
// must keep every pose finite.
func runVerdict(t *testing.T, v *plugins.VehicleDescriptor) error {
	t.Helper()
	track, err := plugins.Builtin().Track("track.basic_arena.v1")
	if err != nil {
		t.Fatal(err)
	}
	bus := transport.NewBus(transport.Options{})
	defer bus.Close()
	w, err := world.New(world.Config{Track: track, BuildLayout: trackgen.Build, Seed: 1, VehicleCollisions: true,
		Agents: []world.AgentSpec{{Name: "ego", Vehicle: v}}})
	if err != nil {
		return err
	}
	defer w.Close()
	if err := w.AddSystem(sensors.New(sensors.Options{Bus: bus}), world.SystemOptions{Name: "sensors"}); err != nil {
		return err
	}
	if err := w.Start(); err != nil {
		return err
	}
	for range 40 {
		w.Step()
	}
	for _, m := range w.Snapshot().Models {
		for _, x := range []float64{m.Pose.X, m.Pose.Y, m.Pose.Z, m.Pose.Yaw, m.Speed} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				t.Errorf("accepted vehicle ran into a non-finite pose %+v", m.Pose)
			}
		}
	}
	return nil
}

// numberPaths lists the paths of every number in a JSON document ("body.mass",
// "sensors.2.params.far").
func numberPaths(v any, at string, out *[]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			numberPaths(c, strings.TrimPrefix(at+"."+k, "."), out)
		}
	case []any:
		for i, c := range x {
			numberPaths(c, strings.TrimPrefix(fmt.Sprintf("%s.%d", at, i), "."), out)
		}
	case float64:
		*out = append(*out, at)
	}
}

// set replaces the number at path in a decoded JSON document.
func set(doc any, p string, x float64) {
	parts := strings.Split(p, ".")
	for _, k := range parts[:len(parts)-1] {
		switch d := doc.(type) {
		case map[string]any:
			doc = d[k]
		case []any:
			var i int
			fmt.Sscan(k, &i)
			doc = d[i]
		}
	}
	last := parts[len(parts)-1]
	switch d := doc.(type) {
	case map[string]any:
		d[last] = x
	case []any:
		var i int
		fmt.Sscan(last, &i)
		d[i] = x
	}
}

// Install refuses what run would refuse: every number of three built-in vehicles (body,
// drive, mounts, contract) is set in turn to hostile values; whenever the runtime refuses the
// vehicle, validation — the check `plugin install` and `plugin validate` run — must refuse it
// too, and whatever validation accepts must run with finite poses.
func TestInstallRefusesWhatRunRefuses(t *testing.T) {
	values := []float64{0, -1, 1e-300, 1e308, 1e6}
	ids := []string{"vehicle.ks0223.v1", "vehicle.prometeo.sport.v1", "vehicle.drone.simple.v1"}
	if testing.Short() {
		values, ids = []float64{1e-300, 1e308}, ids[:1]
	}
	var cases, runRefused, validRefused int
	for _, id := range ids {
		for _, file := range []string{plugins.DescriptorFile, plugins.ContractFile} {
			orig, err := fs.ReadFile(assets.Plugins, path.Join("plugins", id, file))
			if err != nil {
				t.Fatal(err)
			}
			var doc any
			json.Unmarshal(orig, &doc)
			var paths []string
			numberPaths(doc, "", &paths)
			for _, p := range paths {
				for _, x := range values {
					var mutant any
					json.Unmarshal(orig, &mutant)
					set(mutant, p, x)
					b, _ := json.Marshal(mutant)
					files := map[string][]byte{}
					for _, f := range []string{plugins.DescriptorFile, plugins.ContractFile} {
						files[f], _ = fs.ReadFile(assets.Plugins, path.Join("plugins", id, f))
					}
					files[file] = b
					v, err := plugins.ReadVehicle(files[plugins.DescriptorFile], files[plugins.ContractFile])
					if err != nil {
						continue // refused when decoding, by both
					}
					cases++
					verrs := plugins.ValidateVehicle(nil, v).Errors()
					rerr := runVerdict(t, v.Clone())
					if rerr != nil {
						runRefused++
					}
					if len(verrs) > 0 {
						validRefused++
					}
					if rerr != nil && len(verrs) == 0 {
						t.Errorf("%s %s %s = %g: validation accepts it, the run refuses: %v", id, file, p, x, rerr)
					}
				}
			}
		}
	}
	t.Logf("%d hostile descriptors: the run refused %d, validation %d", cases, runRefused, validRefused)
	if runRefused == 0 || validRefused < runRefused {
		t.Errorf("run refused %d, validation %d", runRefused, validRefused)
	}
}
