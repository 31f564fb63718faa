package window

import (
	"errors"
	"fmt"

	"github.com/sqweek/dialog"
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
		path, err := nativeDialog(req)
		g.deliver(func() {
			g.dialogBusy = false
			if err != nil && !errors.Is(err, dialog.ErrCancelled) {
				g.Status(err.Error() + "; type the path instead")
			}
			done(path)
		})
	}()
}

// nativeDialog shows the GTK file chooser. sqweek/dialog panics when GTK could not start (no
// display for it); that is turned into an error.
func nativeDialog(req FileRequest) (path string, err error) {
	defer func() {
		if r := recover(); r != nil {
			path, err = "", fmt.Errorf("the native file dialog is unavailable (%v)", r)
		}
	}()
	b := dialog.File().Title(req.Title)
	if len(req.Extensions) > 0 {
		b = b.Filter(req.Filter, req.Extensions...)
	}
	if req.StartDir != "" {
		b = b.SetStartDir(req.StartDir)
	}
	if req.Save {
		return b.Save()
	}
	return b.Load()
}
