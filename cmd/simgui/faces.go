package main

// The process's headless faces, registered with app by their packages; the window registers
// itself where the window is built in.
import (
	_ "simgui/app/api"
	_ "simgui/app/bridge"
	_ "simgui/app/control"
	_ "simgui/app/fastpath"
	_ "simgui/app/record"
)
