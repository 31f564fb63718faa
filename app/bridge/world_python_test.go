package bridge_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os/exec"
	"strconv"
	"testing"

	"simgui/app"
	"simgui/app/bridge"
	"simgui/app/control"
	"simgui/app/scenario"
	"simgui/plugins"
)

// TestPythonWorldControlSonarAndPause: a cloisim_ros-style client (pyzmq and websockets,
// written from the wire description) finds the KS0223 through /control's device_list, serves
// the world Control channel as cloisim_ros's World node does, and reads the clock, the micom
// and the ultrasonic as a SONAR device. A /control reset is answered at once and reaches it as
// Param{reset_simulation: true}; the world resets after its answer. During a 20 s pause the
// clock and the micom keep arriving, so no cloisim_ros node times out.
func TestPythonWorldControlSonarAndPause(t *testing.T) {
	sc, err := scenario.Parse([]byte(`
runtime: {seed: 3, timeScale: 1}
world: {trackId: track.cardboard_corridor.v1, params: {length: 2, width: 0.6}}
vehicle: {vehicleId: vehicle.ks0223.v1}
`), "world-control")
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
	ctl := &control.Face{Listen: "127.0.0.1:0", Required: true}
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- h.Run(ctx, &bridge.Face{}, ctl) }()
	defer func() { cancel(); <-ran }()
	<-h.Start.Done()

	const pause = 20.0
	cmd := exec.CommandContext(ctx, python, "testdata/cloisim_world_client.py", "../transport/msgs/proto",
		ctl.Addr().String(), "ego", strconv.FormatFloat(pause, 'f', -1, 64))
	out, err := cmd.Output()
	if err != nil {
		stderr := ""
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("python client: %v\n%s", err, stderr)
	}
	var got struct {
		WorldKeys []string  `json:"world_keys"`
		MicomUSS  []float64 `json:"micom_uss"`
		Pause     string    `json:"pause"`
		Arrivals  struct {
			Clock []float64 `json:"clock"`
			Micom []float64 `json:"micom"`
		} `json:"arrivals"`
	}
	var raw map[string]any
	json.Unmarshal(out, &raw)
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("client output %s: %v", out, err)
	}
	sonar := raw["sonar"].(map[string]any)
	if len(got.WorldKeys) != 2 || got.WorldKeys[0] != "Clock" || got.WorldKeys[1] != "Control" {
		t.Errorf("world device keys %v, want Clock and Control", got.WorldKeys)
	}
	if sonar["frame"] == "" || !(sonar["range"].(float64) >= sonar["range_min"].(float64) && sonar["range"].(float64) <= sonar["range_max"].(float64)) ||
		sonar["radius"].(float64) != 0 || sonar["stamped"] != true { // the KS0223's sonar is one ray
		t.Errorf("sonar %v", sonar)
	}
	if len(got.MicomUSS) != 1 || math.Abs(got.MicomUSS[0]-sonar["range"].(float64)) > 0.5 {
		t.Errorf("micom uss %v, sonar range %v", got.MicomUSS, sonar["range"])
	}
	// The sonar's world pose: the KS0223's mount (0.23 m ahead, 0.07 m up) on the model's
	// pose; the micom's uss states carry it too, and the micom the powertrain's battery.
	info := raw["model_info"].(map[string]any)["pose"].(map[string]any)
	pos, yaw := info["position"].(map[string]any), info["orientation"].(map[string]any)["yaw"].(float64)
	wantX, wantY := pos["x"].(float64)+0.23*math.Cos(yaw), pos["y"].(float64)+0.23*math.Sin(yaw)
	if wp, ok := sonar["world_pose"].([]any); !ok || math.Abs(wp[0].(float64)-wantX) > 0.01 || math.Abs(wp[1].(float64)-wantY) > 0.01 ||
		math.Abs(wp[2].(float64)-0.07) > 0.01 || math.Abs(math.Remainder(2*math.Atan2(wp[3].(float64), wp[4].(float64))-yaw, 2*math.Pi)) > 0.01 {
		t.Errorf("sonar world pose %v, want (%.3f, %.3f, 0.07) heading %.3f", sonar["world_pose"], wantX, wantY, yaw)
	}
	if fmt.Sprint(raw["micom_uss_pose"]) != "[true]" {
		t.Errorf("micom uss states with a world pose: %v", raw["micom_uss_pose"])
	}
	if b, ok := raw["micom_battery"].(map[string]any); !ok || b["name"] != "battery" || !(b["voltage"].(float64) > 6 && b["voltage"].(float64) < 9) {
		t.Errorf("micom battery %v, want a 2S pack's voltage", raw["micom_battery"])
	}
	// The reset reply comes at once, before the World node answers; the world resets after
	// its answer (the clock runs on from before the reset while the answer is held, then
	// restarts below it), and the reset is announced once.
	reset := raw["reset"].(map[string]any)
	if reset["result"] != "ok" || len(raw["requests_held"].([]any)) != 1 || len(raw["requests"].([]any)) != 1 {
		t.Errorf("reset answered %v; the World node got %v while holding its answer, %v in all", reset, raw["requests_held"], raw["requests"])
	}
	before := raw["before_reset"].(float64)
	for _, at := range raw["while_held"].([]any) {
		if at.(float64) < before {
			t.Errorf("the world reset before the World node answered: clock %v, %g s before the reset", raw["while_held"], before)
			break
		}
	}
	if raw["restarted_at"] == nil {
		t.Errorf("the clock never restarted after the World node answered (before %g s, then %v)", before, raw["after_restart"])
	}
	if req := raw["requests"].([]any); len(req) == 1 {
		if r := req[0].(map[string]any); r["tag_ok"] != true || r["reset_simulation"] != true {
			t.Errorf("the World node's request: %v", r)
		}
	}
	if got.Pause != "ok" {
		t.Fatalf("pause answered %q", got.Pause)
	}
	// cloisim_ros nodes count a timeout after about 4 s of silence and end after 7: every
	// gap must stay below that (the bridge repeats after 1 s; a loaded machine adds some).
	for name, times := range map[string][]float64{"clock": got.Arrivals.Clock, "micom": got.Arrivals.Micom} {
		last, worst := 0.0, 0.0
		for _, at := range times {
			worst = math.Max(worst, at-last)
			last = at
		}
		worst = math.Max(worst, pause-last)
		if worst > 3.5 {
			t.Errorf("during the %g s pause the %s went silent for %.1f s (%d messages)", pause, name, worst, len(times))
		}
	}
	clocks := raw["clocks"].([]any)
	// A clock of the last step before the pause may still be on its way when the pause is
	// answered: the pause's clocks begin with the first that says paused.
	for len(clocks) > 0 && clocks[0].(map[string]any)["paused"] != true {
		clocks = clocks[1:]
	}
	if len(clocks) < 10 {
		t.Fatalf("%d clock messages in a %g s pause", len(clocks), pause)
	}
	first, last := clocks[0].(map[string]any), clocks[len(clocks)-1].(map[string]any)
	if first["sim"] != last["sim"] || last["paused"] != true || last["real"].(float64)-first["real"].(float64) < pause-3 {
		t.Errorf("paused clock went from %v to %v", first, last)
	}
}
