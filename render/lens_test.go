package render

import (
	"bytes"
	"encoding/json"
	"math"
	"os/exec"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// python is Debian's interpreter, which has python3-opencv (build/setup.sh installs it).
const python = "/usr/bin/python3"

// projection is one question to OpenCV: where the points (OpenCV camera frame) land for a
// camera's lens.
type projection struct {
	cam *Camera
	pts []mgl64.Vec3
}

// opencvProject asks OpenCV (projectPoints, or fisheye.projectPoints) where the points land,
// all questions in one run of the interpreter (importing cv2 takes seconds).
func opencvProject(t *testing.T, qs ...projection) [][][2]float64 {
	t.Helper()
	var reqs []map[string]any
	for _, q := range qs {
		fx, fy, cx, cy := q.cam.Intrinsics()
		l := q.cam.Lens
		req := map[string]any{
			"model": l.Model, "K": [][]float64{{fx, 0, cx}, {0, fy, cy}, {0, 0, 1}},
			"dist": []float64{l.K1, l.K2, l.P1, l.P2, l.K3}, "points": q.pts,
		}
		if l.Model == Equidistant {
			req["dist"] = []float64{l.K1, l.K2, l.K3, l.K4}
		}
		reqs = append(reqs, req)
	}
	in, err := json.Marshal(reqs)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, "testdata/opencv_project.py")
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s with OpenCV (python3-opencv; run build/setup.sh): %v\n%s", python, err, stderr.String())
	}
	var res struct {
		Pixels [][][2]float64 `json:"pixels"`
		OpenCV string         `json:"opencv"`
	}
	if err := json.Unmarshal(out, &res); err != nil || len(res.Pixels) != len(qs) {
		t.Fatalf("OpenCV answered %q: %v", out, err)
	}
	for i, q := range qs {
		if len(res.Pixels[i]) != len(q.pts) {
			t.Fatalf("OpenCV answered %d points for %d", len(res.Pixels[i]), len(q.pts))
		}
	}
	t.Logf("OpenCV %s", res.OpenCV)
	return res.Pixels
}

// testLenses are a barrel-distorted USB camera (plumb_bob, principal point off centre) and a
// wide fisheye (equidistant), both 640×480.
var testLenses = []struct {
	name string
	lens Lens
}{
	{"plumb_bob", Lens{Model: PlumbBob, Fx: 380, Fy: 376, Cx: 322.5, Cy: 236.8, K1: -0.28, K2: 0.08, P1: 0.001, P2: -0.0008, K3: -0.01}},
	{"equidistant", Lens{Model: Equidistant, Fx: 250, Fy: 250, Cx: 318.2, Cy: 241.6, K1: -0.02, K2: 0.005, K3: -0.001, K4: 0.0002}},
}

// cvToWorld turns an OpenCV camera-frame point (x right, y down, z forward) into the world
// point it is for a camera at the origin looking along +x (left +y, up +z).
func cvToWorld(p mgl64.Vec3) mgl64.Vec3 { return mgl64.Vec3{p[2], -p[0], -p[1]} }

// lensTargets returns points spread over the field of view, at 0.8 to 1.6 m, in the OpenCV
// camera frame.
func lensTargets(n int) []mgl64.Vec3 {
	var pts []mgl64.Vec3
	for i := range n {
		for j := range n {
			z := 0.8 + 0.8*float64((i*n+j)%5)/4
			x := (-0.85 + 1.7*float64(i)/float64(n-1)) * z
			y := (-0.62 + 1.24*float64(j)/float64(n-1)) * z
			pts = append(pts, mgl64.Vec3{x, y, z})
		}
	}
	return pts
}

// TestProjectMatchesOpenCV compares Camera.Project with OpenCV's projections of a grid of
// points over the field of view.
func TestProjectMatchesOpenCV(t *testing.T) {
	pts := lensTargets(9)
	var qs []projection
	for _, c := range testLenses {
		qs = append(qs, projection{&Camera{FovYDeg: 60, Near: 0.05, Far: 20, Width: 640, Height: 480, Lens: c.lens}, pts})
	}
	answers := opencvProject(t, qs...)
	for k, c := range testLenses {
		t.Run(c.name, func(t *testing.T) {
			cam, want := qs[k].cam, answers[k]
			worst := 0.0
			for i, p := range pts {
				col, row, _, ok := cam.Project(cvToWorld(p))
				if !ok {
					t.Fatalf("point %v not in front", p)
				}
				// OpenCV's pixel u is the centre of column u: col = u + 0.5.
				worst = math.Max(worst, math.Hypot(col-0.5-want[i][0], row-0.5-want[i][1]))
			}
			if worst > 1e-6 {
				t.Fatalf("Project differs from OpenCV by up to %.3g px", worst)
			}
		})
	}
}

// TestDistortedFrameMatchesOpenCV renders targets at known points through each lens and
// finds them where OpenCV projects their centres, within 0.5 px. A target is a square card
// facing the camera with a Gaussian spot as its texture, so that its intensity centroid is
// its centre to a small fraction of a pixel (a plain square's pixel mask would be off by up to
// half a pixel from where its edges fall).
func TestDistortedFrameMatchesOpenCV(t *testing.T) {
	env := RealisticEnvironment()
	env.SkyZenith, env.SkyHorizon, env.Ground = RGB{}, RGB{}, RGB{}
	env.Ambient, env.AmbientColor, env.Diffuse = 1, [3]float64{1, 1, 1}, 0
	env.Shadows, env.ContactShadow = false, 0
	s := mustStatic(t, nil, &env)
	// Targets are moved to texture centres (below), then OpenCV is asked about all of them.
	var qs []projection
	var sidesOf [][]float64
	for _, c := range testLenses {
		cam := &Camera{Pose: Pose{Z: 5}, FovYDeg: 60, Near: 0.05, Far: 20, Width: 640, Height: 480, Lens: c.lens}
		var pts []mgl64.Vec3
		var sides []float64
		for _, p := range lensTargets(7) {
			// A card about 12 px across; its texture repeats every side metres, so move
			// the card (within its plane) until its centre is a texture centre: the
			// texture's u runs along −y (world) and v along z.
			side := 0.04 * p[2]
			w := cvToWorld(p)
			u0, v0 := -w[1], w[2]+5
			u := math.Floor(u0/side)*side + side/2
			v := math.Floor(v0/side)*side + side/2
			p[0], p[1] = u, -(v - 5)
			pts, sides = append(pts, p), append(sides, side)
		}
		qs, sidesOf = append(qs, projection{cam, pts}), append(sidesOf, sides)
	}
	answers := opencvProject(t, qs...)
	for k, c := range testLenses {
		t.Run(c.name, func(t *testing.T) {
			cam, pts, sides, want := *qs[k].cam, qs[k].pts, sidesOf[k], answers[k]
			var b MeshBuilder
			var px [][2]float64
			n := 0
			for i, p := range pts {
				u, v := want[i][0], want[i][1]
				if u < 16 || v < 16 || u > 624 || v > 464 {
					continue // beyond what the lens images
				}
				side := sides[i]
				tex, err := NewTexture(64, side, func(x, y float64) RGB {
					r2 := (x-side/2)*(x-side/2) + (y-side/2)*(y-side/2)
					g := clamp8(255 * math.Exp(-r2/(2*side*side/36)))
					return RGB{g, g, g}
				})
				if err != nil {
					t.Fatal(err)
				}
				b.SetTexture(tex)
				// A card facing the camera (seen from −x, counter-clockwise): no edges that
				// could show beside it.
				c, h := cvToWorld(p).Add(mgl64.Vec3{0, 0, 5}), side/2
				b.Quad(c.Add(mgl64.Vec3{0, h, -h}), c.Add(mgl64.Vec3{0, -h, -h}), c.Add(mgl64.Vec3{0, -h, h}), c.Add(mgl64.Vec3{0, h, h}), RGB{255, 255, 255})
				px = append(px, want[i])
				n++
			}
			if n < 30 {
				t.Fatalf("only %d targets inside the image", n)
			}
			f := render(t, cam, s, []Object{{Mesh: b.Mesh(), NoShadow: true}}, Options{Workers: 1})
			writePNG(t, f.Image(), "lens-"+c.name+".png", t.TempDir(), previewDir)
			worst := 0.0
			for _, w := range px {
				var sx, sy, sw float64
				for y := int(w[1]) - 12; y <= int(w[1])+12; y++ {
					for x := int(w[0]) - 12; x <= int(w[0])+12; x++ {
						c := f.At(x, y)
						l := float64(c.R) + float64(c.G) + float64(c.B)
						sx, sy, sw = sx+l*(float64(x)+0.5), sy+l*(float64(y)+0.5), sw+l
					}
				}
				if sw == 0 {
					t.Fatalf("no target near OpenCV's (%.1f, %.1f)", w[0], w[1])
				}
				// OpenCV's pixel u is the centre of column u: col = u + 0.5.
				e := math.Hypot(sx/sw-0.5-w[0], sy/sw-0.5-w[1])
				if e > 0.5 {
					t.Errorf("target OpenCV puts at (%.2f, %.2f) is at (%.2f, %.2f)", w[0], w[1], sx/sw-0.5, sy/sw-0.5)
				}
				worst = math.Max(worst, e)
			}
			t.Logf("%d targets, the farthest %.3f px from OpenCV's projection", n, worst)
		})
	}
}

// TestRenderersShareLensMaps draws the same lens on two renderers, as the cameras of a
// training episode's agents do: the lens map is made once and shared; and however many
// lenses are drawn, the shared maps stay within their budget.
func TestRenderersShareLensMaps(t *testing.T) {
	cam := Camera{Pose: Pose{Z: 0.2}, FovYDeg: 60, Width: 64, Height: 48, Near: 0.05, Far: 20,
		Lens: Lens{Model: PlumbBob, K1: -0.1234567}}
	a, b := NewRenderer(Options{Workers: 1}), NewRenderer(Options{Workers: 1})
	defer a.Close()
	defer b.Close()
	if ma, mb := a.lenses.get(&cam), b.lenses.get(&cam); ma != mb {
		t.Fatal("two renderers made their own maps of the same lens")
	}
	saved, savedN := sharedLensBudget, maxSharedLenses
	defer func() { sharedLensBudget, maxSharedLenses = saved, savedN }()
	sharedLensBudget = 5 * (64*48*8 + 48*4) // five maps
	for i := range 12 {
		cam.Lens.K1 = -0.01 * float64(i+1)
		a.lenses.get(&cam)
	}
	lensMaps.Lock()
	bytes, n := lensMaps.bytes, len(lensMaps.m)
	lensMaps.Unlock()
	if bytes > sharedLensBudget || n != 5 {
		t.Fatalf("%d shared lens maps take %d bytes: want the five latest within the budget %d", n, bytes, sharedLensBudget)
	}
}

// TestSharedLensMapsAreCounted keeps the number of shared maps bounded too: many small lenses,
// as distortion randomized at every reset makes, do not pile up under the byte budget.
func TestSharedLensMapsAreCounted(t *testing.T) {
	saved := maxSharedLenses
	defer func() { maxSharedLenses = saved }()
	maxSharedLenses = 3
	r := NewRenderer(Options{Workers: 1})
	defer r.Close()
	cam := Camera{FovYDeg: 60, Width: 16, Height: 16, Lens: Lens{Model: PlumbBob}}
	for i := range 10 {
		cam.Lens.K1 = -0.001 * float64(i+1)
		r.lenses.get(&cam)
	}
	lensMaps.Lock()
	n := len(lensMaps.m)
	lensMaps.Unlock()
	if n != 3 {
		t.Fatalf("%d shared lens maps, want the 3 latest", n)
	}
}

// A strong barrel lens whose radius still grows everywhere (k1 −0.3, k2 0.05: 1 − 0.9r² +
// 0.25r⁴ > 0) sees every pixel of the frame, where OpenCV's fixed-point iteration alone does
// not converge in the corners; one that folds (k2 0) leaves past the fold black.
func TestStrongBarrelSeesToTheCorners(t *testing.T) {
	black := func(l Lens) int {
		c := benchCamera(160, 120)
		c.Lens = l
		n := 0
		for _, tp := range newLensMap(&c, lensKey{}).taps {
			if tp.w == ([4]uint8{}) {
				n++
			}
		}
		return n
	}
	if n := black(Lens{Model: PlumbBob, K1: -0.3, K2: 0.05}); n != 0 {
		t.Errorf("k1 −0.3, k2 0.05: %d black pixels, want none (the lens does not fold)", n)
	}
	if n := black(Lens{Model: PlumbBob, K1: -0.3}); n == 0 {
		t.Error("k1 −0.3, k2 0: no black pixel, want the corners past the fold black")
	}
}

// TestBarrelLensBlackPastItsFold: past the radius where a strong barrel lens folds, every
// pixel is black, also where the polynomial turns outward again further out (it would map a
// ring of directions far beyond the field there); before the fold none is.
func TestBarrelLensBlackPastItsFold(t *testing.T) {
	for _, l := range []Lens{
		{Model: PlumbBob, K1: -0.3, K2: 0.02},
		{Model: PlumbBob, K1: -0.5, K2: 0.1},
		{Model: Equidistant, K1: -0.4, K2: 0.05},
	} {
		c := Camera{Width: 320, Height: 240, FovYDeg: 120, Lens: l}
		m := newLensMap(&c, lensKey{})
		fx, fy, cx, cy := c.Intrinsics()
		firstBlack, lastSeen := math.Inf(1), 0.0
		for i, tp := range m.taps {
			r := math.Hypot((float64(i%c.Width)-cx)/fx, (float64(i/c.Width)-cy)/fy)
			if tp.w == ([4]uint8{}) {
				firstBlack = math.Min(firstBlack, r)
			} else {
				lastSeen = math.Max(lastSeen, r)
			}
		}
		if math.IsInf(firstBlack, 1) {
			t.Errorf("%+v: no pixel past the fold: the test checks nothing", l)
		}
		if lastSeen > firstBlack {
			t.Errorf("%+v: a pixel at radius %.3f sees the scene past the first black one at %.3f", l, lastSeen, firstBlack)
		}
	}
}
