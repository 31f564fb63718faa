// Package standard links simgui's built-in sensor kinds into a binary: import it for its side
// effect, and every built-in kind registers itself with app/sensors.
//
//	import _ "simgui/app/sensors/standard"
package standard
