package window

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// previewDir is where the GUI tests also save their screenshots, for people to look at.
const previewDir = "/tmp/window-preview"

// needDisplay skips GUI tests where there is no X display (make test runs them under xvfb-run)
// or no xdotool.
func needDisplay(t *testing.T) {
	t.Helper()
	if os.Getenv("DISPLAY") == "" {
		t.Skip("needs an X display: run under xvfb-run (make test does)")
	}
	if _, err := exec.LookPath("xdotool"); err != nil {
		t.Skip("needs xdotool (build/setup.sh installs it)")
	}
}

var (
	buildOnce sync.Once
	simguiBin string
	buildErr  error
)

// buildSimgui builds cmd/simgui once per test process.
func buildSimgui(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "simgui-window-test")
		if err != nil {
			buildErr = err
			return
		}
		simguiBin = filepath.Join(dir, "simgui")
		args := []string{"build", "-o", simguiBin}
		if raceEnabled {
			args = append(args, "-race")
		}
		out, err := exec.Command("go", append(args, "simgui/cmd/simgui")...).CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("build simgui: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return simguiBin
}

// gui is a window program running in its own process, driven with xdotool.
type gui struct {
	t       *testing.T
	cmd     *exec.Cmd
	dir     string // screenshots and state
	home    string // RUSIM_HOME: the user plugin registry, empty at start
	state   string
	win     string // X window id
	stderr  *bytes.Buffer
	started time.Time
	mu      sync.Mutex
}

// startGUI starts bin with args plus --state-file and --screenshot-dir (or, for a test
// child, the same through its environment) and waits for its window.
func startGUI(t *testing.T, bin string, args []string, env ...string) *gui {
	t.Helper()
	dir := t.TempDir()
	g := &gui{t: t, dir: dir, home: t.TempDir(), state: filepath.Join(dir, "state.json"), stderr: &bytes.Buffer{}}
	env = append(env, "RUSIM_HOME="+g.home)
	if bin != "" {
		args = append(args, "--state-file", g.state, "--screenshot-dir", dir)
	} else {
		bin = os.Args[0]
		env = append(env, envState+"="+g.state, envShots+"="+dir)
	}
	g.cmd = exec.Command(bin, args...)
	g.cmd.Env = append(os.Environ(), env...)
	g.cmd.Stderr = &lockedWriter{w: g.stderr, mu: &g.mu}
	g.started = time.Now()
	if err := g.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.stop)
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		out, _ := exec.Command("xdotool", "search", "--onlyvisible", "--pid", fmt.Sprint(g.cmd.Process.Pid)).Output()
		if ids := strings.Fields(string(out)); len(ids) > 0 {
			g.win = ids[len(ids)-1]
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if g.win == "" {
		t.Fatalf("no window appeared in 20 s; stderr:\n%s", g.errText())
	}
	g.waitState("the first state", 20*time.Second, func(s State) bool { return s.Step > 0 })
	g.xdo("windowfocus", "--sync", g.win)
	return g
}

type lockedWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (g *gui) errText() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.stderr.String()
}

// stop ends the program with SIGTERM (it closes its window and simulation) and waits.
func (g *gui) stop() {
	if g.cmd.ProcessState != nil {
		return
	}
	g.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- g.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			g.t.Errorf("window program exited with %v; stderr:\n%s", err, g.errText())
		}
	case <-time.After(15 * time.Second):
		g.cmd.Process.Kill()
		<-done
		g.t.Errorf("window program did not stop within 15 s of SIGTERM")
	}
}

func (g *gui) xdo(args ...string) {
	g.t.Helper()
	if out, err := exec.Command("xdotool", args...).CombinedOutput(); err != nil {
		g.t.Fatalf("xdotool %v: %v %s", args, err, out)
	}
}

// key presses and releases keys (xdotool names: "w", "p", "F12", "ctrl+s", "Return").
func (g *gui) key(keys ...string) { g.xdo(append([]string{"key", "--delay", "60"}, keys...)...) }

func (g *gui) keyDown(k string) { g.xdo("keydown", k) }
func (g *gui) keyUp(k string)   { g.xdo("keyup", k) }

// typeText types s as key events.
func (g *gui) typeText(s string) { g.xdo("type", "--delay", "15", s) }

// click clicks the left button at window pixel (x, y).
func (g *gui) click(x, y int) {
	g.xdo("mousemove", "--window", g.win, fmt.Sprint(x), fmt.Sprint(y))
	time.Sleep(80 * time.Millisecond)
	g.xdo("click", "1")
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

// waitState polls the state until ok accepts it.
func (g *gui) waitState(what string, timeout time.Duration, ok func(State) bool) State {
	g.t.Helper()
	deadline := time.Now().Add(timeout)
	var last State
	for time.Now().Before(deadline) {
		if g.cmd.ProcessState != nil {
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

// stats are the mean colour and the luminance spread of a region.
type stats struct {
	R, G, B, Std float64
	Colors       int
}

func regionStats(img image.Image, r image.Rectangle) stats {
	r = r.Intersect(img.Bounds())
	var s stats
	var sum, sum2 float64
	colors := map[[3]uint8]bool{}
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			R, G, B := float64(cr>>8), float64(cg>>8), float64(cb>>8)
			s.R, s.G, s.B = s.R+R, s.G+G, s.B+B
			l := 0.3*R + 0.59*G + 0.11*B
			sum, sum2 = sum+l, sum2+l*l
			colors[[3]uint8{uint8(cr >> 11), uint8(cg >> 11), uint8(cb >> 11)}] = true
			n++
		}
	}
	if n == 0 {
		return s
	}
	f := float64(n)
	s.R, s.G, s.B = s.R/f, s.G/f, s.B/f
	s.Std = math.Sqrt(max(sum2/f-(sum/f)*(sum/f), 0))
	s.Colors = len(colors)
	return s
}

// notBlank fails unless a region has varied content: not one colour, not black, not noise-free.
func notBlank(t *testing.T, what string, img image.Image, r image.Rectangle) stats {
	t.Helper()
	s := regionStats(img, r)
	if s.Colors < 12 || s.Std < 6 || s.R+s.G+s.B < 60 {
		t.Errorf("%s looks blank: %+v", what, s)
	}
	return s
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
