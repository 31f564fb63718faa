package window

import (
	"image"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
)

// status shows msg in the status line for a few seconds, longer for a long one.
func (s *simScreen) status(msg string) {
	// The same message again (a second failed open of the same file) leaves it as the
	// reader has it, open or not.
	s.statusOpen = s.statusOpen && msg == s.statusMsg
	s.statusMsg, s.statusAt = msg, time.Now()
	s.g.log.Info("window: " + msg)
}

// statusLine is the status message while it is fresh, or while it is held open, or while the
// pointer rests on it (a reader has it under the mouse).
func (s *simScreen) statusLine() string {
	if s.statusMsg == "" {
		return ""
	}
	if !s.statusOpen && time.Since(s.statusAt) > statusLife(s.statusMsg) {
		if !image.Pt(ebiten.CursorPosition()).In(s.statusBox) {
			return ""
		}
		s.statusAt = time.Now().Add(-statusLife(s.statusMsg) + time.Second) // a second after it leaves
	}
	return s.statusMsg
}

// statusLife is how long a status message stays: 6 s, and a quarter second more for each
// word past the twelfth (a long error is read, not glanced at), 30 s at most.
func statusLife(msg string) time.Duration {
	life := 6*time.Second + time.Duration(max(0, len(strings.Fields(msg))-12))*time.Second/4
	return min(life, 30*time.Second)
}

// closeStatus takes the status line off the screen.
func (s *simScreen) closeStatus() {
	s.statusMsg, s.statusOpen, s.statusBox = "", false, image.Rectangle{}
}

// statusClick handles a left click at (x, y): on the status line, a message too long for
// its box opens whole, an open or short one closes. It reports whether the click was its.
func (s *simScreen) statusClick(x, y int) bool {
	if s.statusLine() == "" || !image.Pt(x, y).In(s.statusBox) {
		return false
	}
	if !s.statusOpen && s.statusCut() {
		s.statusOpen = true
		return true
	}
	s.closeStatus()
	return true
}

// statusCut reports whether the status message is longer than its closed box shows.
func (s *simScreen) statusCut() bool {
	return len(wrapLines(s.statusMsg, s.statusWidth(), statusAllLines)) > statusLines
}

// statusWidth is the width of the status line's text.
func (s *simScreen) statusWidth() float32 { return float32(s.w - 32) }

// The status line's box shows statusLines lines (the last says when there is more); open, it
// shows what fits between the HUD and the toolbar, statusAllLines at most.
const (
	statusLines    = 6
	statusAllLines = 200
)

// statusText is the status line's lines as Draw shows them, bottom the y it stands on, "" for
// no status line.
func (s *simScreen) statusText(msg string, bottom int) []string {
	if !s.statusOpen {
		lines := wrapLines(msg, s.statusWidth(), statusLines)
		if s.statusCut() {
			lines = append(lines, "(click for the whole message)")
		}
		return lines
	}
	room := max(2, (bottom-s.hudBottom()-14)/lineHeight-1)
	lines := wrapLines(msg, s.statusWidth(), min(room, statusAllLines))
	return append(lines, "(click or Esc closes)")
}

// statusShownAs says what the status line shows now: its message, open or not. The state
// file gives the status line's box only when Draw drew it for this (it is written after
// Update, before the next Draw: a test read the box of the message before with the new one
// and clicked beside it).
func (s *simScreen) statusShownAs() string {
	if s.statusOpen {
		return "open " + s.statusMsg
	}
	return s.statusMsg
}
