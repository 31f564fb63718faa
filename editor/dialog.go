package editor

import (
	"fmt"

	"github.com/sqweek/dialog"
)

// errCancelled is what nativeDialog returns when the person cancels.
var errCancelled = dialog.ErrCancelled

// nativeDialog shows the GTK file chooser and blocks until it is answered: call it on a
// goroutine of its own, never from Update. sqweek/dialog panics when GTK cannot start; that
// becomes an error.
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
