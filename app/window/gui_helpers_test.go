package window

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"simgui/app/window/xtest"
	"slices"
	"strings"
	"testing"
	"time"
)

// previewDir is where the GUI tests also save their screenshots, for people to look at.
const previewDir = "/tmp/window-preview"

func needDisplay(t *testing.T) { xtest.NeedDisplay(t) }

// buildSimgui builds cmd/simgui once per test process (with -race when the tests have it).
func buildSimgui(t *testing.T) string { return xtest.BuildSimgui(t, raceEnabled) }

// gui is a window program running in its own process, driven with xdotool.
type gui struct {
	*xtest.Proc
	t       *testing.T
	cmd     *exec.Cmd
	dir     string // screenshots and state
	home    string // RUSIM_HOME: the user plugin registry, empty at start
	state   string
	win     string // X window id
	started time.Time
}

// startGUI starts bin with args plus --state-file and --screenshot-dir (or, for a test
// child, the same through its environment) and waits for its window.
func startGUI(t *testing.T, bin string, args []string, env ...string) *gui {
	t.Helper()
	xtest.NoKeyRepeat(t)
	dir := t.TempDir()
	g := &gui{t: t, dir: dir, home: t.TempDir(), state: filepath.Join(dir, "state.json")}
	env = append(env, "RUSIM_HOME="+g.home)
	if bin != "" {
		args = append(args, "--state-file", g.state, "--screenshot-dir", dir)
	} else {
		bin = os.Args[0]
		env = append(env, envState+"="+g.state, envShots+"="+dir)
	}
	g.cmd = exec.Command(bin, args...)
	g.cmd.Env = append(os.Environ(), env...)
	g.started = time.Now()
	g.Proc = xtest.Start(t, "window program", g.cmd, 20*time.Second)
	g.cmd = g.Cmd // Start may have started a fresh copy
	g.win = g.Win
	g.waitState("the first state", 20*time.Second, func(s State) bool { return s.Step > 0 })
	g.xdo("windowfocus", "--sync", g.win)
	// Keys go to the focused window: the first key a test types must not race the focus.
	g.waitState("the keyboard focus", 10*time.Second, func(s State) bool { return s.Focused })
	return g
}

func (g *gui) errText() string { return g.Stderr.String() }

func (g *gui) xdo(args ...string) {
	g.t.Helper()
	g.Xdo(args...)
}

// key presses and releases keys (xdotool names: "w", "p", "F12", "ctrl+s", "Return"), each
// held 60 ms: the window polls keys once a tick, and a loaded machine stretches ticks.
func (g *gui) key(keys ...string) { g.xdo(append([]string{"key", "--delay", "120"}, keys...)...) }

func (g *gui) keyDown(k string) { g.xdo("keydown", k) }
func (g *gui) keyUp(k string)   { g.xdo("keyup", k) }

// typeText types s as key events.
func (g *gui) typeText(s string) { g.xdo("type", "--delay", "15", s) }

// click clicks the left button at window pixel (x, y).
func (g *gui) click(x, y int) {
	g.t.Helper()
	g.xdo("mousemove", "--window", g.win, fmt.Sprint(x), fmt.Sprint(y))
	// The window reads the pointer once a frame and takes a click where the pointer is at
	// that frame: under load a click and the next move can be seen in one frame, the click
	// where the pointer went next. So each waits for the one before to be seen.
	s := g.waitState(fmt.Sprintf("the pointer at (%d, %d)", x, y), 10*time.Second, func(s State) bool { return s.Cursor == [2]int{x, y} })
	g.xdo("click", "1")
	s = g.waitState(fmt.Sprintf("the click at (%d, %d)", x, y), 10*time.Second, func(st State) bool { return st.Clicks > s.Clicks })
	if s.LastClick != [2]int{x, y} {
		g.t.Fatalf("clicked at (%d, %d), the window saw the click at %v", x, y, s.LastClick)
	}
}

// press moves to window pixel (x, y) and holds the left button down there, waiting for the
// window to see each: a press seen in the same frame as the next move would start where the
// pointer went next. moveTo then drags it; the caller lets go with g.xdo("mouseup", "1").
func (g *gui) press(x, y int) {
	g.t.Helper()
	s := g.moveTo(x, y)
	g.xdo("mousedown", "1")
	s = g.waitState(fmt.Sprintf("the press at (%d, %d)", x, y), 10*time.Second, func(st State) bool { return st.Clicks > s.Clicks })
	if s.LastClick != [2]int{x, y} {
		g.t.Fatalf("pressed at (%d, %d), the window saw the press at %v", x, y, s.LastClick)
	}
}

// moveTo moves the pointer to window pixel (x, y) and waits for the window to see it there.
func (g *gui) moveTo(x, y int) State {
	g.t.Helper()
	g.xdo("mousemove", "--window", g.win, fmt.Sprint(x), fmt.Sprint(y))
	return g.waitState(fmt.Sprintf("the pointer at (%d, %d)", x, y), 10*time.Second, func(s State) bool { return s.Cursor == [2]int{x, y} })
}

// armSpawn opens the spawn list and picks the plugin id, so that the next click in the world
// places it.
func (g *gui) armSpawn(id string) {
	g.t.Helper()
	g.key("i")
	g.clickTarget("spawn:" + id)
	g.waitState(id+" armed", 5*time.Second, func(s State) bool { return s.Picked == id })
}

// clickTarget clicks the middle of a clickable thing the window lists in its state.
func (g *gui) clickTarget(name string) {
	g.t.Helper()
	s := g.waitState("target "+name, 10*time.Second, func(s State) bool { _, ok := s.Targets[name]; return ok })
	r := s.Targets[name]
	g.click((r[0]+r[2])/2, (r[1]+r[3])/2)
}

// readState reads the state file (false while it does not exist yet).
func (g *gui) readState() (State, bool) {
	var s State
	data, err := os.ReadFile(g.state)
	if err != nil || json.Unmarshal(data, &s) != nil {
		return s, false
	}
	return s, true
}

// keyUntil presses k until the state satisfies ok, at most four times 3 s apart: on a loaded
// machine a press and release within one of the window's ticks can go unseen. Only for keys
// whose second press changes nothing once ok holds (Escape closing what is open).
func (g *gui) keyUntil(k, what string, ok func(State) bool) State {
	g.t.Helper()
	for range 3 {
		g.key(k)
		deadline := time.Now().Add(3 * time.Second)
		for time.Now().Before(deadline) && !g.Exited() {
			if s, read := g.readState(); read && ok(s) {
				return s
			}
			time.Sleep(40 * time.Millisecond)
		}
	}
	g.key(k)
	return g.waitState(what, 3*time.Second, ok)
}

// waitState polls the state until ok accepts it.
func (g *gui) waitState(what string, timeout time.Duration, ok func(State) bool) State {
	g.t.Helper()
	deadline := time.Now().Add(timeout)
	var last State
	for time.Now().Before(deadline) {
		if g.Exited() {
			break
		}
		if s, read := g.readState(); read {
			last = s
			if ok(s) {
				return s
			}
		}
		time.Sleep(40 * time.Millisecond)
	}
	g.t.Fatalf("waiting for %s: timed out; last state %+v; stderr:\n%s", what, last, g.errText())
	return last
}

// shot presses F12, waits for the screenshot and returns it; it is also copied to
// previewDir/name.
func (g *gui) shot(name string) image.Image {
	g.t.Helper()
	n := 0
	if s, ok := g.readState(); ok {
		n = len(s.Shots)
	}
	g.key("F12")
	s := g.waitState("screenshot "+name, 10*time.Second, func(s State) bool { return len(s.Shots) > n })
	data, err := os.ReadFile(s.Shots[len(s.Shots)-1])
	if err != nil {
		g.t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		g.t.Fatal(err)
	}
	if err := os.MkdirAll(previewDir, 0o755); err == nil {
		os.WriteFile(filepath.Join(previewDir, name), data, 0o644)
	}
	return img
}

// notBlank fails unless a region has varied content: not one colour, not black, not noise-free.
func notBlank(t *testing.T, what string, img image.Image, r image.Rectangle) xtest.Stats {
	t.Helper()
	s := xtest.RegionStats(img, r)
	if s.Colors < 12 || s.Std < 6 || s.R+s.G+s.B < 60 {
		t.Errorf("%s looks blank: %+v", what, s)
	}
	return s
}

// brightest is the largest R+G+B of a pixel in r of img: a box's text.
func brightest(img image.Image, r image.Rectangle) int {
	m := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			m = max(m, int(cr>>8+cg>>8+cb>>8))
		}
	}
	return m
}

// freePort returns a free TCP port on 127.0.0.1.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func decodePNG(data []byte) (image.Image, error) { return png.Decode(bytes.NewReader(data)) }

// runCmd runs bin with args (on an empty user registry) and returns its standard output.
func runCmd(t *testing.T, bin string, args ...string) ([]byte, error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "RUSIM_HOME="+t.TempDir())
	return cmd.Output()
}

// headlessModel is a robot of `simgui run --headless --json`'s summary.
type headlessModel struct {
	Name string
	Pose struct{ X, Y, Yaw float64 }
}

// headlessModels reads the robots of a headless run's JSON summary.
func headlessModels(t *testing.T, out []byte) []headlessModel {
	t.Helper()
	var sum struct{ Models []headlessModel }
	if err := json.Unmarshal(out, &sum); err != nil {
		t.Fatalf("headless summary: %v\n%s", err, out)
	}
	return sum.Models
}

// typeIntoDialog types path into the location entry of the GTK file dialog win (Ctrl+L opens
// it, Ctrl+A selects what it holds) and presses Return, until the dialog is gone or done
// holds. GTK drops the keys a dialog gets before it is ready for them, and nothing seen from
// outside says when it is, so a try whose keys were lost leaves the dialog up and the next
// one types the whole path again; between tries it waits for the dialog to go.
func typeIntoDialog(t *testing.T, g *gui, win, path string, done func() bool) {
	t.Helper()
	gone := func() bool {
		out, err := xtest.Xdotool("search", "--onlyvisible", "--name", ".")
		return err != nil || !slices.Contains(strings.Fields(string(out)), win)
	}
	deadline := time.Now().Add(30 * time.Second)
	for try := 1; !done() && !gone(); try++ {
		if time.Now().After(deadline) {
			t.Fatalf("the dialog took no path in %d tries", try-1)
		}
		if _, err := xtest.Xdotool("windowfocus", "--sync", win); err != nil {
			continue // it went in the meantime
		}
		g.key("ctrl+l", "ctrl+a")
		g.typeText(path)
		g.key("Return")
		for wait := time.Now().Add(3 * time.Second); time.Now().Before(wait) && !done() && !gone(); time.Sleep(40 * time.Millisecond) {
		}
		if try > 1 {
			t.Logf("typed the path into the dialog %d times", try)
		}
	}
}
