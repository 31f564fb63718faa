// Package clipboard is the system clipboard of the window's and the editor's text fields
// (golang.design/x/clipboard), started on first use. Where it cannot start (no X server, no
// libX11) copying does nothing and pasting gives nothing; the fields work on without it.
package clipboard

import (
	"log/slog"
	"sync"

	"golang.design/x/clipboard"
)

var (
	startOnce sync.Once
	started   bool
)

// start starts the clipboard once and reports whether it runs.
func start() bool {
	startOnce.Do(func() {
		if err := clipboard.Init(); err != nil {
			slog.Warn("no clipboard: text fields cannot copy or paste", "err", err)
			return
		}
		started = true
	})
	return started
}

// System is the system clipboard, as lineedit.Clipboard.
type System struct{}

// ReadText returns the clipboard's text, "" when it holds none.
func (System) ReadText() string {
	if !start() {
		return ""
	}
	return string(clipboard.Read(clipboard.FmtText))
}

// WriteText puts s on the clipboard.
func (System) WriteText(s string) {
	if start() {
		clipboard.Write(clipboard.FmtText, []byte(s))
	}
}
