package render

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"simgui/plugins"
	"simgui/plugins/trackgen"
)

// TestFloorLightBlocksMatchTexels bakes the corridor's floor light under suns from every side
// and height: each texel's sun share must be what the shadow map gives that texel on its own,
// whether its block was settled by the map's tiles or looked up texel by texel.
func TestFloorLightBlocksMatchTexels(t *testing.T) {
	tr, err := plugins.Builtin().Track("track.cardboard_corridor.v1")
	if err != nil {
		t.Fatal(err)
	}
	l, err := trackgen.Build(tr, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	mixed := 0
	for _, sun := range [][2]float64{{0, 50}, {100, 20}, {200, 70}, {300, 8}} {
		env := realEnv(sun[0], sun[1])
		s := mustStatic(t, l, &env)
		r := &s.real
		fl, sm := r.floorLit, r.shadow
		if fl == nil || sm == nil {
			t.Fatal("no floor light or shadow map baked")
		}
		bias := slopeBias(r.sunUp, sm.texel)
		// The shadow-map point of texel (i, j), as the bake steps to it.
		o := sm.toTexels(mgl64.Vec3{fl.x0 + 0.5*fl.texel, fl.y0 + 0.5*fl.texel, 0})
		a := sm.toTexels(mgl64.Vec3{fl.x0 + 1.5*fl.texel, fl.y0 + 0.5*fl.texel, 0})
		b := sm.toTexels(mgl64.Vec3{fl.x0 + 0.5*fl.texel, fl.y0 + 1.5*fl.texel, 0})
		for j := range fl.h {
			for i := range fl.w {
				fi, fj := float64(i), float64(j)
				var q [3]float64
				for c := range 3 {
					q[c] = o[c] + fi*(a[c]-o[c]) + fj*(b[c]-o[c])
				}
				want := uint8(math.Round(sm.visibleAt(q, bias) * 15))
				if got := fl.idx[j*fl.w+i] & 15; got != want {
					t.Fatalf("sun %v, texel (%d, %d): sun share %d/15, want %d/15", sun, i, j, got, want)
				}
				if want != 0 && want != 15 {
					mixed++
				}
			}
		}
	}
	if mixed == 0 {
		t.Fatal("no texel on a shadow's edge: the test checks nothing the tiles decide")
	}
}

// TestChamferMatchesItsDefinition holds chamfer to the two-pass 1, √2 transform written out
// with every neighbour looked up through bounds checks, on random sources, odd sizes and
// reaches from a texel to beyond the map: the same distance wherever it is below the reach,
// and the reach or more elsewhere.
func TestChamferMatchesItsDefinition(t *testing.T) {
	ref := func(d []float32, w, h int) {
		const a, b = 1, math.Sqrt2
		at := func(x, y int) float32 {
			if x < 0 || y < 0 || x >= w || y >= h {
				return inf32
			}
			return d[y*w+x]
		}
		for y := range h {
			for x := range w {
				d[y*w+x] = min(d[y*w+x], at(x-1, y)+a, at(x, y-1)+a, at(x-1, y-1)+b, at(x+1, y-1)+b)
			}
		}
		for y := h - 1; y >= 0; y-- {
			for x := w - 1; x >= 0; x-- {
				d[y*w+x] = min(d[y*w+x], at(x+1, y)+a, at(x, y+1)+a, at(x+1, y+1)+b, at(x-1, y+1)+b)
			}
		}
	}
	seed := uint64(1)
	skipped := 0
	for _, c := range []struct {
		w, h, sparse int
		reach        float32
	}{
		{1, 1, 17, inf32}, {1, 7, 17, inf32}, {7, 1, 17, inf32}, {13, 9, 17, inf32}, {64, 40, 17, inf32},
		{64, 40, 17, 3}, {200, 150, 4000, 12.5}, {200, 150, 4000, 40}, {333, 97, 9000, 31.75}, {97, 333, 9000, 1},
	} {
		w, h := c.w, c.h
		got, want := make([]float32, w*h), make([]float32, w*h)
		for i := range got {
			seed, _ = splitmixStep(seed)
			got[i] = inf32
			if seed%uint64(c.sparse) == 0 {
				got[i] = 0
			}
			want[i] = got[i]
		}
		chamfer(got, w, h, c.reach)
		ref(want, w, h)
		for i := range got {
			if want[i] < c.reach && got[i] != want[i] || want[i] >= c.reach && got[i] < c.reach {
				t.Fatalf("%dx%d reach %g, texel %d: %g, want %g", w, h, c.reach, i, got[i], want[i])
			}
			if got[i] == inf32 && want[i] != inf32 {
				skipped++
			}
		}
	}
	if skipped == 0 {
		t.Fatal("no texel was left out: the test checks nothing of the blocks chamfer skips")
	}
}

// TestBoxShare3MatchesItsDefinition holds the sun-visibility grid's separable box filter to
// the share of lit texels among each texel's 3 × 3 neighbours written out, in 32nds rounded,
// on random grids of odd sizes.
func TestBoxShare3MatchesItsDefinition(t *testing.T) {
	seed := uint64(5)
	for _, size := range [][2]int{{1, 1}, {1, 6}, {6, 1}, {2, 2}, {17, 9}, {64, 33}} {
		w, h := size[0], size[1]
		lit := make([]uint8, w*h)
		for i := range lit {
			seed, _ = splitmixStep(seed)
			lit[i] = uint8(seed >> 63)
		}
		got := make([]uint8, w*h)
		boxShare3(got, lit, w, h)
		for j := range h {
			for i := range w {
				n, sum := 0, 0
				for y := max(0, j-1); y <= min(h-1, j+1); y++ {
					for x := max(0, i-1); x <= min(w-1, i+1); x++ {
						n++
						sum += int(lit[y*w+x])
					}
				}
				if want := uint8((32*sum + n/2) / n); got[j*w+i] != want {
					t.Fatalf("%dx%d, texel (%d, %d): %d, want %d", w, h, i, j, got[j*w+i], want)
				}
			}
		}
	}
}
