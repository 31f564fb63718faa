//go:build headless

package worldbench

import "simgui/app/bench"

// benchChipmunkC is skipped in the headless build: it is a static binary, and the C peer is
// loaded through the dynamic loader, which a static binary has not got.
func benchChipmunkC(b bench.B, _ int) {
	b.Skip("the Chipmunk C peer needs the dynamic loader; the headless build is static (run simgui bench from the window build)")
}
