// Package desktop is the plumbing the window (app/window) and the plugin editor (editor)
// share: the native file dialog (GTK 3, loaded on first use) and the state file GUI tests
// read.
package desktop

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"simgui/plugins/archive"

	"github.com/hajimehoshi/ebiten/v2"
)

// StateFile writes a GUI's state as JSON to a file at most once per interval, on a goroutine
// of its own, the newest state winning; each write replaces the file atomically, so a test
// reading it never sees half of one.
type StateFile[T any] struct {
	path  string
	every time.Duration
	ch    chan T
	done  chan struct{}
	last  time.Time
}

// NewStateFile starts a writer to path.
func NewStateFile[T any](path string, every time.Duration) *StateFile[T] {
	w := &StateFile[T]{path: path, every: every, ch: make(chan T, 1), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		for s := range w.ch {
			err := archive.WriteAtomic(w.path, 0o644, func(out io.Writer) error {
				return json.NewEncoder(out).Encode(s)
			})
			if err != nil {
				fmt.Fprintln(os.Stderr, "state file:", err)
			}
		}
	}()
	return w
}

// Due reports whether the interval has passed since the last Put; call it before building a
// state so frames in between cost nothing.
func (w *StateFile[T]) Due(now time.Time) bool { return now.Sub(w.last) >= w.every }

// Put queues s, replacing a state not yet written.
func (w *StateFile[T]) Put(s T) {
	w.last = time.Now()
	select {
	case <-w.ch:
	default:
	}
	w.ch <- s
}

// Close writes the last state given and stops.
func (w *StateFile[T]) Close() {
	close(w.ch)
	<-w.done
}

// WindowSize is a window's first size: w×h, made smaller to fit the monitor with room for
// its title bar and the desktop's panels, but never below minW×minH. A 1280×800 window on a
// 1366×768 laptop had its toolbar below the screen's edge.
func WindowSize(w, h, minW, minH int) (int, int) {
	if m := ebiten.Monitor(); m != nil {
		mw, mh := m.Size()
		return fitWindow(w, h, minW, minH, mw, mh)
	}
	return w, h
}

// fitWindow is WindowSize on a monitor of mw×mh (0 when unknown).
func fitWindow(w, h, minW, minH, mw, mh int) (int, int) {
	const marginW, marginH = 40, 100
	if mw > 0 {
		w = max(minW, min(w, mw-marginW))
	}
	if mh > 0 {
		h = max(minH, min(h, mh-marginH))
	}
	return w, h
}
