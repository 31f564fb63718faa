// Package xtest drives GUI programs from outside with real X events (xdotool), for tests that
// run under Xvfb: it starts a program in its own process, finds its window, sends keys and
// clicks, stops it, and measures screenshots. The window's and the editor's GUI tests share it.
package xtest

import (
	"bytes"
	"fmt"
	"image"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// TB is what the helpers need of a test: *testing.T satisfies it.
type TB interface {
	Helper()
	Skip(args ...any)
	Fatal(args ...any)
	Fatalf(format string, args ...any)
	Errorf(format string, args ...any)
	Cleanup(f func())
}

// NeedDisplay skips a test where there is no X display (make test runs GUI tests under
// xvfb-run) or no xdotool.
func NeedDisplay(t TB) {
	t.Helper()
	if os.Getenv("DISPLAY") == "" {
		t.Skip("needs an X display: run under xvfb-run (make test does)")
	}
	if _, err := exec.LookPath("xdotool"); err != nil {
		t.Skip("needs xdotool (build/setup.sh installs it)")
	}
}

var builds struct {
	sync.Mutex
	bins map[bool]string
}

// BuildSimgui builds cmd/simgui once per test process (with the race detector when race is
// set) and returns the binary's path.
func BuildSimgui(t TB, race bool) string {
	t.Helper()
	builds.Lock()
	defer builds.Unlock()
	if bin := builds.bins[race]; bin != "" {
		return bin
	}
	dir, err := os.MkdirTemp("", "simgui-gui-test")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "simgui")
	args := []string{"build", "-o", bin}
	if race {
		args = append(args, "-race")
	}
	if out, err := exec.Command("go", append(args, "simgui/cmd/simgui")...).CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		t.Fatalf("build simgui: %v\n%s", err, out)
	}
	if builds.bins == nil {
		builds.bins = map[bool]string{}
	}
	builds.bins[race] = bin
	return bin
}

// RemoveBuilds removes the binaries BuildSimgui built; a test package that builds them calls
// it from TestMain after m.Run, so that each run does not leave tens of megabytes in the
// temporary folder.
func RemoveBuilds() {
	builds.Lock()
	defer builds.Unlock()
	for race, bin := range builds.bins {
		os.RemoveAll(filepath.Dir(bin))
		delete(builds.bins, race)
	}
}

// Proc is a GUI program running in its own process.
type Proc struct {
	t   TB
	Cmd *exec.Cmd
	// Win is the X id of its (last found) visible window.
	Win string
	// Stderr collects what the program writes to standard error.
	Stderr *LockedBuffer
	// Name names the program in failure messages.
	Name string

	exited  chan struct{} // closed once the process has ended
	waitErr error         // how it ended, set before exited closes
}

// refused reports whether a program's or xdotool's output says the X server refused its
// connection. A loaded Xvfb refuses a share of new connections (EAGAIN from a full accept
// queue, or a reset) while its earlier clients keep working; such a start is tried again.
func refused(out string) bool {
	return strings.Contains(out, "failed to open display") || strings.Contains(out, "Can't open display") ||
		strings.Contains(out, "Failed creating new xdo instance")
}

// connectTries bounds the attempts at a connection the X server refused.
const connectTries = 10

// Start starts cmd, waits up to timeout for a visible window of its process and registers a
// cleanup that stops it. Its standard error goes to Proc.Stderr. A program that ends because
// the X server refused its connection is started again (a fresh copy of cmd).
func Start(t TB, name string, cmd *exec.Cmd, timeout time.Duration) *Proc {
	t.Helper()
	for try := 1; ; try++ {
		p := &Proc{t: t, Cmd: cmd, Stderr: &LockedBuffer{}, Name: name, exited: make(chan struct{})}
		cmd.Stderr = p.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() {
			p.waitErr = cmd.Wait()
			close(p.exited)
		}()
		p.Win = p.WaitWindow(timeout, "")
		if p.Win != "" {
			t.Cleanup(p.Stop)
			return p
		}
		p.end()
		if try < connectTries && refused(p.Stderr.String()) {
			cmd = retry(cmd)
			continue
		}
		t.Fatalf("%s: no window appeared in %v; stderr:\n%s", name, timeout, p.Stderr)
	}
}

// retry is a fresh copy of a command that has run.
func retry(c *exec.Cmd) *exec.Cmd {
	n := exec.Command(c.Path, c.Args[1:]...)
	n.Env, n.Dir, n.Stdin, n.Stdout, n.ExtraFiles = c.Env, c.Dir, c.Stdin, c.Stdout, c.ExtraFiles
	return n
}

// WaitWindow waits up to timeout for a visible window of the process other than except and
// returns its id, or "" when none appeared or the process ended.
func (p *Proc) WaitWindow(timeout time.Duration, except string) string {
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		select {
		case <-p.exited:
			return ""
		default:
		}
		out, err := xdotool("search", "--onlyvisible", "--pid", fmt.Sprint(p.Cmd.Process.Pid))
		if err != nil {
			continue // none yet (or the server refused xdotool: its output is not ids)
		}
		ids := strings.Fields(string(out))
		for i := len(ids) - 1; i >= 0; i-- {
			if ids[i] != except {
				return ids[i]
			}
		}
	}
	return ""
}

// Exited reports whether the program has ended.
func (p *Proc) Exited() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// xdotool runs xdotool with args and returns its combined output, trying again while the X
// server refuses the connection (before xdotool has sent anything).
func xdotool(args ...string) ([]byte, error) {
	for try := 1; ; try++ {
		out, err := exec.Command("xdotool", args...).CombinedOutput()
		if err == nil || try == connectTries || !refused(string(out)) {
			return out, err
		}
		time.Sleep(time.Duration(try) * 20 * time.Millisecond) // back off while the server catches up
	}
}

// Xdotool runs xdotool as Xdo does, for tests without a Proc; it returns the output.
func Xdotool(args ...string) ([]byte, error) { return xdotool(args...) }

// Xdo runs xdotool with args and fails the test if it fails.
func (p *Proc) Xdo(args ...string) {
	p.t.Helper()
	if out, err := xdotool(args...); err != nil {
		p.t.Fatalf("xdotool %v: %v %s", args, err, out)
	}
}

// Click moves the pointer to window pixel (x, y) of the program's window and clicks.
func (p *Proc) Click(x, y int) {
	p.t.Helper()
	p.Xdo("mousemove", "--window", p.Win, "--sync", fmt.Sprint(x), fmt.Sprint(y))
	p.Xdo("click", "--window", p.Win, "1")
}

// Stop ends the program with SIGTERM (GUI programs close their window and simulation on it)
// and waits up to 15 s, killing it after that. An unclean exit fails the test, whether the
// program ended on its own before or on the signal.
func (p *Proc) Stop() {
	if !p.end() {
		p.t.Errorf("%s did not stop within 15 s of SIGTERM", p.Name)
	} else if p.waitErr != nil {
		p.t.Errorf("%s exited with %v; stderr:\n%s", p.Name, p.waitErr, p.Stderr)
	}
}

// end stops the program if it still runs and reports whether it ended within 15 s of SIGTERM
// (it is killed otherwise).
func (p *Proc) end() bool {
	if p.Exited() {
		return true
	}
	p.Cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
		return true
	case <-time.After(15 * time.Second):
		p.Cmd.Process.Kill()
		<-p.exited
		return false
	}
}

// LockedBuffer is a bytes.Buffer safe to write from a child's output copier while a test
// reads it.
type LockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *LockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *LockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Stats are the mean colour, the luminance spread and the number of distinct (5-bit) colours
// of an image region.
type Stats struct {
	R, G, B, Std float64
	Colors       int
}

// RegionStats measures r of img.
func RegionStats(img image.Image, r image.Rectangle) Stats {
	r = r.Intersect(img.Bounds())
	var s Stats
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

// SavePreview writes a screenshot's bytes to each of dirs (created if needed), so that people
// can look at what a test saw; failures are ignored.
func SavePreview(name string, data []byte, dirs ...string) {
	for _, d := range dirs {
		if os.MkdirAll(d, 0o755) == nil {
			os.WriteFile(filepath.Join(d, name), data, 0o644)
		}
	}
}

// CPUHogs runs n processes that keep a core busy (yes > /dev/null) until the test ends, for
// tests showing that a program does not depend on frame timing.
func CPUHogs(t TB, n int) {
	t.Helper()
	for range n {
		cmd := exec.Command("yes") // standard output goes to /dev/null
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			cmd.Process.Kill()
			cmd.Wait()
		})
	}
}
