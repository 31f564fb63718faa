package xtest

/*
#cgo pkg-config: x11
#include <X11/Xlib.h>

// set_autorepeat turns the X server's key repeat on or off and returns whether it was on,
// or -1 when there is no display.
static int set_autorepeat(int on) {
	Display *d = XOpenDisplay(NULL);
	if (d == NULL) {
		return -1;
	}
	XKeyboardState st;
	XGetKeyboardControl(d, &st);
	if (on) {
		XAutoRepeatOn(d);
	} else {
		XAutoRepeatOff(d);
	}
	XCloseDisplay(d);
	return st.global_auto_repeat == AutoRepeatModeOn;
}
*/
import "C"

import "time"

// setAutorepeat is set_autorepeat, tried again while the X server refuses the connection
// (see refused).
func setAutorepeat(on C.int) C.int {
	was := C.set_autorepeat(on)
	for try := 1; was < 0 && try < connectTries; try++ {
		time.Sleep(time.Duration(try) * 20 * time.Millisecond)
		was = C.set_autorepeat(on)
	}
	return was
}

// NoKeyRepeat turns the X server's key repeat off until the test ends. The keys a test types
// are its own: a test process starved between a key's press and its release (a loaded
// machine) would otherwise make the server repeat the key, and the program would rightly type
// it again.
func NoKeyRepeat(t TB) {
	t.Helper()
	was := setAutorepeat(0)
	if was < 0 {
		t.Fatal("no X display to turn key repeat off on")
	}
	t.Cleanup(func() { setAutorepeat(was) })
}
