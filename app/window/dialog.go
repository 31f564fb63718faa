package window

import (
	"errors"

	"simgui/app/window/desktop"
)

// Files implements Host: the native dialog runs on a goroutine of its own (it blocks until
// answered) and its answer is applied on the game goroutine. One dialog at a time; while one
// is open, done("") is called at once.
func (g *game) Files(req FileRequest, done func(path string)) {
	if g.dialogBusy {
		g.Status("a file dialog is already open; type the path instead")
		done("")
		return
	}
	g.dialogBusy = true
	go func() {
		path, err := desktop.ShowDialog(req)
		g.deliver(func() {
			g.dialogBusy = false
			if err != nil && !errors.Is(err, desktop.ErrCancelled) {
				g.Status(err.Error() + "; type the path instead")
			}
			done(path)
		})
	}()
}
