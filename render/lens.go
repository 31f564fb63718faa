package render

import (
	"fmt"
	"math"
	"simgui/plugins"
	"sync"
	"unsafe"
)

// Lens is a camera's intrinsics and distortion as OpenCV calibrates them (and ROS CameraInfo
// carries them): in pixel coordinates whose (0, 0) is the centre of the top-left pixel, a point
// (X, Y, Z) of the camera frame (x right, y down, z forward) goes to x' = X/Z, y' = Y/Z, is
// distorted to (x”, y”) and lands at u = Fx·x” + Cx, v = Fy·y” + Cy. The zero Lens is the
// Camera's plain pinhole (FovYDeg, square pixels, principal point in the middle).
//
// plumb_bob (OpenCV projectPoints): r² = x'² + y'²,
// x” = x'(1 + K1 r² + K2 r⁴ + K3 r⁶) + 2 P1 x'y' + P2 (r² + 2x'²), and y” likewise with P1 and P2
// swapped. equidistant (OpenCV fisheye.projectPoints): θ = atan r,
// θd = θ (1 + K1 θ² + K2 θ⁴ + K3 θ⁶ + K4 θ⁸), x” = (θd/r) x'.
//
// A distorted frame is drawn as a pinhole image covering what the lens sees, then resampled
// (bilinearly) through the inverse of the distortion. Directions more than MaxLensAngleDeg
// off the axis are not drawn (black), and neither are pixels where the distortion folds back
// (its radius stops growing).
type Lens struct {
	// Fx and Fy are the focal lengths in pixels; 0 takes fy from the Camera's FovYDeg and
	// fx = fy.
	Fx, Fy float64
	// Cx and Cy are the principal point in pixels; Cx 0 means the centre column,
	// (Width − 1)/2, and Cy 0 the centre row, (Height − 1)/2.
	Cx, Cy float64
	// Model is the distortion model: "" or "plumb_bob", or "equidistant".
	Model string
	// K1..K4, P1 and P2 are the distortion coefficients (K4 for equidistant only, P1 and P2
	// for plumb_bob only).
	K1, K2, K3, K4, P1, P2 float64
}

// Distortion models.
const (
	PlumbBob    = "plumb_bob"
	Equidistant = "equidistant"
)

// MaxLensAngleDeg is how far off the optical axis a distorted frame is drawn.
const MaxLensAngleDeg = plugins.MaxLensAngleDeg

// MaxDistortedPixels is the largest frame (width × height) drawn with lens distortion: its
// resampling map takes 8 bytes a pixel.
const MaxDistortedPixels = 4096 * 4096

// Validate reports what is wrong with l, if anything.
func (l *Lens) Validate() error {
	switch l.Model {
	case "", PlumbBob, Equidistant:
	default:
		return fmt.Errorf("lens model %q: want %s or %s", l.Model, PlumbBob, Equidistant)
	}
	for _, v := range []float64{l.Fx, l.Fy, l.Cx, l.Cy, l.K1, l.K2, l.K3, l.K4, l.P1, l.P2} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("lens %+v: want finite numbers", *l)
		}
	}
	if l.Fx < 0 || l.Fy < 0 {
		return fmt.Errorf("lens focal lengths %g, %g px: want positive (or 0 for the field of view)", l.Fx, l.Fy)
	}
	if (l.Fx == 0) != (l.Fy == 0) {
		return fmt.Errorf("lens focal lengths %g, %g px: give both or neither", l.Fx, l.Fy)
	}
	for _, k := range []float64{l.K1, l.K2, l.K3, l.K4, l.P1, l.P2} {
		if math.Abs(k) > 100 {
			return fmt.Errorf("lens distortion coefficient %g: want |k| <= 100", k)
		}
	}
	return nil
}

// distorted reports whether l bends straight lines.
func (l *Lens) distorted() bool {
	if l.Model == Equidistant {
		return true
	}
	return l.K1 != 0 || l.K2 != 0 || l.K3 != 0 || l.P1 != 0 || l.P2 != 0
}

// Intrinsics returns fx, fy, cx, cy of camera c in OpenCV pixel coordinates: its Lens's, or
// those its vertical field of view and size give (square pixels, the centre).
func (c *Camera) Intrinsics() (fx, fy, cx, cy float64) {
	l := &c.Lens
	fx, fy = l.Fx, l.Fy
	if fx == 0 {
		fy = float64(c.Height) / 2 / math.Tan(c.FovYDeg*math.Pi/180/2)
		fx = fy
	}
	cx, cy = l.Cx, l.Cy
	if cx == 0 {
		cx = float64(c.Width-1) / 2
	}
	if cy == 0 {
		cy = float64(c.Height-1) / 2
	}
	return fx, fy, cx, cy
}

// distort maps an undistorted normalized point to the distorted one.
func (l *Lens) distort(x, y float64) (float64, float64) {
	if l.Model == Equidistant {
		r := math.Hypot(x, y)
		if r < 1e-12 {
			return x, y
		}
		th := math.Atan(r)
		t2 := th * th
		thd := th * (1 + t2*(l.K1+t2*(l.K2+t2*(l.K3+t2*l.K4))))
		return x * thd / r, y * thd / r
	}
	r2 := x*x + y*y
	k := 1 + r2*(l.K1+r2*(l.K2+r2*l.K3))
	return x*k + 2*l.P1*x*y + l.P2*(r2+2*x*x), y*k + l.P1*(r2+2*y*y) + 2*l.P2*x*y
}

// undistort inverts distort; ok is false where the lens folds back, past its first fold (fold,
// l.fold()'s), or the direction is more than MaxLensAngleDeg off the axis.
func (l *Lens) undistort(xd, yd, fold float64) (x, y float64, ok bool) {
	if l.Model == Equidistant {
		thd := math.Hypot(xd, yd)
		if thd < 1e-12 {
			return xd, yd, true
		}
		th := thd
		for range 30 { // Newton on θ(1 + k1θ² + ...) − θd, as OpenCV's fisheye undistortPoints
			t2 := th * th
			f := th*(1+t2*(l.K1+t2*(l.K2+t2*(l.K3+t2*l.K4)))) - thd
			df := 1 + t2*(3*l.K1+t2*(5*l.K2+t2*(7*l.K3+9*t2*l.K4)))
			if df <= 0 {
				return 0, 0, false
			}
			th -= f / df
			if !(th > 0) || th > math.Pi/2 {
				return 0, 0, false
			}
		}
		if th > MaxLensAngleDeg*math.Pi/180 || !(th*th < fold) {
			return 0, 0, false
		}
		r := math.Tan(th)
		x, y = xd*r/thd, yd*r/thd
	} else {
		// Newton's method first (a few steps where the fixed point takes dozens), then, where
		// it finds no root the checks take, the fixed point as OpenCV's undistortPoints runs it.
		var ok bool
		if x, y, ok = l.newtonPlumbBob(xd, yd); !ok || !l.unfolded(x, y, xd, yd) {
			if x, y, ok = l.fixedPointPlumbBob(xd, yd); !ok || !l.unfolded(x, y, xd, yd) {
				return 0, 0, false
			}
		}
		if !(x*x+y*y < fold) {
			return 0, 0, false
		}
	}
	if math.Hypot(x, y) > maxTan {
		return 0, 0, false
	}
	return x, y, true
}

// newtonPlumbBob solves distort(x, y) = (xd, yd) for plumb_bob by Newton's method from
// (xd, yd); ok is false where it does not converge.
func (l *Lens) newtonPlumbBob(xd, yd float64) (x, y float64, ok bool) {
	x, y = xd, yd
	for range 20 {
		r2 := x*x + y*y
		k := 1 + r2*(l.K1+r2*(l.K2+r2*l.K3))
		kr := l.K1 + r2*(2*l.K2+3*r2*l.K3) // dk/d(r²)
		fx := x*k + 2*l.P1*x*y + l.P2*(r2+2*x*x) - xd
		fy := y*k + l.P1*(r2+2*y*y) + 2*l.P2*x*y - yd
		// The Jacobian of distort; its off-diagonal entries are equal.
		a := k + 2*x*x*kr + 2*l.P1*y + 6*l.P2*x
		b := 2*x*y*kr + 2*l.P1*x + 2*l.P2*y
		d := k + 2*y*y*kr + 6*l.P1*y + 2*l.P2*x
		det := a*d - b*b
		if !(det > 0) {
			return 0, 0, false
		}
		dx, dy := (d*fx-b*fy)/det, (a*fy-b*fx)/det
		x, y = x-dx, y-dy
		if math.Abs(dx)+math.Abs(dy) < 1e-14 {
			return x, y, !math.IsNaN(x + y)
		}
	}
	return 0, 0, false
}

// fixedPointPlumbBob solves distort(x, y) = (xd, yd) for plumb_bob by OpenCV's
// undistortPoints iteration; ok is false where k stops being positive.
func (l *Lens) fixedPointPlumbBob(xd, yd float64) (x, y float64, ok bool) {
	x, y = xd, yd
	for range 60 {
		r2 := x*x + y*y
		k := 1 + r2*(l.K1+r2*(l.K2+r2*l.K3))
		if !(k > 0) {
			return 0, 0, false
		}
		dx := 2*l.P1*x*y + l.P2*(r2+2*x*x)
		dy := l.P1*(r2+2*y*y) + 2*l.P2*x*y
		nx, ny := (xd-dx)/k, (yd-dy)/k
		done := math.Abs(nx-x)+math.Abs(ny-y) < 1e-13
		x, y = nx, ny
		if done {
			break
		}
	}
	return x, y, true
}

// maxTan is the tangent of MaxLensAngleDeg: how far off the axis a normalized point is drawn.
var maxTan = math.Tan(MaxLensAngleDeg * math.Pi / 180)

// unfolded reports whether (x, y) is a root of distort for (xd, yd) the frame can use: within
// maxTan of the axis, distorting back to (xd, yd), and where the radius still grows (not past
// a fold). Squared lengths spare the square roots.
func (l *Lens) unfolded(x, y, xd, yd float64) bool {
	r2 := x*x + y*y
	if !(r2 <= maxTan*maxTan) {
		return false
	}
	ex, ey := l.distort(x, y)
	if ex, ey = ex-xd, ey-yd; ex*ex+ey*ey > 1e-14 {
		return false
	}
	const h = 1e-6
	x2, y2 := l.distort(x*(1+h), y*(1+h))
	return r2 == 0 || x2*x2+y2*y2 > xd*xd+yd*yd
}

// fold returns where the lens's radial distortion first stops growing with the angle off the
// axis, as r² (plumb_bob) or θ² (equidistant), up to MaxLensAngleDeg (+Inf when it grows all
// the way). Past the fold the radius comes back, and a strong barrel lens that turns outward
// again further out would map a ring of directions beyond its field onto pixels past the
// fold: undistort leaves those black. The derivative is a polynomial in r² or θ² (cubic,
// quartic): scanned, then the first sign change bisected.
func (l *Lens) fold() float64 {
	k4 := 0.0
	if l.Model == Equidistant {
		k4 = l.K4
	}
	d := func(t float64) float64 { return 1 + t*(3*l.K1+t*(5*l.K2+t*(7*l.K3+t*9*k4))) }
	end := maxTan * maxTan
	if l.Model == Equidistant {
		end = math.Pow(MaxLensAngleDeg*math.Pi/180, 2)
	}
	const steps = 4096
	prev := 0.0
	for i := 1; i <= steps; i++ {
		t := end * float64(i) / steps
		if d(t) > 0 {
			prev = t
			continue
		}
		lo, hi := prev, t
		for range 60 {
			mid := (lo + hi) / 2
			if d(mid) > 0 {
				lo = mid
			} else {
				hi = mid
			}
		}
		return lo
	}
	return math.Inf(1)
}

// lensMap is how a distorted camera is drawn: the pinhole intrinsics and size of the
// undistorted image and, per output pixel, where to sample it.
type lensMap struct {
	key   lensKey
	inner Lens // the undistorted image's intrinsics
	w, h  int  // its size
	taps  []lensTap
	// need is, per output row, how many rows of the undistorted image its taps reach into.
	need []int32
}

// lensTap is where an output pixel samples the undistorted image: the top-left pixel idx of
// its 2×2 neighbourhood and the four bilinear weights in 32nds (top left, top right, bottom
// left, bottom right), summing to 32; all four 0 where the lens sees nothing (black).
type lensTap struct {
	idx int32
	w   [4]uint8
}

type lensKey struct {
	lens          Lens
	width, height int
	fov           float64
}

// lensCache keeps a Renderer's last few lens maps (a camera's stay the same frame to frame),
// in front of the process's shared ones (sharedLensMap).
type lensCache struct{ maps []*lensMap }

func (lc *lensCache) get(c *Camera) *lensMap {
	k := lensKey{lens: c.Lens, width: c.Width, height: c.Height, fov: c.FovYDeg}
	for i, m := range lc.maps {
		if m.key == k {
			copy(lc.maps[1:i+1], lc.maps[:i])
			lc.maps[0] = m
			return m
		}
	}
	m := sharedLensMap(c, k)
	if len(lc.maps) < 4 {
		lc.maps = append(lc.maps, nil)
	}
	copy(lc.maps[1:], lc.maps)
	lc.maps[0] = m
	// Beyond the newest, keep what fits lensCacheBytes: a renderer per camera and world, each
	// keeping four 1080p maps of lenses randomized per episode, held gigabytes.
	bytes := 0
	for i, km := range lc.maps[1:] {
		bytes += km.bytes()
		if bytes > lensCacheBytes {
			cut := i + 1 // km is lc.maps[i+1]
			clear(lc.maps[cut:])
			lc.maps = lc.maps[:cut]
			break
		}
	}
	return m
}

// lensCacheBytes bounds the bytes of a renderer's lens maps past its newest.
const lensCacheBytes = 8 << 20

// bytes returns the map's size in memory.
func (lm *lensMap) bytes() int { return len(lm.taps)*int(unsafe.Sizeof(lensTap{})) + len(lm.need)*4 }

// sharedLensBudget bounds the bytes of the lens maps the process shares, and maxSharedLenses
// their number (those of a renderer's recent frames are kept by it anyway): with distortion
// randomized at every reset most are never asked for again. Variables for the tests.
var (
	sharedLensBudget = 64 << 20
	maxSharedLenses  = 64
)

// lensMaps are the process's lens maps, shared by every renderer: the cameras of a training
// episode's agents (one renderer each) have the same lens unless it is randomized, and a map
// for a large frame takes a while to make. The least recently used go past sharedLensBudget
// or maxSharedLenses.
var lensMaps struct {
	sync.Mutex
	m     map[lensKey]*lensEntry
	bytes int
	tick  uint64
}

// lensEntry is a shared lens map, made once by whoever asks for it first.
type lensEntry struct {
	once  sync.Once
	m     *lensMap
	bytes int
	used  uint64
}

// sharedLensMap returns the process's lens map of camera c (key k), making it on first use.
func sharedLensMap(c *Camera, k lensKey) *lensMap {
	lensMaps.Lock()
	e := lensMaps.m[k]
	if e == nil {
		if lensMaps.m == nil {
			lensMaps.m = map[lensKey]*lensEntry{}
		}
		e = &lensEntry{bytes: c.Width*c.Height*int(unsafe.Sizeof(lensTap{})) + c.Height*4} // m.bytes() once made
		lensMaps.m[k] = e
		lensMaps.bytes += e.bytes
		for (lensMaps.bytes > sharedLensBudget || len(lensMaps.m) > maxSharedLenses) && len(lensMaps.m) > 1 {
			var oldest lensKey
			first := true
			for key, oe := range lensMaps.m {
				if oe != e && (first || oe.used < lensMaps.m[oldest].used) {
					oldest, first = key, false
				}
			}
			lensMaps.bytes -= lensMaps.m[oldest].bytes
			delete(lensMaps.m, oldest)
		}
	}
	lensMaps.tick++
	e.used = lensMaps.tick
	lensMaps.Unlock()
	e.once.Do(func() {
		defer func() {
			if e.m == nil { // newLensMap panicked: forget the entry, so that it is made anew
				lensMaps.Lock()
				if lensMaps.m[k] == e {
					delete(lensMaps.m, k)
					lensMaps.bytes -= e.bytes
				}
				lensMaps.Unlock()
			}
		}()
		e.m = newLensMap(c, k)
	})
	if e.m == nil {
		panic("render: the lens map could not be made") // Render returns it as the frame's fault
	}
	return e.m
}

// maxInnerPixels bounds the undistorted image at this many times the output's pixels: strong
// barrel distortion sees much more than a pinhole of the same focal length, and its edges are
// squeezed in the output anyway.
const maxInnerPixels = 2.0

// maxKeptDirections is the largest frame (pixels) whose undistorted directions newLensMap
// keeps between its passes (16 bytes each).
const maxKeptDirections = 1 << 16

func newLensMap(c *Camera, k lensKey) *lensMap {
	fx, fy, cx, cy := c.Intrinsics()
	W, H := c.Width, c.Height
	lm := &lensMap{key: k, taps: make([]lensTap, W*H), need: make([]int32, H)}
	// First what the lens sees (the bounds of the undistorted directions), then where each
	// pixel samples. A small frame keeps its directions from the first pass (a randomized
	// lens makes a map at every reset); a large one undistorts twice rather than keep them.
	fold := c.Lens.fold()
	var dirs [][2]float64 // NaN: the lens sees nothing there
	if W*H <= maxKeptDirections {
		dirs = make([][2]float64, W*H)
	}
	undistort := func(i int) (float64, float64, bool) {
		if dirs == nil {
			return c.Lens.undistort((float64(i%W)-cx)/fx, (float64(i/W)-cy)/fy, fold)
		}
		d := dirs[i]
		return d[0], d[1], !math.IsNaN(d[0])
	}
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for i := range W * H {
		x, y, ok := c.Lens.undistort((float64(i%W)-cx)/fx, (float64(i/W)-cy)/fy, fold)
		if dirs != nil {
			dirs[i] = [2]float64{math.NaN(), math.NaN()}
			if ok {
				dirs[i] = [2]float64{x, y}
			}
		}
		if ok {
			x0, x1, y0, y1 = math.Min(x0, x), math.Max(x1, x), math.Min(y0, y), math.Max(y1, y)
		}
	}
	if !(x0 < x1 && y0 < y1) {
		x0, y0, x1, y1 = -0.1, -0.1, 0.1, 0.1
	}
	// The inner image's focal length: the output's at the centre, less if that is too big.
	f := math.Min(fx, fy)
	x0, y0, x1, y1 = x0-1/f, y0-1/f, x1+1/f, y1+1/f // a pixel of margin for the bilinear taps
	if n := (x1 - x0) * (y1 - y0) * f * f; n > maxInnerPixels*float64(W*H) {
		f *= math.Sqrt(maxInnerPixels * float64(W*H) / n)
	}
	lm.w = max(2, int(math.Ceil((x1-x0)*f)))
	lm.h = max(2, int(math.Ceil((y1-y0)*f)))
	lm.inner = Lens{Fx: f, Fy: f, Cx: -x0*f - 0.5, Cy: -y0*f - 0.5}
	for i := range lm.taps {
		ux, uy, ok := undistort(i)
		if !ok {
			continue
		}
		// Continuous inner coordinates, then the 2×2 taps around the sample point.
		sx := -x0*f + ux*f - 0.5
		sy := -y0*f + uy*f - 0.5
		ix, iy := int(math.Floor(sx)), int(math.Floor(sy))
		ix, iy = max(0, min(lm.w-2, ix)), max(0, min(lm.h-2, iy))
		fx, fy := clampTo(sx-float64(ix), 0, 1), clampTo(sy-float64(iy), 0, 1)
		lm.taps[i] = lensTap{idx: int32(iy*lm.w + ix), w: bilinearWeights(fx, fy)}
		lm.need[i/W] = max(lm.need[i/W], int32(iy+2))
	}
	return lm
}

// bilinearWeights returns the four bilinear weights of a sample at (fx, fy) from the top-left
// tap (0..1 each) in 32nds, as lensTap holds them: each rounded, the largest taking what
// rounding left over so that they sum to 32.
func bilinearWeights(fx, fy float64) [4]uint8 {
	f := [4]float64{(1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy}
	var w [4]int
	sum, big := 0, 0
	for k, v := range f {
		w[k] = int(math.Round(v * 32))
		sum += w[k]
		if f[k] > f[big] {
			big = k
		}
	}
	w[big] += 32 - sum
	return [4]uint8{uint8(w[0]), uint8(w[1]), uint8(w[2]), uint8(w[3])}
}
