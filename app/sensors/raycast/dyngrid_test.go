package raycast

import (
	"math"
	"math/rand/v2"
	"testing"
)

// With many moving shapes the caster looks only at nearby ones; it must find exactly what a
// test of every shape finds.
func TestDynamicGridFindsWhatBruteForceFinds(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var shapes []Shape
	for i := 0; i < 800; i++ {
		s := Shape{Kind: Box, X: rng.Float64()*30 - 15, Y: rng.Float64()*30 - 15, Yaw: rng.Float64() * 6,
			HalfL: 0.05 + rng.Float64()*0.3, HalfW: 0.05 + rng.Float64()*0.2, ZMin: 0, ZMax: 0.3, ID: uint32(i + 1)}
		if i%5 == 0 {
			s.Kind, s.Radius = Circle, 0.1+rng.Float64()*0.3
		}
		shapes = append(shapes, s)
	}
	c := NewCaster(nil)
	c.SetDynamic(shapes)
	if c.grid.nx == 0 {
		t.Fatal("no grid built for 800 shapes")
	}
	for k := 0; k < 3000; k++ {
		x, y := rng.Float64()*34-17, rng.Float64()*34-17
		angle, maxDist := rng.Float64()*2*math.Pi, 0.2+rng.Float64()*6
		ignore := uint32(rng.IntN(800))
		got := c.Cast(x, y, 0.1, angle, maxDist, ignore)
		dy, dx := math.Sincos(angle)
		want := math.Inf(1)
		for i := range c.dyn {
			if p := &c.dyn[i]; p.id != ignore {
				if d := p.hit(x, y, dx, dy); d < want {
					want = d
				}
			}
		}
		if want > maxDist {
			want = math.Inf(1)
		}
		if got != want {
			t.Fatalf("ray %d from (%.2f, %.2f) at %.3f rad within %.2f m: grid %v, every shape %v", k, x, y, angle, maxDist, got, want)
		}
	}
	// Fans, narrow (a sonar's cone) to wide, any way round, swept with the grid's help.
	for k := 0; k < 600; k++ {
		x, y := rng.Float64()*34-17, rng.Float64()*34-17
		n := 1 + rng.IntN(40)
		span := []float64{0.3, 2, 4, 2 * math.Pi}[k%4] * (rng.Float64() - 0.5) * 2
		step := 0.0
		if n > 1 {
			step = span / float64(n-1)
		}
		fan := NewFan(rng.Float64()*2*math.Pi, step, n)
		yaw, maxDist := rng.Float64()*6, 0.2+rng.Float64()*6
		ignore := uint32(rng.IntN(800))
		out := make([]float64, n)
		c.ScanFan(x, y, 0.1, yaw, fan, maxDist, ignore, out)
		for i, got := range out {
			dy, dx := math.Sincos(yaw + fan.Min + float64(i)*fan.Step)
			want := math.Inf(1)
			for j := range c.dyn {
				if p := &c.dyn[j]; p.id != ignore {
					want = min(want, p.hit(x, y, dx, dy))
				}
			}
			if want > maxDist {
				want = math.Inf(1)
			}
			if got != want && math.Abs(got-want) > 1e-9 {
				t.Fatalf("fan %d of %d rays spanning %.3f rad, ray %d within %.2f m: scan %v, every shape %v", k, n, span, i, maxDist, got, want)
			}
		}
	}
}
