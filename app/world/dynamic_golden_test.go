package world

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"simgui/physics/drive"
	"simgui/plugins"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/dynamic-golden.json from this build's dynamic step")

// The tolerance of TestDynamicStepMatchesGolden: every robot and box ends within goldenDist
// metres and goldenYaw radians of where the recorded step left it.
const (
	goldenDist = 0.001
	goldenYaw  = 0.001
)

// goldenPose is one body's final pose in testdata/dynamic-golden.json.
type goldenPose struct {
	Name string     `json:"name"`
	XYA  [3]float64 `json:"xyYaw"`
}

// The dynamic step keeps today's results: 100 KS0223-sized robots on differential drives,
// driving and turning in a walled arena with a concave block and two pushable crates (the
// worldbench scene, with contacts of every kind), end 2 s later within goldenDist and goldenYaw
// of the poses recorded in testdata/dynamic-golden.json. The file was written by the dynamic
// step as it was before the kinematic mode and the cp/v2 fork (go test -run
// TestDynamicStepMatchesGolden -update-golden ./app/world rewrites it).
func TestDynamicStepMatchesGolden(t *testing.T) {
	const n, half = 100, 3.5
	track := &plugins.TrackDescriptor{ID: "track.golden.v1", Elements: []plugins.Element{
		{Kind: "wall", Name: "s", Y: -half, Length: 2 * half, Width: 0.02, Height: 0.25},
		{Kind: "wall", Name: "n", Y: half, Length: 2 * half, Width: 0.02, Height: 0.25},
		{Kind: "wall", Name: "w", X: -half, Length: 0.02, Width: 2 * half, Height: 0.25},
		{Kind: "wall", Name: "e", X: half, Length: 0.02, Width: 2 * half, Height: 0.25},
		{Kind: "polygon", Name: "block", Height: 0.3, Points: [][2]float64{{0.2, 0.2}, {1.2, 0.2}, {1.2, 1.2}, {0.9, 1.2}, {0.9, 0.5}, {0.2, 0.5}}},
		{Kind: "box", Name: "crate1", X: -1.1, Y: 0.1, Length: 0.2, Width: 0.2, Height: 0.2, Movable: true, Mass: 0.5},
		{Kind: "box", Name: "crate2", X: 0.6, Y: -1.4, YawDeg: 30, Length: 0.3, Width: 0.2, Height: 0.2, Movable: true, Mass: 1},
	}}
	cfg := Config{Track: track, VehicleCollisions: true, BuildLayout: func(t *plugins.TrackDescriptor, _ map[string]any, _ int64) (*plugins.Layout, error) {
		return &plugins.Layout{Elements: t.Elements}, nil
	}}
	for i := 0; len(cfg.Agents) < n; i++ {
		x, y := -half+0.5+float64(i%12)*0.55, -half+0.5+float64(i/12)*0.55
		if (x > 0 && x < 1.4 && y > 0 && y < 1.4) || math.Hypot(x+1.1, y-0.1) < 0.4 || math.Hypot(x-0.6, y+1.4) < 0.4 {
			continue
		}
		p := Pose{X: x, Y: y, Yaw: float64(i%8) * math.Pi / 4}
		cfg.Agents = append(cfg.Agents, AgentSpec{Name: fmt.Sprintf("r%d", i), Vehicle: testVehicle, Spawn: &p})
	}
	w, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for i, m := range w.Models() {
		m.Command = drive.Command{Throttle: 0.6 + 0.4*float64((i*37)%10)/10, Steer: float64((i*13)%21-10) / 20}
	}
	for range 400 {
		w.Step()
	}
	var got []goldenPose
	for _, m := range w.Models() {
		p, _ := w.Pose(m.Name)
		got = append(got, goldenPose{Name: m.Name, XYA: [3]float64{p.X, p.Y, p.Yaw}})
	}
	for _, b := range w.Boxes() {
		p := bodyPose(b)
		got = append(got, goldenPose{Name: b.Name, XYA: [3]float64{p.X, p.Y, p.Yaw}})
	}
	path := filepath.Join("testdata", "dynamic-golden.json")
	if *updateGolden {
		data, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want []goldenPose
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	if len(want) != len(got) {
		t.Fatalf("%d bodies, the golden file has %d", len(got), len(want))
	}
	var worstD, worstA float64
	moved := 0
	for i := range want {
		g, w := got[i], want[i]
		if g.Name != w.Name {
			t.Fatalf("body %d is %s, the golden file says %s", i, g.Name, w.Name)
		}
		d := math.Hypot(g.XYA[0]-w.XYA[0], g.XYA[1]-w.XYA[1])
		a := math.Abs(WrapAngle(g.XYA[2] - w.XYA[2]))
		worstD, worstA = math.Max(worstD, d), math.Max(worstA, a)
		if d > goldenDist || a > goldenYaw {
			t.Errorf("%s ends at (%.4f, %.4f, %.4f), recorded (%.4f, %.4f, %.4f): %.4f m, %.4f rad off",
				g.Name, g.XYA[0], g.XYA[1], g.XYA[2], w.XYA[0], w.XYA[1], w.XYA[2], d, a)
		}
	}
	for _, m := range w.Models() {
		if p, _ := w.Pose(m.Name); math.Hypot(p.X-m.Initial.X, p.Y-m.Initial.Y) > 0.3 {
			moved++
		}
	}
	if moved < n/2 {
		t.Fatalf("only %d robots moved: the scene does not exercise the step", moved)
	}
	t.Logf("worst difference from the recorded step: %.3g m, %.3g rad", worstD, worstA)
}
