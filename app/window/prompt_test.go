package window

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"simgui/app/window/lineedit"
)

// A path chosen in the native dialog is submitted at once: it is the user's answer, and no
// second Enter is asked for (the dialog asked before a save overwrites a file). A typed path
// still waits for Enter.
func TestPromptSubmitsTheDialogsChoice(t *testing.T) {
	existing := filepath.Join(t.TempDir(), "old.yaml")
	if err := os.WriteFile(existing, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		req  FileRequest
	}{{"open", FileRequest{}}, {"save over a file", FileRequest{Save: true}}} {
		var got string
		p := newPrompt(tc.name, tc.req, "typed.yaml", func(path string) { got = path })
		var none lineedit.Input
		if !p.update(none, nil) || got != "" {
			t.Fatalf("%s: a typed path was submitted without Enter (%q)", tc.name, got)
		}
		var answer func(string)
		p.openDialog(func(_ FileRequest, done func(string)) { answer = done })
		if !p.waiting || !p.update(none, nil) {
			t.Fatalf("%s: the prompt did not wait for the dialog", tc.name)
		}
		answer(existing)
		if open := p.update(none, nil); open || got != existing {
			t.Errorf("%s: after the dialog chose %s the prompt is open %v, submitted %q, note %q", tc.name, existing, open, got, p.note)
		}
	}
}

// Spaces around a typed path (one pasted with a space after it) are dropped: an open looked
// for "mine.yaml " and said it was not found, and a save wrote a file whose name ended in a
// space.
func TestPromptTrimsSpacesAroundThePath(t *testing.T) {
	dir := t.TempDir()
	want := filepath.Join(dir, "new.yaml")
	for _, req := range []FileRequest{{}, {Save: true}} {
		var got string
		p := newPrompt("trim", req, "", func(path string) { got = path })
		typed := lineedit.Input{Runes: []rune("  " + want + "  "), Keys: []lineedit.Press{{Key: ebiten.KeyEnter}}}
		if open := p.update(typed, nil); open || got != want {
			t.Errorf("save %v: typed %q and Enter: open %v, submitted %q, note %q; want %q", req.Save, "  "+want+"  ", open, got, p.note, want)
		}
	}
}
