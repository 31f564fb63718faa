package window

import (
	"math"
	"testing"
)

// A large floor (the city at 5 intersections a side and 30 m cells: 330 m, 1 m repeats) seen
// close up is drawn as the repeats in view, which cover the view exactly and sample the
// texture where the whole floor's repeats would.
func TestFloorRepeatsOnlyInView(t *testing.T) {
	floor := [4]float64{-165, -165, 165, 165}
	v := view{CX: 0.3, CY: -120.2, Scale: 40, W: 1920, H: 1080}
	vis := v.visible()
	n, area := 0, 0.0
	floorRepeats(floor, vis, 1, func(q repeatQuad) {
		n++
		area += (q.x1 - q.x0) * (q.y1 - q.y0)
		// u, w are the quad's corners inside its repeat, anchored at the world origin.
		for _, c := range [][2]float64{{q.x0, q.u0}, {q.x1, q.u1}, {q.y0, q.w0}, {q.y1, q.w1}} {
			want := c[0] - math.Floor(c[0])
			if c[1] != 0 && c[1] != 1 && math.Abs(c[1]-want) > 1e-9 || c[1] < 0 || c[1] > 1 {
				t.Fatalf("quad %+v: coordinate %g sampled at %g, want %g", q, c[0], c[1], want)
			}
		}
	})
	if want := 49 * 28; n > want {
		t.Errorf("%d quads for a 48 m × 27 m view of 1 m repeats, want at most %d", n, want)
	}
	if want := (vis[2] - vis[0]) * (vis[3] - vis[1]); math.Abs(area-want) > 1e-6 {
		t.Errorf("the quads cover %g m², the view %g m²", area, want)
	}

	// A view past the floor's edge draws only the floor; one off it draws nothing.
	n = 0
	floorRepeats(floor, [4]float64{160, 160, 200, 200}, 1, func(repeatQuad) { n++ })
	if n != 25 {
		t.Errorf("%d quads where 5 × 5 m of floor is in view, want 25", n)
	}
	n = 0
	floorRepeats(floor, [4]float64{170, 170, 200, 200}, 1, func(repeatQuad) { n++ })
	if n != 0 {
		t.Errorf("%d quads for a view off the floor, want 0", n)
	}
}
