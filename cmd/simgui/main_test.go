package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"simgui/render"
)

// bin is the simgui binary built once for these tests: they run the real command line.
var bin string

func TestMain(m *testing.M) {
	if os.Getenv("SIMGUI_SECOND_SIGNAL_CHILD") == "1" {
		os.Exit(m.Run()) // TestSecondSignalExitsAtOnce's child: no binary to build
	}
	dir, err := os.MkdirTemp("", "simgui-cli")
	if err != nil {
		panic(err)
	}
	bin = filepath.Join(dir, "simgui")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		panic("build simgui: " + err.Error() + "\n" + string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// simgui runs the binary with args and returns stdout, stderr and the exit code.
func simgui(t *testing.T, env []string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func runJSON(t *testing.T, args ...string) runSummary {
	t.Helper()
	out, errOut, code := simgui(t, nil, append([]string{"run", "--headless", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("simgui %v: exit %d: %s", args, code, errOut)
	}
	var s runSummary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("bad JSON %q: %v", out, err)
	}
	return s
}

func TestRunIsDeterministic(t *testing.T) {
	a := runJSON(t, "--steps", "2000", "--seed", "7", "--cmd", "throttle=0.5,steer=0.2")
	b := runJSON(t, "--steps", "2000", "--seed", "7", "--cmd", "throttle=0.5,steer=0.2")
	if a.StateHash != b.StateHash || a.Steps != 2000 || a.SimTime != 10 {
		t.Fatalf("runs differ: %s vs %s (steps %d, simTime %g)", a.StateHash, b.StateHash, a.Steps, a.SimTime)
	}
	maze := filepath.Join("..", "..", "examples", "maze", "scenario.yaml")
	m7 := runJSON(t, "--scenario", maze, "--steps", "2000", "--seed", "7")
	m8 := runJSON(t, "--scenario", maze, "--steps", "2000", "--seed", "8")
	m7b := runJSON(t, "--scenario", maze, "--steps", "2000", "--seed", "7")
	if m7.StateHash == m8.StateHash || m7.StateHash != m7b.StateHash {
		t.Fatalf("maze hashes: seed 7 %s / %s, seed 8 %s", m7.StateHash, m7b.StateHash, m8.StateHash)
	}
}

// The KS0223 in the corridor starts at (0, −0.85) facing +y. Its model: speed ramps to
// 0.73·throttle at 4 m/s², so after T seconds it has gone v·(T − v/8).
func TestKS0223FollowsItsModelTurnsAndStopsAtTheWall(t *testing.T) {
	s := runJSON(t, "--duration", "1.5", "--cmd", "throttle=0.5")
	v := 0.5 * 0.73
	want := v * (1.5 - v/8)
	got := s.Models[0].Pose.Y - (-0.85)
	if math.Abs(got-want)/want > 0.10 {
		t.Fatalf("drove %.3f m in 1.5 s, the model says %.3f m", got, want)
	}
	if math.Abs(s.Models[0].Pose.X) > 1e-6 {
		t.Fatalf("drifted sideways to x=%.4f", s.Models[0].Pose.X)
	}

	// A duration shorter than a step runs one step (0 steps would mean no limit: it ran forever).
	if tiny := runJSON(t, "--duration", "1e-12"); tiny.Steps != 1 {
		t.Fatalf("--duration 1e-12 ran %d steps, want 1", tiny.Steps)
	}

	turn := runJSON(t, "--duration", "0.5", "--cmd", "throttle=0.2,steer=0.3")
	if yaw := turn.Models[0].Pose.Yaw; yaw < math.Pi/2+0.3 {
		t.Fatalf("steer 0.3 for 0.5 s: yaw %.3f rad, want well left of the start (π/2)", yaw)
	}

	// Leg A ends at the corner wall 0.30 m past y=0 (inner face 0.29); the nose is 0.125 m ahead.
	stop := runJSON(t, "--duration", "10", "--cmd", "throttle=0.5")
	y, speed := stop.Models[0].Pose.Y, stop.Models[0].Speed
	if y > 0.29-0.125+0.02 || y < 0.29-0.125-0.05 || speed > 0.01 {
		t.Fatalf("after 10 s: y=%.3f speed=%.3f, want resting against the wall near y=0.165", y, speed)
	}
}

func TestBadInputExitsWithOneLine(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := "vehicle: {vehicleId: vehicle.ks0223.v1}\n"
	for _, tc := range []struct{ name, args, want string }{
		{"missing file", "--scenario " + filepath.Join(dir, "none.yaml"), "none.yaml not found"},
		{"unknown track", "--scenario " + write("t.yaml", "world: {trackId: track.nope.v1}\n"+good), `unknown trackId "track.nope.v1"`},
		{"unknown vehicle", "--scenario " + write("v.yaml", "world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.nope.v1}\n"), `unknown vehicleId "vehicle.nope.v1"`},
		{"schema", "--scenario " + write("s.yaml", "world: {trackId: track.maze.v1, params: {rows: 500}}\n"+good), "world.params.rows: 500"},
		{"unknown plugin", "--scenario " + write("p.yaml", "world: {trackId: track.basic_arena.v1}\n"+good+"plugins: [{type: systems.nope}]\n"), `unknown system type "systems.nope"`},
		{"unknown config key", "--scenario " + write("c.yaml", "world: {trackId: track.basic_arena.v1}\n"+good+"plugins: [{type: systems.timeline_publisher, config: {loops: true}}]\n"), `unknown config key "loops"`},
		{"scenario not a mapping", "--scenario " + write("str.yaml", "just a string\n"),
			"str.yaml: line 1: the scenario must be a mapping of keys (scenarioId, world, vehicle, ...), not a string"},
		{"world not a mapping", "--scenario " + write("w5.yaml", "world: 5\n"), "w5.yaml: line 1: world must be a mapping, not a number"},
		{"malformed yaml", "--scenario " + write("m.yaml", "world: {trackId: [\n"), "m.yaml: line"},
		{"both stops", "--steps 1 --duration 1", "not both"},
		{"bad cmd", "--cmd throttle=fast", `throttle="fast" is not a number`},
		{"cmd key twice", "--cmd throttle=0.5,steer=0,throttle=1", "--cmd: throttle is given twice"},
		{"cmd range", "--cmd throttle=2", "outside -1..1"},
		{"cmd Inf", "--cmd steer=-Inf", "outside -1..1"},
		{"time scale 1e19", "--time-scale 1e19", "--time-scale: time scale 1e+19 is not 0 (as fast as possible) or a number from 0.001 up to 1000000"},
		{"time scale NaN", "--time-scale NaN", "--time-scale: time scale NaN"},
		{"time scale Inf", "--time-scale Inf", "--time-scale: time scale +Inf"},
		{"time scale negative", "--time-scale -1", "--time-scale: time scale -1"},
		{"duration Inf", "--duration Inf", "--duration +Inf is not a number of seconds from 0 to 1e+09"},
		{"duration NaN", "--duration NaN", "--duration NaN is not a number"},
		{"bridge max message", "--bridge-max-msg 10", "--bridge-max-msg: 10 bytes is outside 256..1073741824"},
		{"api port", "--api-port 70000", "--api-port 70000 is not a port number"},
		{"time scale tiny", "--time-scale 5e-324", "--time-scale: time scale 5e-324 is not 0 (as fast as possible) or a number from 0.001"},
		{"allow-origin not a URL", "--allow-origin notaurl", `--allow-origin: origin "notaurl": want * or scheme://host[:port]`},
		{"allow-origin with a path", "--allow-origin http://localhost:3000/app", `--allow-origin: origin "http://localhost:3000/app"`},
		{"record-dir a file", "--record-dir " + write("afile", "x"), "--record-dir " + filepath.Join(dir, "afile") + ": mkdir " + filepath.Join(dir, "afile") + ": not a directory"},
		{"record-dir unwritable", "--record-dir /proc/self", "--record-dir /proc/self: recordings cannot be written there"},
		{"randomization problems", "--scenario " + write("r.yaml", "world: {trackId: track.basic_arena.v1}\n"+good+
			"randomization: {visual: {textures: schema, distractors: [a, b], ambient: 0.2, ambient: 0.3}}\n"),
			`textures (line 3): "schema" is not a number or "lo,hi"; randomization.visual.distractors (line 3): want [lo, hi] of two numbers, got [a, b]; ` +
				"randomization.visual.ambient (line 3): given twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := simgui(t, nil, append([]string{"run", "--headless", "--steps", "10"}, strings.Fields(tc.args)...)...)
			if tc.name == "both stops" || strings.HasPrefix(tc.name, "duration") {
				out, errOut, code = simgui(t, nil, append([]string{"run", "--headless"}, strings.Fields(tc.args)...)...)
			}
			if code != 1 {
				t.Fatalf("exit %d, want 1 (stdout %q)", code, out)
			}
			lines := strings.Split(strings.TrimRight(errOut, "\n"), "\n")
			if len(lines) != 1 || !strings.HasPrefix(lines[0], "error: ") || !strings.Contains(lines[0], tc.want) {
				t.Fatalf("stderr %q, want one line \"error: ...%s...\"", errOut, tc.want)
			}
			if strings.Contains(errOut, "panic") || strings.Contains(errOut, "goroutine") {
				t.Fatalf("panicked: %s", errOut)
			}
		})
	}
}

// A scenario with runtime.headless: true runs headless under plain `simgui run`; without it,
// the headless-only flags are refused rather than ignored by the window.
func TestRunHeadlessScenarioAndWindowFlags(t *testing.T) {
	p := filepath.Join(t.TempDir(), "hl.yaml")
	if err := os.WriteFile(p, []byte("runtime: {headless: true}\nworld: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := simgui(t, []string{"DISPLAY=", "WAYLAND_DISPLAY="}, "run", "--scenario", p, "--steps", "40", "--json", "--no-api", "--no-control", "--no-bridge")
	var s runSummary
	if code != 0 || json.Unmarshal([]byte(out), &s) != nil || s.Steps != 40 {
		t.Fatalf("runtime.headless scenario: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	// The window's face turned off is as runtime.headless.
	for _, faces := range []string{"{window: false}", "{window: {enabled: false}}"} {
		off := filepath.Join(t.TempDir(), "nw.yaml")
		if err := os.WriteFile(off, []byte("faces: "+faces+"\nworld: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		out, errOut, code := simgui(t, []string{"DISPLAY=", "WAYLAND_DISPLAY="}, "run", "--scenario", off, "--steps", "30", "--json", "--no-api", "--no-control", "--no-bridge")
		var s runSummary
		if code != 0 || json.Unmarshal([]byte(out), &s) != nil || s.Steps != 30 {
			t.Errorf("faces: %s: exit %d, stdout %q, stderr %q", faces, code, out, errOut)
		}
	}
	for _, flag := range []string{"--steps=10", "--duration=1", "--cmd=throttle=1", "--json", "--record=x"} {
		_, errOut, code := simgui(t, []string{"DISPLAY=", "WAYLAND_DISPLAY="}, "run", flag)
		name, _, _ := strings.Cut(flag, "=")
		if code != 1 || !strings.Contains(errOut, "error: "+name+" works with --headless") {
			t.Errorf("run %s without --headless: exit %d, stderr %q", flag, code, errOut)
		}
	}
}

func TestNoDisplayMessage(t *testing.T) {
	_, errOut, code := simgui(t, []string{"DISPLAY=", "WAYLAND_DISPLAY="})
	// The command as it was typed: after `make`, ./bin/simgui is not on the PATH.
	if code != 1 || !strings.Contains(errOut, "; run headless instead: "+bin+" run --headless --duration 10") || strings.Count(errOut, "\n") != 1 {
		t.Fatalf("exit %d stderr %q", code, errOut)
	}
	// The hint keeps the flags given: without the scenario it would run another world.
	sc := filepath.Join(t.TempDir(), "my world.yaml")
	if err := os.WriteFile(sc, []byte("world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code = simgui(t, []string{"DISPLAY=", "WAYLAND_DISPLAY="}, "run", "--scenario", sc, "--seed=3")
	if want := "; run headless instead: " + bin + " run --headless --scenario '" + sc + "' --seed=3 --duration 10"; code != 1 || !strings.Contains(errOut, want) {
		t.Errorf("with flags: exit %d stderr %q, want %q", code, errOut, want)
	}
	// A mistake in the scenario is reported first: it is what the user has to fix.
	_, errOut, code = simgui(t, []string{"DISPLAY=", "WAYLAND_DISPLAY="}, "--scenario", filepath.Join(t.TempDir(), "typo.yaml"))
	if code != 1 || !strings.Contains(errOut, "typo.yaml not found") {
		t.Fatalf("missing scenario without a display: exit %d stderr %q", code, errOut)
	}
}

func TestVersion(t *testing.T) {
	out, _, code := simgui(t, nil, "version", "--json")
	var v versionInfo
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil || v.Version == "" || v.JPEGEncoder == "" {
		t.Fatalf("version: %d %q", code, out)
	}
	if v.RenderKernels != render.Kernels() {
		t.Errorf("render kernels %q, want this process's %q", v.RenderKernels, render.Kernels())
	}
	out, _, _ = simgui(t, []string{"SIMGUI_JPEG=go"}, "version", "--json")
	json.Unmarshal([]byte(out), &v)
	if v.JPEGEncoder != "image/jpeg" {
		t.Fatalf("SIMGUI_JPEG=go: encoder %q", v.JPEGEncoder)
	}
	// The README's way of measuring without AVX-512: the kernels follow GODEBUG.
	if runtime.GOARCH == "amd64" {
		out, _, _ = simgui(t, []string{"GODEBUG=cpu.avx512f=off"}, "version", "--json")
		json.Unmarshal([]byte(out), &v)
		if v.RenderKernels != "x86-64 (no AVX-512)" {
			t.Errorf("GODEBUG=cpu.avx512f=off: render kernels %q", v.RenderKernels)
		}
	}
}

// The timeline example drives a 1 m square in 16 s from (0, −7.5) facing +y.
func TestTimelineExampleClosesItsSquare(t *testing.T) {
	ex := filepath.Join("..", "..", "examples", "timeline_square", "scenario.yaml")
	one := runJSON(t, "--scenario", ex, "--duration", "16")
	p := one.Models[0].Pose
	if d := math.Hypot(p.X-0, p.Y+7.5); d > 0.01 || math.Abs(p.Yaw-math.Pi/2) > 0.01 {
		t.Fatalf("after one period at (%.4f, %.4f) yaw %.3f, want back at the start (0, -7.5) facing +y", p.X, p.Y, p.Yaw)
	}
	// 2.5 periods: two full squares, then two sides: the far corner (-1, -6.5) facing -y.
	half := runJSON(t, "--scenario", ex, "--duration", "40")
	p = half.Models[0].Pose
	if d := math.Hypot(p.X+1, p.Y+6.5); d > 0.01 || math.Abs(math.Abs(p.Yaw)-math.Pi/2) > 0.01 || p.Yaw > 0 {
		t.Fatalf("after 2.5 periods at (%.4f, %.4f) yaw %.3f, want (-1, -6.5) facing -y", p.X, p.Y, p.Yaw)
	}
}

// A rusim scenario file runs as rusim means it: its display metadata and logging tag in the
// summary, its 16 cars on the 4 m circle in the ground plane (rusim's [x, y up, z] axes).
func TestRunRusimScenario(t *testing.T) {
	s := runJSON(t, "--scenario", filepath.Join("..", "..", "app", "testdata", "rusim-scenarios", "demo-swarm.yaml"), "--steps", "1")
	if s.ScenarioID != "demo-swarm" || s.DisplayName != "Multi-Agent Swarm Demo" || s.Version != 1 || s.LoggingTag != "demo-swarm" ||
		!strings.HasPrefix(s.Description, "16 arcade cars on a radius-4m circle") {
		t.Errorf("summary %+v", s)
	}
	if len(s.Models) != 16 {
		t.Fatalf("%d models", len(s.Models))
	}
	for _, m := range s.Models {
		if r := math.Hypot(m.Pose.X, m.Pose.Y); math.Abs(r-4) > 0.01 || m.Pose.Z != 0 {
			t.Errorf("%s at (%.3f, %.3f, %.3f), %.3f m from the centre", m.Name, m.Pose.X, m.Pose.Y, m.Pose.Z, r)
		}
	}
}

// TestRunSaysWhenRandomizationIsNotDrawn runs a scenario with a randomization block: the run
// shows the scenario as written and says that the block is drawn at training resets; a
// scenario without one says nothing of it.
func TestRunSaysWhenRandomizationIsNotDrawn(t *testing.T) {
	dir := t.TempDir()
	with := filepath.Join(dir, "with.yaml")
	without := filepath.Join(dir, "without.yaml")
	base := "world: {trackId: track.cardboard_corridor.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\n"
	if err := os.WriteFile(with, []byte(base+"randomization: {visual: {textures: 1}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(without, []byte(base), 0o644); err != nil {
		t.Fatal(err)
	}
	const notice = "randomization block is drawn at each training-API and fast-path reset"
	if _, stderr, code := simgui(t, nil, "run", "--headless", "--scenario", with, "--steps", "1"); code != 0 || !strings.Contains(stderr, notice) {
		t.Errorf("with a randomization block: exit %d, stderr %q; want 0 and the notice", code, stderr)
	}
	if _, stderr, code := simgui(t, nil, "run", "--headless", "--scenario", without, "--steps", "1"); code != 0 || strings.Contains(stderr, "randomization") {
		t.Errorf("without one: exit %d, stderr %q; want 0 and no notice", code, stderr)
	}
}

// A headless run without a step limit or --time-scale paces its scenario's world as the
// scenario says, real time unless it says otherwise: as fast as possible it took a core from
// the training sessions' worlds, and an idle training server used one. --time-scale 0, or
// the scenario's runtime.timeScale 0, asks for as fast as possible.
func TestServingRunPacesTheScenarioWorld(t *testing.T) {
	fastScenario := filepath.Join(t.TempDir(), "fast.yaml")
	if err := os.WriteFile(fastScenario, []byte("runtime: {timeScale: 0}\nworld: {trackId: track.cardboard_corridor.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		faces []string // besides control
		fast  bool     // the faces hold the fast path
		args  []string
		paced bool
	}{
		{[]string{"--no-bridge", "--no-api"}, true, nil, true},
		{[]string{"--no-bridge", "--no-api"}, true, []string{"--time-scale", "0"}, false},
		{[]string{"--no-bridge", "--api-port", "0"}, false, nil, true},
		{[]string{"--no-bridge", "--no-api"}, false, nil, true},
		{[]string{"--no-bridge", "--no-api"}, false, []string{"--scenario", fastScenario}, false},
	} {
		sock := filepath.Join(shortDir(t), "fast.sock")
		controlPort := freePort(t)
		args := append([]string{"run", "--headless", "--json", "--control-port", controlPort}, tc.faces...)
		if tc.fast {
			args = append(args, "--fast-path", sock)
		}
		args = append(args, tc.args...)
		cmd := exec.Command(bin, args...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var err error
		if tc.fast {
			err = untilNoError(func() error { return openFastPath(sock) })
		}
		// The state to stop on is a world that has stepped: a face may answer before the
		// scenario's first paced step, which would leave nothing to measure. The control
		// socket's step answers once a step has run; the paced loop then waits for the clock.
		if err == nil {
			err = untilNoError(func() error { return stepOnce(controlPort) })
		}
		cmd.Process.Signal(syscall.SIGINT)
		werr := cmd.Wait()
		if err != nil || werr != nil {
			t.Fatalf("%v: session or step %v, exit %v; stderr %s", args, err, werr, errb.String())
		}
		var s runSummary
		if err := json.Unmarshal(out.Bytes(), &s); err != nil || s.Steps == 0 {
			t.Fatalf("%v: summary %q (%v)", args, out.String(), err)
		}
		// Paced, sim time never runs ahead of the wall clock by more than two steps (the one
		// asked for and the loop's own).
		if paced := s.SimTime <= s.WallTime+0.01; paced != tc.paced {
			t.Errorf("%v: %.3f s simulated in %.3f s (×%.1f); paced %v, want %v", args, s.SimTime, s.WallTime, s.RealTimeFactor, paced, tc.paced)
		}
	}
}

// untilNoError calls f until it succeeds (a process's socket answers) or 30 s pass, and
// returns its last error.
func untilNoError(f func() error) error {
	err := f()
	for deadline := time.Now().Add(30 * time.Second); err != nil && time.Now().Before(deadline); err = f() {
		time.Sleep(20 * time.Millisecond)
	}
	return err
}

// stepOnce asks the control socket on 127.0.0.1:port for one step and waits for its answer.
func stepOnce(port string) error { return stepOnceAt("127.0.0.1", port) }

// stepOnceAt asks the control socket on ip:port for one step and waits for its answer.
func stepOnceAt(ip, port string) error {
	c, _, err := websocket.DefaultDialer.Dial("ws://"+net.JoinHostPort(ip, port)+"/control", nil)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(30 * time.Second))
	if err := c.WriteMessage(websocket.TextMessage, []byte(`{"command":"step"}`)); err != nil {
		return err
	}
	var answer struct {
		Result struct {
			Iterations uint64 `json:"iterations"`
		} `json:"result"`
	}
	if err := c.ReadJSON(&answer); err != nil {
		return err
	}
	if answer.Result.Iterations == 0 {
		return fmt.Errorf("step answered %+v", answer)
	}
	return nil
}

// The control socket binds where the device ports do: cloisim_ros on another machine finds
// the ports through it. --control-ip binds it elsewhere; by default both stay on loopback.
// 127.0.0.2 reaches a socket bound to every interface, not one bound to 127.0.0.1.
func TestControlSocketFollowsTheBridgeAddress(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		answer bool
	}{
		{nil, false},
		{[]string{"--bridge-ip", "0.0.0.0"}, true},
		{[]string{"--control-ip", "0.0.0.0"}, true},
		{[]string{"--bridge-ip", "0.0.0.0", "--control-ip", "127.0.0.1"}, false},
	} {
		port := freePort(t)
		args := append([]string{"run", "--headless", "--time-scale", "1", "--no-api", "--control-port", port}, tc.args...)
		cmd := exec.Command(bin, args...)
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// The loopback address answers in every case: it is the state to wait for.
		err := untilNoError(func() error { return stepOnce(port) })
		var other error
		if err == nil {
			other = stepOnceAt("127.0.0.2", port)
		}
		cmd.Process.Signal(syscall.SIGINT)
		if werr := cmd.Wait(); err != nil || werr != nil {
			t.Fatalf("%v: loopback %v, exit %v; stderr %s", args, err, werr, errb.String())
		}
		if (other == nil) != tc.answer {
			t.Errorf("%v: 127.0.0.2 answered %v (%v), want %v", args, other == nil, other, tc.answer)
		}
		// Open to the network without a token: said on stderr.
		if warned := strings.Contains(errb.String(), "the control socket is open to the network without a token"); warned != tc.answer {
			t.Errorf("%v: warned %v, want %v; stderr %s", args, warned, tc.answer, errb.String())
		}
	}
}

// TestSummaryOfAFleetIsShort: the plain summary of a run lists the first models and counts
// the rest; --json lists every one.
func TestSummaryOfAFleetIsShort(t *testing.T) {
	sc := filepath.Join(t.TempDir(), "fleet.yaml")
	if err := os.WriteFile(sc, []byte("runtime: {physics: kinematic}\nworld: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\nagents: {count: 80}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"run", "--headless", "--steps", "2", "--no-api", "--no-bridge", "--no-control", "--scenario", sc}
	out, errOut, code := simgui(t, nil, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 1+maxSummaryModels+1 || !strings.Contains(lines[len(lines)-1], "and 30 more") {
		t.Errorf("%d lines, the last %q; want the header, %d models and a count of 30 more", len(lines), lines[len(lines)-1], maxSummaryModels)
	}
	out, _, _ = simgui(t, nil, append(args, "--json")...)
	var s runSummary
	if err := json.Unmarshal([]byte(out), &s); err != nil || len(s.Models) != 80 {
		t.Errorf("--json: %d models (%v), want 80", len(s.Models), err)
	}
}

// The plain summary gives a flying vehicle's height, which --json has as z; a ground
// vehicle's line has none.
func TestSummaryGivesAFlyersHeight(t *testing.T) {
	sc := filepath.Join(t.TempDir(), "drone.yaml")
	if err := os.WriteFile(sc, []byte("world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.drone.simple.v1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := simgui(t, nil, "run", "--headless", "--no-api", "--no-control", "--no-bridge", "--scenario", sc, "--duration", "2", "--cmd", "vertical=1")
	if code != 0 || !strings.Contains(out, " z=") {
		t.Fatalf("a climbing drone's summary (exit %d): %q %s", code, out, errOut)
	}
	out, _, _ = simgui(t, nil, "run", "--headless", "--no-api", "--no-control", "--no-bridge", "--steps", "10")
	if strings.Contains(out, " z=") {
		t.Errorf("the KS0223's summary has a height: %q", out)
	}
}
