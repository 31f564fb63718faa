package desktop

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"simgui/app/window/xtest"
)

// TestShowDialogWithRealKeys opens the GTK chooser under the display make test provides: a
// path typed into the open dialog comes back, Escape cancels a save dialog, and both run on
// GTK's one thread, one after the other.
func TestShowDialogWithRealKeys(t *testing.T) {
	xtest.NeedDisplay(t)
	dir := t.TempDir()
	want := filepath.Join(dir, "scenario.yaml")
	if err := os.WriteFile(want, []byte("world: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	type answer struct {
		path string
		err  error
	}
	show := func(req FileRequest) <-chan answer {
		ch := make(chan answer, 1)
		go func() {
			p, err := ShowDialog(req)
			ch <- answer{p, err}
		}()
		return ch
	}
	xdo := func(args ...string) {
		t.Helper()
		if out, err := xtest.Xdotool(args...); err != nil {
			t.Fatalf("xdotool %v: %v %s", args, err, out)
		}
	}
	// window waits for the dialog titled title to be mapped.
	window := func(title string) string {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			out, err := xtest.Xdotool("search", "--onlyvisible", "--name", "^"+title+"$")
			if ids := strings.Fields(string(out)); err == nil && len(ids) > 0 {
				return ids[0]
			}
		}
		t.Fatalf("no dialog %q appeared", title)
		return ""
	}
	visible := func(w string) bool {
		out, err := xtest.Xdotool("search", "--onlyvisible", "--name", ".")
		return err == nil && slices.Contains(strings.Fields(string(out)), w)
	}
	// keys focuses the dialog w and sends it keys until it answers. GTK drops the keys of a
	// dialog that is mapped and focused but not yet ready for them, and nothing outside it
	// tells when it is: a try whose keys were lost leaves the dialog up, and the next one sends
	// them all again (each try's keys stand alone).
	keys := func(ch <-chan answer, w string, send func()) answer {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for try := 1; ; try++ {
			if _, err := xtest.Xdotool("windowfocus", "--sync", w); err == nil {
				send()
			}
			for wait := time.Now().Add(3 * time.Second); time.Now().Before(wait); {
				select {
				case a := <-ch:
					if try > 1 {
						t.Logf("sent the keys %d times", try)
					}
					return a
				case <-time.After(40 * time.Millisecond):
				}
				if !visible(w) {
					break
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("the dialog did not answer in %d tries", try)
			}
			if !visible(w) {
				select {
				case a := <-ch:
					return a
				case <-time.After(20 * time.Second):
					t.Fatal("the dialog closed and did not answer")
				}
			}
		}
	}

	got := show(FileRequest{Title: "Open desktop test", Filter: "Scenario (YAML)", Extensions: []string{"yaml"}, StartDir: dir})
	w := window("Open desktop test")
	if a := keys(got, w, func() {
		xdo("key", "ctrl+l", "ctrl+a") // the location entry, all it holds selected
		xdo("type", "--delay", "10", want)
		xdo("key", "Return")
	}); a.err != nil || a.path != want {
		t.Fatalf("open dialog answered %q, %v; want %s", a.path, a.err, want)
	}

	got = show(FileRequest{Title: "Save desktop test", Save: true, StartDir: dir})
	w = window("Save desktop test")
	if a := keys(got, w, func() { xdo("key", "Escape") }); !errors.Is(a.err, ErrCancelled) || a.path != "" {
		t.Fatalf("cancelled save dialog answered %q, %v", a.path, a.err)
	}

	// A save dialog suggests the name it is given: Enter alone takes it.
	got = show(FileRequest{Title: "Save named test", Save: true, StartDir: dir, Name: "suggested.yaml"})
	w = window("Save named test")
	if a := keys(got, w, func() { xdo("key", "Return") }); a.err != nil || a.path != filepath.Join(dir, "suggested.yaml") {
		t.Fatalf("save dialog with a suggested name answered %q, %v", a.path, a.err)
	}
}

// TestShowDialogWithoutDisplay: where GTK cannot open a display the dialog is an error the
// caller turns into "type the path instead", not a crash. It runs in a child process, since
// GTK is loaded once per process.
func TestShowDialogWithoutDisplay(t *testing.T) {
	if os.Getenv("DESKTOP_CHILD") == "1" {
		_, err := ShowDialog(FileRequest{Title: "x"})
		if err == nil || !strings.HasPrefix(err.Error(), "the native file dialog is unavailable (") {
			t.Fatalf("ShowDialog without a display: %v", err)
		}
		if _, again := ShowDialog(FileRequest{Title: "x"}); again == nil || again.Error() != err.Error() {
			t.Fatalf("second call: %v, want %v", again, err)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestShowDialogWithoutDisplay$", "-test.v")
	cmd.Env = append(os.Environ(), "DESKTOP_CHILD=1", "DISPLAY=", "WAYLAND_DISPLAY=")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestShowDialogWithoutDisplay") {
		t.Fatalf("child: %v\n%s", err, out)
	}
}
