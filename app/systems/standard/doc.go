// Package standard links simgui's built-in systems into a binary: import it for its side
// effect, and every built-in registers itself with app/systems.
//
//	import _ "simgui/app/systems/standard"
package standard
