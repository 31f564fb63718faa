package main

import "io"

// errWriter keeps the first error of the writes through it, so that text printed a line at a
// time with fmt.Fprintf is checked once at the end: `simgui run ... > summary.txt` on a full
// disk exited 0 with nothing written, as did version and plugin list.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}
