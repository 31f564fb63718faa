package lineedit

import (
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
)

func keys(ks ...ebiten.Key) []Press {
	var out []Press
	for _, k := range ks {
		out = append(out, Press{Key: k})
	}
	return out
}

func ctrl(k ebiten.Key) Press { return Press{Key: k, Ctrl: true} }

func TestLineEditing(t *testing.T) {
	var l Line
	l.SetText("vehicle.acme")
	steps := []struct {
		in       Input
		want     string
		caret    int
		wantAct  Action
		selected [2]int
	}{
		{Input{Runes: []rune(".rover")}, "vehicle.acme.rover", 18, None, [2]int{18, 18}},
		{Input{Keys: keys(ebiten.KeyBackspace, ebiten.KeyArrowLeft, ebiten.KeyArrowLeft)}, "vehicle.acme.rove", 15, None, [2]int{15, 15}},
		{Input{Keys: keys(ebiten.KeyDelete), Runes: []rune("V")}, "vehicle.acme.roVe", 16, None, [2]int{16, 16}},
		{Input{Keys: []Press{ctrl(ebiten.KeyK)}}, "vehicle.acme.roV", 16, None, [2]int{16, 16}},
		{Input{Keys: []Press{ctrl(ebiten.KeyW)}}, "vehicle.acme.", 13, None, [2]int{13, 13}},
		{Input{Keys: []Press{{Key: ebiten.KeyHome, Shift: true}}}, "vehicle.acme.", 0, None, [2]int{0, 13}},
		{Input{Runes: []rune("x")}, "x", 1, None, [2]int{1, 1}},
		{Input{Keys: []Press{ctrl(ebiten.KeyA)}, Runes: []rune("#3366cc")}, "#3366cc", 7, None, [2]int{7, 7}},
		{Input{Keys: []Press{ctrl(ebiten.KeyU)}}, "", 0, None, [2]int{0, 0}},
		{Input{Runes: []rune("90"), Keys: keys(ebiten.KeyEnter)}, "90", 2, Submit, [2]int{2, 2}},
		{Input{Runes: []rune("zz"), Keys: keys(ebiten.KeyEscape)}, "90", 2, Cancel, [2]int{2, 2}},
		{Input{Keys: []Press{{Key: ebiten.KeyTab, Shift: true}}}, "90", 2, Prev, [2]int{2, 2}},
		{Input{Runes: []rune{'\x7f', 'é'}}, "90é", 3, None, [2]int{3, 3}},
	}
	for i, s := range steps {
		_, act := l.Apply(s.in)
		from, to := l.Selection()
		if l.Text() != s.want || l.Caret() != s.caret || act != s.wantAct || [2]int{from, to} != s.selected {
			t.Fatalf("step %d: %q caret %d selection %d..%d action %v; want %q caret %d selection %v action %v",
				i, l.Text(), l.Caret(), from, to, act, s.want, s.caret, s.selected, s.wantAct)
		}
	}
}

// memClip is a clipboard in memory: what a Line does with the system's is a GUI test's.
type memClip struct{ text string }

func (c *memClip) ReadText() string   { return c.text }
func (c *memClip) WriteText(s string) { c.text = s }

// TestClipboard: Ctrl+C copies the selection, Ctrl+X cuts it, Ctrl+V pastes at the caret over
// the selection, with line breaks and tabs as spaces, unprintable characters left out and at
// most MaxPaste characters; without a selection Ctrl+C and Ctrl+X leave the clipboard as it is.
func TestClipboard(t *testing.T) {
	clip := &memClip{text: "unchanged"}
	l := Line{Clip: clip}
	l.SetText("/home/me/tiles.png")
	l.Apply(Input{Keys: []Press{ctrl(ebiten.KeyC)}})
	if clip.text != "unchanged" {
		t.Errorf("Ctrl+C with nothing selected put %q on the clipboard", clip.text)
	}
	l.Apply(Input{Keys: []Press{{Key: ebiten.KeyHome}, {Key: ebiten.KeyArrowRight, Shift: true}, {Key: ebiten.KeyArrowRight, Shift: true},
		{Key: ebiten.KeyArrowRight, Shift: true}, {Key: ebiten.KeyArrowRight, Shift: true}, {Key: ebiten.KeyArrowRight, Shift: true}, ctrl(ebiten.KeyX)}})
	if clip.text != "/home" || l.Text() != "/me/tiles.png" || l.Caret() != 0 {
		t.Errorf("Ctrl+X: clipboard %q, text %q, caret %d", clip.text, l.Text(), l.Caret())
	}
	l.Apply(Input{Keys: []Press{ctrl(ebiten.KeyE), ctrl(ebiten.KeyV)}})
	if l.Text() != "/me/tiles.png/home" {
		t.Errorf("Ctrl+V at the end: %q", l.Text())
	}
	clip.text = "/tmp/a\tb\nc\x00d\r\n"
	l.Apply(Input{Keys: []Press{ctrl(ebiten.KeyA), ctrl(ebiten.KeyV)}})
	if l.Text() != "/tmp/a b cd" || l.Caret() != 11 {
		t.Errorf("Ctrl+V over the selection: %q, caret %d", l.Text(), l.Caret())
	}
	l.Apply(Input{Keys: []Press{ctrl(ebiten.KeyA), ctrl(ebiten.KeyC)}})
	if clip.text != "/tmp/a b cd" {
		t.Errorf("Ctrl+A, Ctrl+C copied %q", clip.text)
	}
	long := make([]rune, 3*MaxPaste)
	for i := range long {
		long[i] = 'a'
	}
	clip.text = string(long)
	l.SetText("")
	l.Apply(Input{Keys: []Press{ctrl(ebiten.KeyV)}})
	if l.Len() != MaxPaste {
		t.Errorf("a paste of %d characters inserted %d", len(long), l.Len())
	}
	// Without a clipboard the keys do nothing.
	var bare Line
	bare.SetText("x")
	if changed, _ := bare.Apply(Input{Keys: []Press{ctrl(ebiten.KeyA), ctrl(ebiten.KeyX), ctrl(ebiten.KeyV)}}); changed {
		t.Errorf("without a clipboard Ctrl+X, Ctrl+V changed the text to %q", bare.Text())
	}
}
