package window

import (
	"encoding/json"
	"fmt"
	"image"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"simgui/app/window/xtest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"simgui/app/scenario"
	"simgui/plugins/registry"
)

// controlCall sends one request to the control service and returns its result.
func controlCall(t *testing.T, port int, req map[string]any) json.RawMessage {
	t.Helper()
	c, _, err := websocket.DefaultDialer.Dial(fmt.Sprintf("ws://127.0.0.1:%d/control", port), nil)
	if err != nil {
		t.Fatalf("control service: %v", err)
	}
	defer c.Close()
	if err := c.WriteJSON(req); err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Result json.RawMessage `json:"result"`
	}
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if err := c.ReadJSON(&rep); err != nil {
		t.Fatal(err)
	}
	return rep.Result
}

// TestWindowDriveAndPause runs the simgui binary (the default scenario, its control service on
// a free port), holds W for two seconds of sim time with real key events and checks the robot
// moved forward; then P pauses (sim time stops), N steps once, P resumes, C shows the 3D
// view and R resets with the same seed. It saves screenshots of the main and 3D views and
// reports the time from launch to the first frame.
func TestWindowDriveAndPause(t *testing.T) {
	needDisplay(t)
	bin := buildSimgui(t)
	port, apiPort := freePort(t), freePort(t)
	g := startGUI(t, bin, []string{"--control-port", strconv.Itoa(port), "--api-port", strconv.Itoa(apiPort), "--no-bridge"},
		"SIMGUI_TRACE_STARTUP=1")
	reportFirstFrame(t, g)

	rest := g.waitState("the robot at rest", 10*time.Second, func(s State) bool { return s.Selected == "ego" && s.SimTime > 0.3 })
	yaw := rest.Pose[2]
	// L for a robot without a lidar says so: nothing else would change on the screen.
	g.key("l")
	g.waitState("L's answer", 10*time.Second, func(s State) bool { return strings.HasPrefix(s.Status, "ego has no lidar") })
	g.key("l")
	g.keyDown("w")
	// From when the window has seen the key (under load that is a frame or more later).
	start := g.waitState("the throttle", 10*time.Second, func(s State) bool { return s.Throttle > 0 })
	top := 0.0 // the fastest the robot went; it may reach the corridor's end wall
	held := g.waitState("2 s of sim time with W held", 20*time.Second, func(s State) bool {
		top = max(top, s.Forward)
		return s.SimTime >= start.SimTime+2
	})
	g.keyUp("w")
	along := (held.Pose[0]-start.Pose[0])*math.Cos(yaw) + (held.Pose[1]-start.Pose[1])*math.Sin(yaw)
	across := -(held.Pose[0]-start.Pose[0])*math.Sin(yaw) + (held.Pose[1]-start.Pose[1])*math.Cos(yaw)
	t.Logf("W held %.2f s of sim time: moved %.3f m forward, %.3f m sideways, top speed %.2f m/s, throttle %.2f",
		held.SimTime-start.SimTime, along, across, top, held.Throttle)
	// The KS0223 tops out at 0.73 m/s and reaches it in a fraction of a second.
	if along < 0.8 || math.Abs(across) > 0.1 || held.Throttle < 0.99 || top < 0.6 {
		t.Fatalf("after holding W: moved %.3f m forward, %.3f m sideways, throttle %.2f, top speed %.2f; want > 0.8 m straight ahead at full throttle",
			along, across, held.Throttle, top)
	}
	// The control service is served as in headless runs, and sees the same robot.
	var info struct {
		Pose struct{ Position struct{ X, Y float64 } }
	}
	if err := json.Unmarshal(controlCall(t, port, map[string]any{"command": "get_model_info", "target_model": "ego"}), &info); err != nil {
		t.Fatal(err)
	}
	if d := math.Hypot(info.Pose.Position.X-held.Pose[0], info.Pose.Position.Y-held.Pose[1]); d > 0.3 {
		t.Errorf("control service says ego is at (%.3f, %.3f), the window (%.3f, %.3f)", info.Pose.Position.X, info.Pose.Position.Y, held.Pose[0], held.Pose[1])
	}
	// So is the training API.
	if resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/health", apiPort)); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("training API /health: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	g.waitState("the throttle released", 5*time.Second, func(s State) bool { return s.Throttle == 0 })

	g.key("p")
	paused := g.waitState("paused", 5*time.Second, func(s State) bool { return s.Paused })
	time.Sleep(time.Second)
	later, _ := g.readState()
	if later.SimTime != paused.SimTime || later.Step != paused.Step || !later.Paused {
		t.Fatalf("paused at %.3f s (step %d), a second later %.3f s (step %d)", paused.SimTime, paused.Step, later.SimTime, later.Step)
	}
	if fps := string(controlCall(t, port, map[string]any{"command": "fps"})); fps != `"0"` {
		t.Errorf("control fps while paused = %s, want \"0\"", fps)
	}
	g.key("n")
	stepped := g.waitState("one step", 5*time.Second, func(s State) bool { return s.Step != paused.Step })
	if stepped.Step != paused.Step+1 || !stepped.Paused {
		t.Fatalf("N from step %d went to step %d (paused %v), want one step", paused.Step, stepped.Step, stepped.Paused)
	}
	main := g.shot("main-view.png")
	notBlank(t, "the main view", main, main.Bounds())
	// The plywood floor fills the middle of the top-down view around the robot.
	mid := image.Rect(560, 300, 720, 500)
	if s := xtest.RegionStats(main, mid); !(s.R > s.B+30) {
		t.Errorf("the middle of the main view is not the plywood floor: %+v", s)
	}
	g.key("p")
	g.waitState("running again", 5*time.Second, func(s State) bool { return !s.Paused && s.SimTime > stepped.SimTime+0.3 })

	g.key("c")
	// A few pictures drawn: the game shows the newest from the frame after each, so the frame
	// F12 catches shows one.
	g.waitState("the 3D view's pictures", 20*time.Second, func(s State) bool { return s.Chase && s.ChaseFrames >= 3 })
	chase := g.shot("chase-view.png")
	sky := xtest.RegionStats(chase, image.Rect(400, 0, 900, 60))
	floor := xtest.RegionStats(chase, image.Rect(400, 620, 900, 740))
	if !(sky.B > sky.R+20) || !(floor.R > floor.B+30) {
		t.Errorf("3D view: want sky (blue) at the top and plywood at the bottom, got top %+v, bottom %+v", sky, floor)
	}
	g.key("c")

	before, _ := g.readState()
	g.key("r")
	reset := g.waitState("the reset", 5*time.Second, func(s State) bool { return s.SimTime < before.SimTime-1 })
	if d := math.Hypot(reset.Pose[0]-rest.Pose[0], reset.Pose[1]-rest.Pose[1]); d > 0.05 {
		t.Errorf("after R the robot is %.3f m from where it started", d)
	}
}

// markersCall sends one request to the /markers service and checks it succeeded.
func markersCall(t *testing.T, port int, req string) {
	t.Helper()
	c, _, err := websocket.DefaultDialer.Dial(fmt.Sprintf("ws://127.0.0.1:%d/markers", port), nil)
	if err != nil {
		t.Fatalf("markers service: %v", err)
	}
	defer c.Close()
	if err := c.WriteMessage(websocket.TextMessage, []byte(req)); err != nil {
		t.Fatal(err)
	}
	var rep struct{ Result, Error string }
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if err := c.ReadJSON(&rep); err != nil || rep.Result != "ok" {
		t.Fatalf("markers %s: %+v %v", req, rep, err)
	}
}

// toScreen maps a world point to screenshot pixels through the view the window reported.
func toScreen(img image.Image, s State, x, y float64) image.Point {
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	return image.Pt(int(float64(w)/2+(x-s.View[0])*s.View[2]), int(float64(h)/2-(y-s.View[1])*s.View[2]))
}

// TestWindowMarkers adds a sphere and a line through the control service's /markers and
// finds them in the top-down view where the window says those world points are.
func TestWindowMarkers(t *testing.T) {
	needDisplay(t)
	port := freePort(t)
	g := startGUI(t, buildSimgui(t), []string{"--control-port", strconv.Itoa(port), "--no-api", "--no-bridge"})
	s := g.waitState("the robot", 10*time.Second, func(s State) bool { return s.Selected == "ego" && s.View[2] > 0 })
	x, y := s.Pose[0], s.Pose[1]
	markersCall(t, port, fmt.Sprintf(`{"command":"Add","markers":[
		{"group":"t","id":0,"type":"Sphere","color":"Magenta","sphere":{"size":0.12,"point":{"x":%g,"y":%g,"z":0}}},
		{"group":"t","id":1,"type":"Line","color":"Lime","line":{"size":0.03,"point":{"x":%g,"y":%g,"z":0},"endpoint":{"x":%g,"y":%g,"z":0}}}]}`,
		x+0.25, y, x-0.2, y-0.3, x+0.2, y-0.3))
	// The markers reach the world through its loop's queue (applied before the next step); a
	// pause queued after them is done after them, and its snapshot carries them: once the
	// window shows the pause, it draws them.
	if got := string(controlCall(t, port, map[string]any{"command": "pause"})); got != `"ok"` {
		t.Fatalf("pause answered %s", got)
	}
	s = g.waitState("the pause after the markers", 10*time.Second, func(s State) bool { return s.Paused })
	img := g.shot("markers.png")
	sphere := toScreen(img, s, x+0.25, y)
	line := toScreen(img, s, x, y-0.3)
	if c := xtest.RegionStats(img, image.Rectangle{sphere.Sub(image.Pt(3, 3)), sphere.Add(image.Pt(3, 3))}); !(c.R > 200 && c.G < 60 && c.B > 200) {
		t.Errorf("no magenta sphere at %v: %+v", sphere, c)
	}
	if c := xtest.RegionStats(img, image.Rectangle{line.Sub(image.Pt(10, 1)), line.Add(image.Pt(10, 1))}); !(c.G > 200 && c.B < 80 && c.R > 120) {
		t.Errorf("no lime line at %v: %+v", line, c)
	}
}

// TestWindowHostsScreens shows a hosted screen with F2 (the simulation keeps running behind
// it) and lets it test-drive a plugin through the Host: the simulator screen comes back with
// the new robot selected where it was asked for; a second test drive replaces it.
func TestWindowHostsScreens(t *testing.T) {
	needDisplay(t)
	g := startGUI(t, "", nil, childEnv+"=screens")
	g.key("F2")
	s := g.waitState("the hosted screen", 5*time.Second, func(s State) bool { return s.Screen == "editor" })
	later := g.waitState("sim time going on", 5*time.Second, func(st State) bool { return st.SimTime > s.SimTime+0.5 })
	img := g.shot("hosted-screen.png")
	if c := xtest.RegionStats(img, image.Rect(600, 380, 680, 420)); !(c.R > 190 && c.G < 20 && c.B > 190) {
		t.Errorf("the hosted screen is not on show: %+v", c)
	}
	g.key("t")
	// The robot is selected once a snapshot has it: a state may show it a frame before that.
	back := g.waitState("the test drive", 10*time.Second, func(st State) bool {
		return st.Screen == "sim" && st.Models == 2 && st.Selected == "arcade_blue_1"
	})
	if back.Selected != "arcade_blue_1" || math.Hypot(back.Pose[0]+1.5, back.Pose[1]+1.5) > 0.05 || back.SimTime < later.SimTime {
		t.Errorf("after T: selected %q at (%.3f, %.3f)", back.Selected, back.Pose[0], back.Pose[1])
	}
	// A second test drive of the plugin replaces the first's robot, in the same place.
	g.key("F2")
	g.waitState("the hosted screen again", 5*time.Second, func(s State) bool { return s.Screen == "editor" })
	g.key("t")
	again := g.waitState("the second test drive", 10*time.Second, func(st State) bool {
		return st.Screen == "sim" && st.Selected == "arcade_blue_2"
	})
	if _, kept := again.Robots["arcade_blue_1"]; kept || again.Models != 2 {
		t.Errorf("after the second test drive: %d robots %v, want the first drive's replaced", again.Models, again.Robots)
	}
}

// TestWindowKeyWithF2StaysOnItsScreen presses T and F2 in one frame on the simulator
// screen. The key belongs to the screen on show when it was pressed: the hosted screen, shown
// first, took it (T test-drives there, and in the editor a letter went into the focused field).
func TestWindowKeyWithF2StaysOnItsScreen(t *testing.T) {
	needDisplay(t)
	g := startGUI(t, "", nil, childEnv+"=screens")
	g.waitState("the simulator screen", 10*time.Second, func(s State) bool { return s.Screen == "sim" && s.Models == 1 })
	// One xdotool call, no delay: both keys are down in the same frame.
	g.xdo("keydown", "--delay", "0", "t", "F2")
	g.xdo("keyup", "--delay", "0", "t", "F2")
	s := g.waitState("the hosted screen", 5*time.Second, func(s State) bool { return s.Screen == "editor" })
	end := g.waitState("a second on the hosted screen", 10*time.Second, func(st State) bool { return st.SimTime > s.SimTime+1 })
	if end.Screen != "editor" || end.Models != 1 {
		t.Errorf("T pressed with F2 on the simulator screen reached the hosted screen: screen %q, %d robots %v", end.Screen, end.Models, end.Robots)
	}
}

// TestWindowCloseAsksScreens closes the window as a window manager's close button does,
// from the simulator screen, while the hosted screen holds work not kept: the window stays
// and shows that screen; a second close ends the program cleanly.
func TestWindowCloseAsksScreens(t *testing.T) {
	needDisplay(t)
	g := startGUI(t, "", nil, childEnv+"=screens")
	xtest.AskClose(t, g.win)
	s := g.waitState("the screen with work not kept", 10*time.Second, func(s State) bool { return s.Screen == "editor" })
	if g.Exited() {
		t.Fatalf("the first close ended the window (state %+v)", s.Screen)
	}
	xtest.AskClose(t, g.win)
	for deadline := time.Now().Add(15 * time.Second); !g.Exited(); time.Sleep(40 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the second close did not end the window")
		}
	}
	if code := g.cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("exit code %d after the close; stderr:\n%s", code, g.errText())
	}
}

// TestWindowCloseAsksAboutSpawnedRobots: a close request with a robot spawned in the window
// and not saved asks first, as R and Ctrl+O do; a second close quits.
func TestWindowCloseAsksAboutSpawnedRobots(t *testing.T) {
	needDisplay(t)
	g := startGUI(t, buildSimgui(t), quiet)
	g.armSpawn("vehicle.ks0223.v1")
	g.click(560, 600)
	g.waitState("the spawned robot", 10*time.Second, func(s State) bool { return s.Models == 2 })
	xtest.AskClose(t, g.win)
	s := g.waitState("the question", 10*time.Second, func(s State) bool { return strings.Contains(s.Status, "close the window again") })
	if g.Exited() || !strings.Contains(s.Status, "1 robot spawned here") {
		t.Fatalf("the first close: exited %v, status %q", g.Exited(), s.Status)
	}
	xtest.AskClose(t, g.win)
	for deadline := time.Now().Add(15 * time.Second); !g.Exited(); time.Sleep(40 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the second close did not end the window")
		}
	}
}

// TestWindowNativeDialog opens a scenario through Browse…: the GTK file chooser (titled "Open
// scenario") opens while the window keeps running, and the path chosen in it is opened at once.
func TestWindowNativeDialog(t *testing.T) {
	needDisplay(t)
	g := startGUI(t, buildSimgui(t), []string{"--no-control", "--no-api", "--no-bridge"})
	path, err := filepath.Abs(filepath.Join("..", "..", "examples", "maze", "scenario.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	g.key("ctrl+o")
	g.clickTarget("prompt:browse")
	var ids []string
	for deadline := time.Now().Add(10 * time.Second); len(ids) == 0 && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if out, err := xtest.Xdotool("search", "--onlyvisible", "--name", "^Open scenario$"); err == nil {
			ids = strings.Fields(string(out))
		}
	}
	if len(ids) == 0 {
		s, _ := g.readState()
		t.Fatalf("no native file dialog within 10 s; state %+v", s)
	}
	// The simulation runs on while the dialog is open: sim time goes a second past where it
	// was (a stalled loop never gets there), and the dialog is still up.
	before, _ := g.readState()
	g.waitState("sim time going on behind the dialog", 20*time.Second, func(s State) bool { return s.SimTime >= before.SimTime+1 })
	if out, err := xtest.Xdotool("search", "--onlyvisible", "--name", "^Open scenario$"); err != nil || len(strings.Fields(string(out))) == 0 {
		t.Fatalf("the dialog closed by itself (%v)", err)
	}
	// GTK drops the keys of a dialog that is mapped and focused but not yet ready for them,
	// and nothing outside it tells when it is: type the path until the dialog is gone.
	typeIntoDialog(t, g, ids[0], path, func() bool { s, _ := g.readState(); return s.Scenario == path })
	// The dialog's choice opens at once: no second Enter in the prompt.
	g.waitState("the maze", 15*time.Second, func(s State) bool { return s.Scenario == path && s.Prompt == "" })
}

// TestNoDisplayOneLine: with a display that cannot be opened, simgui says so in one line and
// points at the headless run. The services are off, so that the line does not depend on the
// machine's default ports being free (another program's, on a shared machine).
func TestNoDisplayOneLine(t *testing.T) {
	bin := buildSimgui(t)
	for _, display := range []string{"", ":987"} {
		cmd := exec.Command(bin, quiet...)
		cmd.Env = append(os.Environ(), "DISPLAY="+display, "WAYLAND_DISPLAY=")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		out := stderr.String()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || strings.Count(out, "\n") != 1 ||
			!strings.HasPrefix(out, "error: no display") || !strings.Contains(out, "simgui run --headless") {
			t.Errorf("DISPLAY=%q: %v, stderr %q", display, err, out)
		}
	}
}

// reportFirstFrame logs the time from launch to the first drawn frame, as the process measured
// it (SIMGUI_TRACE_STARTUP) and as seen from here (start of the process to the trace line).
func reportFirstFrame(t *testing.T, g *gui) {
	re := regexp.MustCompile(`first frame ([0-9.]+) s after launch`)
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if m := re.FindStringSubmatch(g.errText()); m != nil {
			outside := time.Since(g.started)
			t.Logf("first frame %s s after launch (measured by the process); trace line seen %.3f s after exec", m[1], outside.Seconds())
			os.MkdirAll(previewDir, 0o755)
			os.WriteFile(filepath.Join(previewDir, "first-frame.txt"), []byte(m[0]+"\n"), 0o644)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("no first-frame trace on stderr:\n%s", g.errText())
}

// TestWindowCameraPanel runs the window on the default scenario, whose KS0223 camera sensor
// sends 640×480 frames at 15 Hz of sim time, checks the panel receives them at that rate,
// clicks it to enlarge it and compares what it shows with the frames sent.
func TestWindowCameraPanel(t *testing.T) {
	needDisplay(t)
	g := startGUI(t, "", nil, childEnv+"=camera")
	const sensor = "camera.front.rgb"
	s := g.waitState("camera frames", 20*time.Second, func(s State) bool { return s.Frames[sensor] >= 20 })
	t.Logf("camera panel: %d frames, %.1f Hz", s.Frames[sensor], s.Rates[sensor])
	if s.Rates[sensor] < 5 || s.Rates[sensor] > 30 {
		t.Errorf("frames arrive at %.1f Hz; the sensor sends 15 per second of sim time", s.Rates[sensor])
	}
	main := g.shot("main-view-with-camera.png")
	r := s.Targets["panel:"+sensor]
	panel := image.Rect(r[0], r[1]+20, r[2], r[3])
	notBlank(t, "the camera panel", main, panel)

	g.clickTarget("panel:" + sensor)
	g.waitState("the panel enlarged", 5*time.Second, func(s State) bool { return s.Enlarged == sensor })
	g.key("p") // hold the picture still so that the screenshot and the sent frame agree
	s = g.waitState("paused", 5*time.Second, func(s State) bool { return s.Paused && s.Targets["panel:enlarged"] != [4]int{} })
	hud := s.Targets["hud"]
	big := s.Targets["panel:enlarged"]
	if hud != ([4]int{}) && big[1] < hud[3] {
		t.Errorf("the enlarged panel %v covers the HUD %v", big, hud)
	}
	// The child writes the last frame the camera sent before the pause to sent.png, then its
	// stamp to sent.json.
	var sentAt struct{ Stamp float64 }
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(40 * time.Millisecond) {
		if data, err := os.ReadFile(filepath.Join(g.dir, "sent.json")); err == nil && json.Unmarshal(data, &sentAt) == nil {
			break
		}
		if time.Now().After(deadline) || g.Exited() {
			t.Fatalf("the child never wrote the frame sent before the pause; stderr:\n%s", g.errText())
		}
	}
	// The camera sends 15 frames a second of sim time: the last before the pause is stamped
	// within a period or so of it.
	if sentAt.Stamp > s.SimTime+1e-9 || sentAt.Stamp < s.SimTime-0.2 {
		t.Errorf("the last frame sent is stamped %.3f s; the world paused at %.3f s", sentAt.Stamp, s.SimTime)
	}
	shot := g.shot("camera-panel.png")
	// F12's "screenshot saved to" is drawn over the dimming, as bright as the HUD: it was
	// hidden under the big frame. The next screenshot shows it.
	saved := g.waitState("the screenshot's status line", 5*time.Second, func(s State) bool {
		_, ok := s.Targets["status"]
		return ok && strings.HasPrefix(s.Status, "screenshot saved")
	})
	again := g.shot("camera-panel-status.png")
	if line, hudText := brightest(again, rectOf4(saved.Targets["status"])), brightest(again, rectOf4(hud)); line < hudText*9/10 {
		t.Errorf("the status line's text is dimmed (brightest %d, the HUD's %d)", line, hudText)
	}
	// The middle of the panel's picture (below its 18-pixel label).
	cx, cy := (big[0]+big[2])/2, (big[1]+18+big[3])/2
	centre := image.Rect(cx-200, cy-120, cx+200, cy+120)
	got := notBlank(t, "the enlarged camera panel", shot, centre)
	data, err := os.ReadFile(filepath.Join(g.dir, "sent.png"))
	if err != nil {
		t.Fatal(err)
	}
	sent, err := decodePNG(data)
	if err != nil {
		t.Fatal(err)
	}
	sw, sh := sent.Bounds().Dx(), sent.Bounds().Dy()
	// The enlarged panel keeps the frame's aspect: the middle of its picture shows the middle
	// of the frame at the panel's scale.
	scale := float64(big[2]-big[0]) / float64(sw)
	if ratio := float64(big[3]-big[1]-18) / float64(sh); math.Abs(ratio-scale) > 0.02*scale {
		t.Errorf("the enlarged panel %v does not keep the frame's %dx%d aspect", big, sw, sh)
	}
	half := image.Pt(int(200/scale), int(120/scale))
	want := xtest.RegionStats(sent, image.Rect(sw/2-half.X, sh/2-half.Y, sw/2+half.X, sh/2+half.Y))
	if d := math.Abs(got.R-want.R) + math.Abs(got.G-want.G) + math.Abs(got.B-want.B); d > 30 {
		t.Errorf("the enlarged panel shows mean colour (%.0f, %.0f, %.0f), the frame sent (%.0f, %.0f, %.0f)", got.R, got.G, got.B, want.R, want.G, want.B)
	}
	os.WriteFile(filepath.Join(previewDir, "camera-frame-sent.png"), data, 0o644)
	g.clickTarget("tool:Resume (P)")
	g.waitState("resumed by the toolbar", 5*time.Second, func(s State) bool { return !s.Paused })
}

// TestWindowSpawnSaveOpen spawns a plugin from the spawn list with real clicks, installs a
// user plugin while the window is open and spawns that too, saves the world as a scenario
// through the typed path, and opens it again: the spawned robots are back where they were.
func TestWindowSpawnSaveOpen(t *testing.T) {
	needDisplay(t)
	bin := buildSimgui(t)
	g := startGUI(t, bin, []string{"--no-control", "--no-api", "--no-bridge"})
	// Zoomed out until the arcade car (0.52 m) is under 36 px long: the spawn used to zoom in
	// to 40 px.
	g.moveTo(640, 500)
	g.xdo("click", "--repeat", "12", "--delay", "30", "5")
	g.waitState("the view zoomed out", 10*time.Second, func(s State) bool { return s.View[2] > 0 && s.View[2] < 70 })
	g.key("i")
	const id = "vehicle.arcade.red.v1"
	g.clickTarget("spawn:" + id)
	before, _ := g.readState()
	// Click in the world, away from the HUD, the panels and the toolbar.
	g.click(420, 600)
	spawned := g.waitState("the spawned robot", 10*time.Second, func(s State) bool { return s.Models == 2 && strings.HasPrefix(s.Selected, "arcade_red") })
	if !strings.Contains(spawned.Status, "spawned") {
		t.Errorf("status %q", spawned.Status)
	}
	// Placed where the user clicked, it is on screen: the zoom stays (it jumped to the robot).
	if spawned.View[2] != before.View[2] || before.View[2] == 0 {
		t.Errorf("the zoom went from %g to %g px/m on a spawn", before.View[2], spawned.View[2])
	}
	// With the spawn list open the view holds still, so that the next click lands where the
	// floor was (it jumped to each robot placed).
	if spawned.View[0] != before.View[0] || spawned.View[1] != before.View[1] {
		t.Errorf("the view moved from (%g, %g) to (%g, %g) on a spawn", before.View[0], before.View[1], spawned.View[0], spawned.View[1])
	}
	// A plugin installed while the window is open joins the list.
	const user = "vehicle.arcade.green.v1"
	if s, _ := g.readState(); s.Targets["spawn:"+user] != [4]int{} {
		t.Fatalf("%s listed before it was installed", user)
	}
	install := exec.Command(bin, "plugin", "install", filepath.Join("..", "..", "plugins", "testdata", user+".rusim-plugin.zip"))
	install.Env = append(os.Environ(), "RUSIM_HOME="+g.home)
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("plugin install: %v\n%s", err, out)
	}
	g.clickTarget("spawn:" + user)
	g.waitState(user+" armed", 5*time.Second, func(s State) bool { return s.Picked == user })
	g.click(420, 680)
	g.waitState("the user plugin spawned", 10*time.Second, func(s State) bool { return s.Models == 3 && strings.HasPrefix(s.Selected, "arcade_green") })
	// R would remove the robots spawned here: the first press asks, and nothing is reset.
	g.key("r")
	asked := g.waitState("R asking first", 5*time.Second, func(s State) bool { return strings.HasPrefix(s.Status, "R again within") })
	if asked.Models != 3 || !strings.Contains(asked.Status, "removes the 2 robots spawned here") {
		t.Errorf("after one R: %d robots, status %q", asked.Models, asked.Status)
	}
	// The robot stays armed for another; Esc closes the list with it, in one press, as the
	// help says.
	if s, _ := g.readState(); s.Picked != user || s.Targets["spawn:"+user] == [4]int{} {
		t.Fatalf("after a spawn: armed %q, listed %v; want %s armed in the open list", s.Picked, s.Targets["spawn:"+user], user)
	}
	g.key("Escape")
	g.waitState("the spawn list closed", 5*time.Second, func(s State) bool {
		return s.Picked == "" && s.Targets["spawn:"+user] == [4]int{}
	})
	// Opening another scenario would drop them too: the Open prompt says so before Enter.
	g.key("ctrl+o")
	open := g.waitState("the open prompt", 5*time.Second, func(s State) bool { return s.Prompt != "" })
	if !strings.HasPrefix(open.PromptNote, "Opening replaces this world and the 2 robots spawned here") {
		t.Errorf("the open prompt's note %q does not warn of the robots spawned here", open.PromptNote)
	}
	// It still does while a path is typed, up to the Enter it warns of.
	g.typeText("x")
	typing := g.waitState("the typed path", 5*time.Second, func(s State) bool { return s.PromptText == "x" })
	if typing.PromptNote != open.PromptNote {
		t.Errorf("typing a path, the open prompt's note is %q, not the warning", typing.PromptNote)
	}
	g.keyUntil("Escape", "the open prompt closed", func(s State) bool { return s.Prompt == "" })
	// Back to the red one: ego, arcade_red_1, arcade_green_1. One Tab at a time: two presses
	// of a key in one frame are one for Ebiten.
	g.key("Tab")
	g.waitState("ego selected", 5*time.Second, func(s State) bool { return s.Selected == "ego" })
	g.key("Tab")
	g.key("p")
	at := g.waitState("paused", 5*time.Second, func(s State) bool { return s.Paused && strings.HasPrefix(s.Selected, "arcade_red") })

	path := filepath.Join(t.TempDir(), "saved.yaml")
	g.key("ctrl+s")
	g.waitState("the save prompt", 5*time.Second, func(s State) bool { return s.Prompt != "" })
	for range 20 { // clear the suggested name
		g.key("BackSpace")
	}
	g.typeText(path)
	g.key("Return")
	g.waitState("saved", 10*time.Second, func(s State) bool { return strings.HasPrefix(s.Status, "saved ") })
	sc, err := scenario.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := scenario.Resolve(sc, registry.Open(g.home, registry.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Agents) != 3 || plan.Agents[1].Vehicle.ID != id || plan.Agents[1].Spawn == nil || plan.Agents[2].Vehicle.ID != user {
		t.Fatalf("saved scenario has agents %+v", plan.Agents)
	}
	p := plan.Agents[1].Spawn
	if math.Hypot(p.X-at.Pose[0], p.Y-at.Pose[1]) > 0.01 {
		t.Errorf("saved %s at (%.3f, %.3f), it was at (%.3f, %.3f)", plan.Agents[1].Name, p.X, p.Y, at.Pose[0], at.Pose[1])
	}

	// Saved, the robots are not lost by opening another scenario: the prompt warns no more.
	g.key("ctrl+o")
	afterSave := g.waitState("the open prompt after the save", 5*time.Second, func(s State) bool { return s.Prompt != "" })
	if strings.Contains(afterSave.PromptNote, "spawned here") {
		t.Errorf("after a save, the open prompt still warns: %q", afterSave.PromptNote)
	}
	g.keyUntil("Escape", "the open prompt closed", func(s State) bool { return s.Prompt == "" })

	// A path that cannot be opened comes back in the prompt with the reason, to mend.
	missing := filepath.Join(filepath.Dir(path), "nope.yaml")
	g.key("ctrl+o")
	g.waitState("the open prompt", 5*time.Second, func(s State) bool { return s.Prompt != "" })
	g.typeText(missing)
	g.key("Return")
	g.waitState("the prompt back with the reason", 15*time.Second, func(s State) bool {
		return s.Prompt != "" && s.PromptText == missing && strings.Contains(s.PromptNote, "not found")
	})
	// A reason too long for the status line's box opens whole with a click on it, and a
	// second click closes it.
	long := filepath.Join(filepath.Dir(path), "long.yaml")
	longID := "track." + strings.Repeat("verylongname", 120) + ".v1"
	if err := os.WriteFile(long, []byte("world:\n  trackId: "+longID+"\nvehicle:\n  vehicleId: vehicle.ks0223.v1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g.key("ctrl+a")
	g.typeText(long)
	g.key("Return")
	cut := g.waitState("the long reason", 15*time.Second, func(s State) bool {
		_, ok := s.Targets["status"]
		return ok && s.PromptText == long && strings.Contains(s.Status, longID)
	})
	g.clickTarget("status")
	whole := g.waitState("the whole reason", 5*time.Second, func(s State) bool {
		r, ok := s.Targets["status"]
		return ok && r[3]-r[1] > cut.Targets["status"][3]-cut.Targets["status"][1]
	})
	g.clickTarget("status")
	g.waitState("the reason closed", 5*time.Second, func(s State) bool { _, ok := s.Targets["status"]; return !ok && s.Status == "" })
	if whole.Prompt == "" {
		t.Errorf("the click on the reason closed the prompt")
	}

	g.key("ctrl+a")
	g.typeText(path)
	g.key("Return")
	opened := g.waitState("the saved scenario", 15*time.Second, func(s State) bool { return s.Scenario == path && s.Models == 3 })
	if !strings.HasPrefix(opened.Status, "opened") {
		t.Errorf("status %q", opened.Status)
	}
	g.key("Tab")
	back := g.waitState("the spawned robot again", 5*time.Second, func(s State) bool { return s.Selected == at.Selected })
	if math.Hypot(back.Pose[0]-at.Pose[0], back.Pose[1]-at.Pose[1]) > 0.05 {
		t.Errorf("reopened: %s at (%.3f, %.3f), saved at (%.3f, %.3f)", back.Selected, back.Pose[0], back.Pose[1], at.Pose[0], at.Pose[1])
	}
	g.shot("spawned-and-reopened.png")

	// "default" in the Open prompt goes back to the default scenario.
	g.key("ctrl+o")
	g.waitState("the open prompt", 5*time.Second, func(s State) bool { return s.Prompt != "" })
	g.key("ctrl+a")
	g.typeText("default")
	g.key("Return")
	g.waitState("the default scenario", 15*time.Second, func(s State) bool {
		return s.Scenario == scenario.DefaultName && s.Models == 1 && strings.HasPrefix(s.Status, "opened the default")
	})
}
