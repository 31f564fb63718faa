package render

import (
	"math"
	"math/rand/v2"
	"testing"

	"simgui/plugins"
)

// The realistic pipeline's shortcuts each stand for a longer computation; these tests hold
// each to the long way.

func TestConvexHull(t *testing.T) {
	// A square's corners, points on its edges and inside, and a repeat: the hull is the four
	// corners, counter-clockwise.
	pts := [][2]float64{{0.5, 0.5}, {1, 0}, {0, 0}, {1, 1}, {0.5, 0}, {0, 1}, {1, 0.3}, {0.2, 0.7}, {0, 0}}
	h := convexHull(pts, nil)
	if len(h) != 4 {
		t.Fatalf("hull %v: want the 4 corners", h)
	}
	area := 0.0
	for i, p := range h {
		q := h[(i+1)%len(h)]
		area += p[0]*q[1] - q[0]*p[1]
	}
	if area != 2 {
		t.Fatalf("hull %v has twice its area %g: want 2 (counter-clockwise, the unit square)", h, area)
	}
	// Random clouds: every point is inside or on the hull, and the hull turns left throughout.
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		n := 3 + rng.IntN(40)
		pts := make([][2]float64, n)
		for i := range pts {
			pts[i] = [2]float64{math.Round(rng.Float64()*20) / 4, math.Round(rng.Float64()*20) / 4}
		}
		h := convexHull(append([][2]float64(nil), pts...), nil)
		for i := range h {
			a, b, c := h[i], h[(i+1)%len(h)], h[(i+2)%len(h)]
			if len(h) >= 3 && cross2(a, b, c) <= 0 {
				t.Fatalf("hull %v of %v turns right or straight at %v", h, pts, b)
			}
		}
		for _, p := range pts {
			for i := range h {
				if len(h) >= 3 && cross2(h[i], h[(i+1)%len(h)], p) < -1e-12 {
					t.Fatalf("point %v is outside the hull %v", p, h)
				}
			}
		}
	}
}

func TestWalkRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		x, dx, l := rng.Int64N(2001)-1000, rng.Int64N(201)-100, 1+rng.Int64N(1000)
		m := rng.IntN(40)
		lo, hi := walkRange(x, dx, l, m)
		for i := range m {
			in := x+int64(i)*dx >= 0 && x+int64(i)*dx < l
			if in != (i >= lo && i < hi) {
				t.Fatalf("walkRange(%d, %d, %d, %d) = [%d, %d): step %d is %v", x, dx, l, m, lo, hi, i, in)
			}
		}
	}
}

func TestFillSamples(t *testing.T) {
	for qa := range 24 {
		for qb := qa + 1; qb <= 24; qb++ {
			for j := range uint(shadeSub) {
				row := make([]uint16, 6)
				fillSamples(row, qa, qb, j*shadeSub)
				for q := range 24 {
					set := row[q/shadeSub]>>(j*shadeSub+uint(q%shadeSub))&1 == 1
					if set != (q >= qa && q < qb) {
						t.Fatalf("samples [%d, %d) of sub-row %d: sample %d set %v", qa, qb, j, q, set)
					}
				}
				for x, v := range row {
					if v&^(uint16(1<<shadeSub-1)<<(j*shadeSub)) != 0 {
						t.Fatalf("samples [%d, %d) of sub-row %d set bits of other sub-rows in pixel %d: %016b", qa, qb, j, x, v)
					}
				}
			}
		}
	}
}

// TestSparseFloorMatchesBilinear walks a magnified lit floor every way: sampling every 2nd, 4th
// or 8th pixel and interpolating between must give the full bilinear's value at the samples,
// stay within the range it takes over each step (no overshoot), and be within a linear unit
// or two of it on average, wherever a texel spans a step or more.
func TestSparseFloorMatchesBilinear(t *testing.T) {
	env := RealisticEnvironment()
	l := &plugins.Layout{Floor: plugins.Floor{Length: 2, Width: 2, Texture: "plywood"},
		Elements: []plugins.Element{{Kind: plugins.ElementBox, X: 0.3, Length: 0.2, Width: 0.2, Height: 0.3}}}
	s := mustStatic(t, l, &env)
	lf := s.real.litFloor
	if lf == nil {
		t.Fatal("no lit floor")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	k := int64(math.Round(65536 / lf.texel))
	sum, count := 0, 0
	for range 300 {
		step := []int{2, 4, 8}[rng.IntN(3)]
		// A walk of at most 1/step texel a pixel, in any direction, over the floor
		// around the box and its shadow.
		a := rng.Float64() * 2 * math.Pi
		px := lf.texel / float64(step) * (0.3 + 0.7*rng.Float64())
		x0, y0 := 1.3+rng.Float64()*0.4-0.2, 1+rng.Float64()*0.4-0.2
		ls := litSpan{lv: &lf.levels[0], X: int64(x0 * floorOne), Y: int64(y0 * floorOne),
			dX: int64(px * math.Cos(a) * floorOne), dY: int64(px * math.Sin(a) * floorOne), k: k, iz: 1}
		got, want := sparseAndFull(ls, step, 200)
		for i := range got {
			j := i &^ (step - 1)
			for c := range 3 {
				if i == j && lane(got[i], c) != lane(want[i], c) {
					t.Fatalf("step %d, sample %d, channel %d: %d, the bilinear blend %d", step, i, c, lane(got[i], c), lane(want[i], c))
				}
				lo, hi := lane(want[j], c), lane(want[j], c)
				for _, w := range want[j:min(len(want), j+step+1)] {
					lo, hi = min(lo, lane(w, c)), max(hi, lane(w, c))
				}
				if g := lane(got[i], c); g < lo-2 || g > hi+2 {
					t.Fatalf("step %d, pixel %d, channel %d: %d, outside %d..%d the bilinear blend takes over the step", step, i, c, g, lo, hi)
				}
				d := lane(got[i], c) - lane(want[i], c)
				sum += max(d, -d)
				count++
			}
		}
	}
	if mean := float64(sum) / float64(count); mean > 3 {
		t.Fatalf("the sparse floor is %.1f linear units off the full bilinear on average: want at most 3", mean)
	}
	t.Logf("%.2f linear units (of %d) off on average", float64(sum)/float64(count), linOne)
	// Along a ramp the blend is linear: so must the pixels between samples be.
	ramp := litLevel{w: 64, h: 2, sun: make([]uint64, 66*4)} // bordered: stride 66, 4 rows
	for j := range 2 {
		for i := range 64 {
			v := uint32(100 + 40*i)
			ramp.sun[(j+1)*66+i+1] = packLin(v, v/2, v/3)
		}
	}
	padBorder(ramp.sun, 64, 2)
	for _, step := range []int{2, 4, 8} {
		ls := litSpan{lv: &ramp, X: floorOne / 2, Y: floorOne / 2, dX: floorOne / int64(2*step), k: 65536, iz: 1}
		got, want := sparseAndFull(ls, step, 80)
		for i := range got {
			for c := range 3 {
				if d := lane(got[i], c) - lane(want[i], c); d < -1 || d > 1 {
					t.Fatalf("ramp, step %d, pixel %d, channel %d: %d, the bilinear blend %d", step, i, c, lane(got[i], c), lane(want[i], c))
				}
			}
		}
	}
}

// sparseAndFull draws n pixels of span ls both ways, with no shadow and nothing in front.
func sparseAndFull(ls litSpan, step, n int) (sparse, full []uint64) {
	zc, shade, tmp := make([]float32, n), make([]uint16, n), make([]uint64, n)
	sparse, full = make([]uint64, n), make([]uint64, n)
	all := ls
	all.bilinear(zc, full, shade)
	ls.bilinearSparse(zc, sparse, shade, step, tmp)
	return sparse, full
}

// lane is channel c of packed linear pixel p.
func lane(p uint64, c int) int { return int(p >> (c * laneShift) & laneMask) }

// TestReflectLUTsMatchTheLongWay lights every texel value under random lights, contact
// shadows and sun shares through the tables and the long way: within a linear unit or two.
func TestReflectLUTsMatchTheLongWay(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 400 {
		var amb, sun [3]int32
		for ch := range 3 {
			amb[ch] = rng.Int32N(2 * linOne)
			sun[ch] = rng.Int32N(12 * linOne)
		}
		la, ls := newReflectLUT(amb, ambLaneMax), newReflectLUT(sun, sunLaneMax)
		if la == nil || ls == nil {
			t.Fatalf("no table for ambient %v, sun %v, within the lanes' budget", amb, sun)
		}
		for range 50 {
			tx := RGB{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256))}
			ao, f := rng.Int32N(257), rng.Int32N(33)
			got := la.reflect(tx)*uint64(ao)>>8&ambLaneMask + ls.reflect(tx)*uint64(f)>>5&lanesLin
			want := packLight(reflected(srgbTable, tx, amb[0]*ao>>8+sun[0]*f>>5, amb[1]*ao>>8+sun[1]*f>>5, amb[2]*ao>>8+sun[2]*f>>5))
			for ch := range 3 {
				g, w := int(got>>(ch*laneShift)&laneMask), int(want>>(ch*laneShift)&laneMask)
				if d := g - w; d < -3 || d > 3 {
					t.Fatalf("texel %v, ambient %v × %d, sun %v × %d/32: channel %d %d through the tables, %d the long way", tx, amb, ao, sun, f, ch, g, w)
				}
			}
		}
	}
	if newReflectLUT([3]int32{3 * linOne, 0, 0}, ambLaneMax) != nil {
		t.Fatal("a table for an ambient light past its lane's budget")
	}
	// A Static's cache shares a light's table and stops making them at its bound.
	c := reflectLUTs{}
	if a, b := c.get([3]int32{1, 2, 3}, ambLaneMax), c.get([3]int32{1, 2, 3}, ambLaneMax); a == nil || a != b {
		t.Fatalf("tables of one light: %p, %p; want one, shared", a, b)
	}
	for i := range int32(maxReflectLUTs) {
		c.get([3]int32{i, 7, 7}, ambLaneMax)
	}
	if len(c) != maxReflectLUTs || c.get([3]int32{5, 5, 5}, ambLaneMax) != nil {
		t.Fatalf("%d tables kept, a new light's table past the bound: want %d and none", len(c), maxReflectLUTs)
	}
}

// TestLensPipelineMatchesBands draws a distorted frame by one goroutine, which develops output
// rows as soon as the drawing has their taps, and by four, which develop after the drawing:
// the same bytes and depths.
func TestLensPipelineMatchesBands(t *testing.T) {
	sc, s := realBenchScene(t)
	for _, model := range []Lens{
		{Model: PlumbBob, K1: -0.12, K2: 0.02, P1: 0.001, P2: -0.0008},
		{Model: Equidistant, K1: 0.05},
	} {
		cam := benchCamera(200, 150)
		cam.Lens = model
		cam.Film = &Film{Exposure: 1.1, Vignette: 0.3, ReadNoise: 1, ShotNoise: 2}
		cam.Seed = 3
		a := render(t, cam, s, sc.dyn, Options{Workers: 1})
		b := render(t, cam, s, sc.dyn, Options{Workers: 4, MinPixelsPerWorker: 1})
		if string(a.RGB) != string(b.RGB) {
			t.Fatalf("%s: 1 and 4 workers give different bytes", model.Model)
		}
		for i := range a.Depth {
			if math.Float32bits(a.Depth[i]) != math.Float32bits(b.Depth[i]) {
				t.Fatalf("%s: depth differs at %d: %g, %g", model.Model, i, a.Depth[i], b.Depth[i])
			}
		}
	}
}

// TestAnyRealisticCameraStaysInRange renders the realistic corridor, its shadows, a lens and
// a film from cameras everywhere (inside walls and vehicles, under and on the floor, rolled,
// straight up and down) with vehicles in odd places (sunk in the floor, above the camera, behind
// it, against it) under a high and a low sun, by one goroutine and by three: no shortcut may
// index outside its tables, and the two must agree.
func TestAnyRealisticCameraStaysInRange(t *testing.T) {
	sc, err := newBenchScene()
	if err != nil {
		t.Fatal(err)
	}
	ks := sc.dyn[0].Mesh
	dyn := append(append([]Object(nil), sc.dyn...),
		Object{Mesh: ks, Pose: Pose{X: 0.2, Y: -0.3, Z: -0.03, Yaw: 1}},    // sunk in the floor
		Object{Mesh: ks, Pose: Pose{X: 0.1, Y: -0.5, Z: 0.4, Roll: 0.5}},   // flying
		Object{Mesh: ks, Pose: Pose{X: -0.25, Y: 0.2, Yaw: 2, Pitch: 0.3}}, // against a wall
		Object{Mesh: ks, Pose: Pose{X: 0.5, Y: 0.1, Z: 0.01, Yaw: -0.4}},
	)
	one := NewRenderer(Options{Workers: 1})
	defer one.Close()
	three := NewRenderer(Options{Workers: 3, MinPixelsPerWorker: 1})
	defer three.Close()
	for _, sun := range [][2]float64{{35, 60}, {200, 4}} {
		env := realEnv(sun[0], sun[1])
		env.Distractors = 4
		s := mustStatic(t, corridorLayout(), &env)
		poses := []Pose{
			{X: -0.31, Y: -0.5, Z: 0.1, Yaw: 0.3},
			{X: 0.91, Y: 0, Z: 0.125, Yaw: math.Pi},
			{X: 0, Y: -0.85, Z: 0.05, Yaw: 1},
			{X: 0.2, Y: -0.2, Z: 1, Pitch: math.Pi / 2},
			{X: 0.2, Y: -0.2, Z: 0.1, Pitch: -math.Pi / 2},
			{X: 0.1, Y: -0.6, Z: 0.2, Yaw: 2, Pitch: 0.3, Roll: 1.2},
			{X: 0.1, Y: -0.6, Z: -0.2, Yaw: 2, Pitch: -0.3},
			{X: 0.1, Y: -0.6, Z: 0, Yaw: 2},
			{X: 0.1, Y: -0.6, Z: 0.0005, Yaw: 2, Pitch: 0.2},
			{X: 0.2, Y: -0.3, Z: 0.02, Yaw: 0.2, Pitch: 0.8}, // into the sunk vehicle
		}
		for i := range 30 {
			a := float64(i) * 0.7
			poses = append(poses, Pose{X: 0.3 + 0.8*math.Cos(a), Y: -0.4 + 0.8*math.Sin(a), Z: 0.02 + 0.05*float64(i%7),
				Yaw: a * 1.3, Pitch: math.Sin(a) * 1.5, Roll: math.Cos(a*0.7) * 0.5})
		}
		// Low over the floor at full size too: its texels span many pixels (every step of the
		// sparse floor), and rows run long.
		poses = append(poses, Pose{X: 0.1, Y: -0.5, Z: 0.04, Yaw: 1.2, Pitch: 0.6}, Pose{X: -0.2, Y: 0.1, Z: 0.02, Yaw: -0.3, Pitch: 1.2, Roll: 0.4})
		for i, p := range poses {
			cam := Camera{Pose: p, FovYDeg: 40 + float64(i%5)*25, Near: 0.03, Far: 3, Width: 96 + 32*(i%3), Height: 72}
			if i >= len(poses)-2 {
				cam.Width, cam.Height = 640, 480
			}
			switch i % 3 {
			case 1:
				cam.Lens = Lens{Model: PlumbBob, K1: -0.2, K2: 0.05, P1: 0.002}
			case 2:
				cam.Lens = Lens{Model: Equidistant, K1: 0.1}
			}
			cam.Film = &Film{Exposure: 1.3, Vignette: 0.4, ReadNoise: 2, ShotNoise: 3}
			a, b := NewFrame(cam.Width, cam.Height, true, true), NewFrame(cam.Width, cam.Height, true, true)
			if err := one.Render(a, cam, s, dyn); err != nil {
				t.Fatal(err)
			}
			if err := three.Render(b, cam, s, dyn); err != nil {
				t.Fatal(err)
			}
			if string(a.RGB) != string(b.RGB) {
				t.Fatalf("sun %v, pose %+v: 1 and 3 goroutines give different bytes", sun, p)
			}
			for k, d := range a.Depth {
				if !math.IsInf(float64(d), 1) && (d < 0.03*0.9999 || d > 3*1.0001) {
					t.Fatalf("sun %v, pose %+v: depth[%d] = %g, want +Inf or within [0.03, 3]", sun, p, k, d)
				}
			}
		}
	}
}
