package editor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"simgui/app/window/xtest"
	"strings"
	"testing"
	"time"
)

// previewDir is where the GUI tests also save their screenshots, for people to look at.
const previewDir = "/tmp/editor-preview"

// The GUI tests run the editor in a child process — Ebiten must own the main thread, and the
// tests drive the window from outside with real X events — by running this test binary with
// childEnv set to the kind of child.
const (
	childEnv   = "SIMGUI_EDITOR_CHILD"
	envState   = "SIMGUI_EDITOR_STATE"
	envShots   = "SIMGUI_EDITOR_SHOTS"
	envExport  = "SIMGUI_EDITOR_EXPORT"
	envResult  = "SIMGUI_EDITOR_RESULT"
	envNewType = "SIMGUI_EDITOR_NEW"
)

func needDisplay(t *testing.T) { xtest.NeedDisplay(t) }

// buildSimgui builds cmd/simgui once per test process, for `simgui plugin ...` checks.
func buildSimgui(t *testing.T) string { return xtest.BuildSimgui(t, false) }

// gui is an editor running in a child process, driven with xdotool.
type gui struct {
	*xtest.Proc
	t      *testing.T
	cmd    *exec.Cmd
	dir    string // screenshots, state, results
	state  string
	win    string // X window id
	stderr *xtest.LockedBuffer
}

// startEditor starts a child of the kind with env and waits for its window and first state.
func startEditor(t *testing.T, kind string, env ...string) *gui {
	t.Helper()
	dir := t.TempDir()
	xtest.NoKeyRepeat(t)
	g := &gui{t: t, dir: dir, state: filepath.Join(dir, "state.json")}
	g.cmd = exec.Command(os.Args[0], "-test.run=^$")
	g.cmd.Env = append(os.Environ(), append([]string{childEnv + "=" + kind, envState + "=" + g.state, envShots + "=" + dir,
		envResult + "=" + filepath.Join(dir, "result.json")}, env...)...)
	g.Proc = xtest.Start(t, "editor", g.cmd, 30*time.Second)
	g.cmd = g.Cmd // Start may have started a fresh copy
	g.win, g.stderr = g.Win, g.Stderr
	g.wait("the first laid-out frame", 30*time.Second, func(s State) bool { return s.Frames > 2 && len(s.Targets) > 0 })
	g.xdo("windowfocus", "--sync", g.win)
	return g
}

func (g *gui) xdo(args ...string) {
	g.t.Helper()
	g.Xdo(args...)
}

// otherWindow waits for a second visible window of the child (a native dialog) and returns
// its id.
func (g *gui) otherWindow(timeout time.Duration) string {
	g.t.Helper()
	w := g.WaitWindow(timeout, g.win)
	if w == "" {
		g.t.Fatalf("no dialog window appeared in %v; stderr:\n%s", timeout, g.stderr)
	}
	return w
}

// readState reads the state file (false while there is none).
func (g *gui) readState() (State, bool) {
	var s State
	b, err := os.ReadFile(g.state)
	if err != nil || json.Unmarshal(b, &s) != nil {
		return s, false
	}
	return s, true
}

// wait polls the state until ok accepts it.
func (g *gui) wait(what string, timeout time.Duration, ok func(State) bool) State {
	g.t.Helper()
	deadline := time.Now().Add(timeout)
	var last State
	for time.Now().Before(deadline) && !g.Exited() {
		if s, read := g.readState(); read {
			last = s
			if ok(s) {
				return s
			}
		}
		time.Sleep(40 * time.Millisecond)
	}
	g.t.Fatalf("waiting for %s: timed out; status %q, checked %d, focus %q holding %q, pressed %v, problems %v; stderr:\n%s", what, last.Status, last.Checked, last.Focus, last.Values[last.Focus], last.Pressed, last.Problems, g.stderr)
	return last
}

// click clicks the middle of a target with the left button; a tab first has the form
// scrolled back to its top (a table's Add scrolls it down).
func (g *gui) click(name string) {
	g.t.Helper()
	if strings.HasPrefix(name, "button:tab:") {
		g.tabs()
	}
	s := g.wait("target "+name, 10*time.Second, func(s State) bool { _, ok := s.Targets[name]; return ok })
	// The same place two frames on: a table's Add scrolls the form on a later frame, and a
	// click at where the target was before landed on whatever scrolled there.
	for r := s.Targets[name]; ; r = s.Targets[name] {
		frames := s.Frames
		s = g.wait("a later frame with "+name, 10*time.Second, func(st State) bool { return st.Frames > frames+1 })
		if s.Targets[name] == r {
			break
		}
	}
	r := s.Targets[name]
	x, y := (r[0]+r[2])/2, (r[1]+r[3])/2
	g.xdo("mousemove", "--window", g.win, fmt.Sprint(x), fmt.Sprint(y))
	// The editor reads the pointer once a frame and takes a click where the pointer is at
	// that frame: under load a click and the next move can be seen in one frame, the click
	// where the pointer went next. So each waits for the one before to be seen.
	s = g.wait(fmt.Sprintf("the pointer on %s", name), 10*time.Second, func(s State) bool { return s.Cursor == [2]int{x, y} })
	g.xdo("click", "1")
	s = g.wait(fmt.Sprintf("the click on %s", name), 10*time.Second, func(st State) bool { return st.Clicks > s.Clicks })
	if s.LastClick != [2]int{x, y} {
		g.t.Fatalf("clicked %s at (%d, %d), the editor saw the click at %v", name, x, y, s.LastClick)
	}
}

// key presses and releases keys (xdotool names), each held 60 ms: the window polls keys
// once a tick, and a loaded machine stretches ticks.
func (g *gui) key(keys ...string) { g.xdo(append([]string{"key", "--delay", "120"}, keys...)...) }

// set clicks a text field, selects its text (Ctrl+A) and types text over it at 20 keys a
// second, then waits until the field holds it.
func (g *gui) set(field, text string) {
	g.t.Helper()
	name := "field:" + field
	g.click(name)
	s := g.wait(name+" focused", 5*time.Second, func(s State) bool { return s.Focus == name })
	if n := len([]rune(s.Values[name])); n > 0 {
		g.key("ctrl+a")
		g.wait(name+" selected", 5*time.Second, func(s State) bool { return s.Selection == [2]int{0, n} })
		g.key("BackSpace")
		g.wait(name+" emptied", 5*time.Second, func(s State) bool { return s.Values[name] == "" })
	}
	g.typeText(field, text)
	g.wait(fmt.Sprintf("%s to read %q", field, text), 10*time.Second, func(s State) bool { return s.Values[name] == text })
}

// typeText types text into the focused field at 20 keys a second and waits until the field
// ends with it.
func (g *gui) typeText(field, text string) {
	g.t.Helper()
	if text == "" {
		return
	}
	name := "field:" + field
	g.xdo("type", "--delay", "50", text)
	g.wait(fmt.Sprintf("%s to end with %q", field, text), 10*time.Second, func(s State) bool { return strings.HasSuffix(s.Values[name], text) })
}

// shot presses F12, waits for the screenshot and returns it; it is also copied to previewDir.
func (g *gui) shot(name string) image.Image {
	g.t.Helper()
	n := 0
	if s, ok := g.readState(); ok {
		n = len(s.Shots)
	}
	g.key("F12")
	s := g.wait("screenshot "+name, 15*time.Second, func(s State) bool { return len(s.Shots) > n })
	b, err := os.ReadFile(s.Shots[len(s.Shots)-1])
	if err != nil {
		g.t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		g.t.Fatal(err)
	}
	xtest.SavePreview(name, b, previewDir, g.dir)
	return img
}

// notBlank fails unless a region has varied content: not one colour, not black.
func notBlank(t *testing.T, what string, img image.Image, r [4]int) xtest.Stats {
	t.Helper()
	s := xtest.RegionStats(img, image.Rect(r[0], r[1], r[2], r[3]))
	if s.Colors < 8 || s.Std < 6 || s.R+s.G+s.B < 60 {
		t.Errorf("%s looks blank: %+v", what, s)
	}
	return s
}

// framedRed reports whether the border just outside target r has the problem colour.
func framedRed(img image.Image, r [4]int) bool {
	red := 0
	for x := r[0]; x < r[2]; x++ {
		for _, y := range []int{r[1] - 1, r[3]} {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if cr>>8 > 180 && cg>>8 < 110 && cb>>8 < 110 {
				red++
			}
		}
	}
	return red > (r[2]-r[0])/2
}

// brightPixels counts the pixels of a target that are light (text on the dark theme).
func brightPixels(img image.Image, r [4]int) int {
	n := 0
	for y := r[1]; y < r[3]; y++ {
		for x := r[0]; x < r[2]; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if 0.3*float64(cr>>8)+0.59*float64(cg>>8)+0.11*float64(cb>>8) > 150 {
				n++
			}
		}
	}
	return n
}

// tabs scrolls the form up until its tabs are on show whole.
func (g *gui) tabs() {
	g.t.Helper()
	for range 80 {
		s, _ := g.readState()
		if r, ok := s.Targets["button:tab:"+tabGeneral]; ok && r[3]-r[1] >= 16 {
			return
		}
		g.moveTo(200, 400) // over the form
		g.xdo("click", "4")
		g.wait("a frame after the wheel", 10*time.Second, func(st State) bool { return st.Frames > s.Frames+2 })
	}
	g.t.Fatal("the form's tabs not on show after scrolling it up")
}

// reveal scrolls the form down with the wheel, a notch a frame, until target name is on show.
func (g *gui) reveal(name string) {
	g.t.Helper()
	s := g.wait("the form's tabs", 10*time.Second, func(s State) bool { _, ok := s.Targets["button:tab:"+tabGeneral]; return ok })
	tab := s.Targets["button:tab:"+tabGeneral]
	g.moveTo(tab[0]+40, tab[3]+120)
	var last [4]int
	for range 80 {
		s, _ = g.readState()
		// On show whole (a row's height, not cut by the panel's edge) and still (the panel
		// no longer scrolling).
		if r, ok := s.Targets[name]; ok && r[3]-r[1] >= 16 && r == last {
			return
		} else if ok && r[3]-r[1] >= 16 {
			last = r
		} else {
			g.xdo("click", "5")
		}
		g.wait("a frame after the wheel", 10*time.Second, func(st State) bool { return st.Frames > s.Frames+2 })
	}
	g.t.Fatalf("%s not on show after scrolling the form down", name)
}

// visible reports whether the window win is mapped.
func (g *gui) visible(win string) bool {
	out, err := xtest.Xdotool("search", "--onlyvisible", "--pid", fmt.Sprint(g.Cmd.Process.Pid))
	if err != nil {
		return false
	}
	for _, id := range strings.Fields(string(out)) {
		if id == win {
			return true
		}
	}
	return false
}
