package xtest

/*
#cgo pkg-config: x11
#include <stdlib.h>
#include <X11/Xlib.h>

// ask_close sends win the WM_DELETE_WINDOW message a window manager sends when the user
// clicks the close button; 0 when sent, -1 when there is no display.
static int ask_close(unsigned long win) {
	Display *d = XOpenDisplay(NULL);
	if (d == NULL) {
		return -1;
	}
	XEvent e = {0};
	e.xclient.type = ClientMessage;
	e.xclient.window = (Window)win;
	e.xclient.message_type = XInternAtom(d, "WM_PROTOCOLS", False);
	e.xclient.format = 32;
	e.xclient.data.l[0] = XInternAtom(d, "WM_DELETE_WINDOW", False);
	e.xclient.data.l[1] = CurrentTime;
	XSendEvent(d, (Window)win, False, NoEventMask, &e);
	XCloseDisplay(d);
	return 0;
}
*/
import "C"

import (
	"strconv"
	"time"
)

// AskClose asks the window win (an X window id, as xdotool prints it) to close, as a window
// manager's close button does; Xvfb has no window manager to do it.
func AskClose(t TB, win string) {
	t.Helper()
	id, err := strconv.ParseUint(win, 0, 64)
	if err != nil {
		t.Fatalf("window id %q: %v", win, err)
	}
	r := C.ask_close(C.ulong(id))
	for try := 1; r < 0 && try < connectTries; try++ {
		time.Sleep(time.Duration(try) * 20 * time.Millisecond)
		r = C.ask_close(C.ulong(id))
	}
	if r < 0 {
		t.Fatal("no X display to ask the window to close on")
	}
}
