package bridge_test

import (
	"context"
	"encoding/json"
	"math"
	"os/exec"
	"strings"
	"testing"

	"simgui/app"
	"simgui/app/bridge"
	"simgui/app/scenario"
	"simgui/plugins"
)

// python is Debian's interpreter, which sees python3-zmq and python3-protobuf (the pyenv one
// on PATH does not).
const python = "/usr/bin/python3"

// sportScenario runs the PROMETEO sport car (lidar "lidar.top", IMU, camera, depth camera) in
// the cardboard corridor at real time, so the lidar has walls all around it.
const sportScenario = `
scenarioId: bridge-python
runtime: {seed: 3, timeScale: 1, stepSize: 0.005}
world: {trackId: track.cardboard_corridor.v1, params: {length: 2, width: 0.6}}
vehicle: {vehicleId: vehicle.prometeo.sport.v1}
`

// TestPythonClient: a pyzmq client that knows only the wire (it compiles our .proto files with
// protoc and computes the tags itself) reads the clock and the lidar and drives the car with
// Twist commands on micom Rx; the world agrees that the car moved.
func TestPythonClient(t *testing.T) {
	for _, mod := range []string{"zmq", "google.protobuf"} {
		if out, err := exec.Command(python, "-c", "import "+mod).CombinedOutput(); err != nil {
			t.Fatalf("%s cannot import %s (%v: %s); build/setup.sh installs python3-zmq and python3-protobuf", python, mod, err, strings.TrimSpace(string(out)))
		}
	}
	if _, err := exec.LookPath("protoc"); err != nil {
		t.Fatal("protoc not found; build/setup.sh installs protobuf-compiler")
	}
	sc, err := scenario.Parse([]byte(sportScenario), "bridge-python")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := scenario.Resolve(sc, plugins.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	h := app.NewHost(app.HostOptions{})
	sim, err := h.Build(plan, app.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h.SetScenario(sim)
	defer h.Close()
	face := &bridge.Face{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ran := make(chan error, 1)
	go func() { ran <- h.Run(ctx, face) }()
	defer func() { cancel(); <-ran }()
	<-h.Start.Done() // the bridge serves the world

	model := plan.Agents[0].Name

	start, _ := sim.Loop.Snapshot().Model(model)
	devices, err := json.Marshal(face.Bridge().Manager().GetDeviceMapList(""))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, python, "testdata/cloisim_client.py", "../transport/msgs/proto", model, string(devices))
	out, err := cmd.Output()
	if err != nil {
		stderr := ""
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("python client: %v\n%s", err, stderr)
	}
	var got struct {
		Clock []float64      `json:"clock"`
		Lidar map[string]any `json:"lidar"`
		Micom struct {
			StartX     float64 `json:"start_x"`
			EndX       float64 `json:"end_x"`
			Speed      float64 `json:"speed"`
			StartTime  float64 `json:"start_time"`
			EndTime    float64 `json:"end_time"`
			ClockAfter float64 `json:"clock_after"`
		} `json:"micom"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("client output %s: %v", out, err)
	}
	l := got.Lidar
	t.Logf("python saw %s", out)

	if len(got.Clock) != 3 || !(got.Clock[0] < got.Clock[1] && got.Clock[1] < got.Clock[2]) {
		t.Errorf("clock samples %v, want strictly increasing sim times", got.Clock)
	}
	if l["parts"] != "lidar_top" || l["frame_id"] != "lidar_top" || l["output_type"] != "LaserScan" || l["z"] != 0.2 {
		t.Errorf("lidar info %v", l)
	}
	if l["count"] != 360.0 || l["vertical_count"] != 1.0 || l["ranges"] != 360.0 || l["intensities"] != 360.0 || l["frame"] != "lidar_top" {
		t.Errorf("lidar scan %v", l)
	}
	// In the corridor most rays hit a wall within range; the open end of the L may not.
	if n, _ := l["nan"].(float64); n > 180 {
		t.Errorf("%v NaN ranges: the lidar inside the corridor should see walls on most rays", l["nan"])
	}
	m := got.Micom
	if m.EndX-m.StartX < 0.3 || m.Speed <= 0.1 || m.EndTime <= m.StartTime || m.ClockAfter < m.EndTime-0.05 {
		t.Errorf("micom %+v", m)
	}
	now, _ := sim.Loop.Snapshot().Model(model)
	moved := math.Hypot(now.Pose.X-start.Pose.X, now.Pose.Y-start.Pose.Y)
	if moved < 0.3 {
		t.Errorf("the world says %s moved %.3f m", model, moved)
	}
}
