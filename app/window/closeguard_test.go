package window

import (
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
)

// askingScreen is a screen with work not kept: it lets the window close only when asked again
// on the very next close request, as a question that times out does when the requests come
// slowly (the simulator's 4 s, the editor's armed question).
type askingScreen struct {
	calls    *int // close requests so far, shared by the screens
	lastAsk  int  // the request this screen last said no to
	answered int
}

func (s *askingScreen) MayClose() bool {
	s.answered++
	if s.lastAsk != 0 && s.lastAsk == *s.calls-1 {
		return true
	}
	s.lastAsk = *s.calls
	return false
}
func (s *askingScreen) Update() error              { return nil }
func (s *askingScreen) Draw(*ebiten.Image)         {}
func (s *askingScreen) Layout(w, h int) (int, int) { return w, h }

// TestCloseWithTwoScreensAsking: with work not kept on two screens whose questions time out
// between close requests, the window closes on the third request: the screen that agreed is
// not asked again, where before the two took turns asking for ever.
func TestCloseWithTwoScreensAsking(t *testing.T) {
	calls := 0
	a, b := &askingScreen{calls: &calls}, &askingScreen{calls: &calls}
	g := &game{sim: &simScreen{}, screens: []Screen{a, b}}
	for calls = 1; calls <= 3; calls++ {
		if g.mayClose() {
			break
		}
	}
	if calls != 3 {
		t.Fatalf("the window closed on request %d, want 3", calls)
	}
	if a.answered != 2 || b.answered != 2 {
		t.Errorf("asked %d and %d times, want 2 each", a.answered, b.answered)
	}
}
