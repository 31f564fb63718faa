//go:build !headless

package worldbench

import (
	"math"
	"testing"
)

// The C peer steps the scene the bare cp/v2 case steps: after the same 400 steps of 100
// robots, the mean speed agrees within 2% and the contacts (body-arbiter links) within 5%.
// They agree to the digit here (the port is the C library's algorithm, operation for
// operation); the margin is for floating-point contraction differing between the compilers,
// which a jam would amplify.
func TestChipmunkPeerStepsTheSameScene(t *testing.T) {
	ps, err := newPeerScene(100)
	if err != nil {
		t.Fatal(err) // build/setup.sh installs libchipmunk-dev and a C compiler
	}
	defer ps.free()
	ps.step(400)
	cSpeed, cLinks := ps.stats()
	bs := newBareScene(100)
	for range 400 {
		bs.step()
	}
	goSpeed, goLinks := bs.stats()
	t.Logf("mean speed C %.4f, Go %.4f m/s; arbiter links C %d, Go %d", cSpeed, goSpeed, cLinks, goLinks)
	if goSpeed <= 0 || math.Abs(cSpeed-goSpeed) > 0.02*goSpeed {
		t.Fatalf("mean speed C %.4f m/s, Go %.4f m/s: not the same scene", cSpeed, goSpeed)
	}
	if goLinks == 0 || math.Abs(float64(cLinks-goLinks)) > 0.05*float64(goLinks) {
		t.Fatalf("arbiter links C %d, Go %d: not the same scene", cLinks, goLinks)
	}
}
