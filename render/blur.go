package render

import (
	"math"
	"math/bits"

	"github.com/go-gl/mathgl/mgl64"
)

// Motion blur: the film integrates light over its shutter time while the camera moves. For
// each pixel, its ray as the camera had it at the start of the exposure (at the depth the
// pixel shows now; the sky by its direction only) is projected into the frame: that is where
// what the pixel saw then is now, and what it saw during the exposure lies between. The pixel
// averages up to maxBlurTaps samples of the frame along the line from it to there. Moving
// objects' own motion is not included.

// maxBlurTaps is the most samples a pixel averages: a power of two, as every count is, so
// that an average of packed pixels is a shift. A lane holds 21 bits, so the sum of 32 linear
// values (16 bits each) with its rounding stays inside it.
const maxBlurTaps = 32

// blurSteps[lg] is a walk's step in 1/65536 pixels per pixel of its length for 1<<lg taps
// (1 to maxBlurTaps's log2): a table, as the division was a tenth of the blur's time.
var blurSteps = func() (s [6]float64) {
	for lg := 1; lg < len(s); lg++ {
		s[lg] = 65536 / float64(int(1)<<lg-1)
	}
	return s
}()

// blurState is the reprojection of a frame: a point q (forward, left, up) of the camera's
// frame at the start of the exposure is at M·q + c in its frame at the end.
type blurState struct {
	on bool
	m  mgl64.Mat3
	c  mgl64.Vec3
}

// prepareBlur sets up the reprojection for the camera and film, or turns blur off.
func (b *blurState) prepare(cam *Camera, film *Film) {
	b.on = false
	T := film.ShutterS
	if T <= 0 {
		return
	}
	w, v := cam.Motion.Angular, cam.Motion.Linear
	if w.Len()*T < 1e-7 && v.Len()*T < 1e-7 {
		return
	}
	R := cam.Rotation()
	Q := mgl64.Ident3()
	if a := w.Len() * T; a > 0 {
		Q = axisAngle(w.Normalize(), -a)
	}
	// Start of exposure: rotation Q·R, position pos − v·T. Its point q is the world point
	// P = pos − v·T + Q·R·q, at Rᵀ(P − pos) = Rᵀ·Q·R·q − Rᵀ·v·T in the camera's frame at the end.
	b.m = R.Transpose().Mul3(Q).Mul3(R)
	b.c = R.Transpose().Mul3x1(v.Mul(-T))
	b.on = true
}

// axisAngle is the rotation by angle a about unit axis k (Rodrigues).
func axisAngle(k mgl64.Vec3, a float64) mgl64.Mat3 {
	s, c := math.Sincos(a)
	x, y, z := k[0], k[1], k[2]
	t := 1 - c
	return mgl64.Mat3{
		t*x*x + c, t*x*y + s*z, t*x*z - s*y,
		t*x*y - s*z, t*y*y + c, t*y*z + s*x,
		t*x*z + s*y, t*y*z - s*x, t*z*z + c,
	}
}

// blurRows blurs rows [y0, y1) of the linear buffer into the blurred one, using the depths in
// z (metres when fs.depth, else 1/depth with 0 for the sky).
func (fs *frameState) blurRows(y0, y1 int) {
	b := &fs.blur
	v := &fs.view
	w, h := fs.w, fs.h
	src, dst := fs.real.lin, fs.real.blurred
	// M·(1, lx, uy) is linear along a row: a0 + x·a1.
	a1 := b.m.Mul3x1(mgl64.Vec3{0, -1 / v.fx, 0})
	for y := y0; y < y1; y++ {
		uy := (v.cy - (float64(y) + 0.5)) / v.fy
		a := b.m.Mul3x1(mgl64.Vec3{1, (v.cx - 0.5) / v.fx, uy})
		for x := range w {
			zq := float64(fs.z[y*w+x])
			d := 0.0
			switch {
			case fs.depth && zq < math.MaxFloat32:
				d = zq
			case !fs.depth && zq != 0:
				d = 1 / zq
			}
			q0, q1, q2 := a[0], a[1], a[2] // the sky: rotation only
			if d > 0 {
				q0, q1, q2 = d*a[0]+b.c[0], d*a[1]+b.c[1], d*a[2]+b.c[2]
			}
			a = a.Add(a1)
			o := y*w + x
			if q0 <= 1e-6 {
				dst[o] = src[o]
				continue
			}
			iq := 1 / q0
			// Where what the pixel saw at the start of the exposure is now, relative to it.
			mx := v.cx - v.fx*q1*iq - 0.5 - float64(x)
			my := v.cy - v.fy*q2*iq - 0.5 - float64(y)
			l := math.Abs(mx) + math.Abs(my)
			if l < 0.5 {
				dst[o] = src[o]
				continue
			}
			// A tap every two pixels or so, rounded up to a power of two.
			n := maxBlurTaps
			if l*0.5+2 < maxBlurTaps {
				n = int(l*0.5) + 2
			}
			lg := uint(bits.Len(uint(n - 1)))
			taps := 1 << lg
			// The far end of the walk, kept inside the image: the walk stays inside too.
			ex, ey := float64(x)+mx, float64(y)+my
			ex = max(0, min(ex, float64(w-1)))
			ey = max(0, min(ey, float64(h-1)))
			// Fixed-point walk from the pixel to there, 16 fractional bits, two taps a round
			// (taps is even) on two chains.
			X, Y := int64(x)<<16+1<<15, int64(y)<<16+1<<15
			step := blurSteps[lg]
			dX, dY := int64((ex-float64(x))*step), int64((ey-float64(y))*step)
			var sum, sum2 uint64
			for range taps / 2 {
				sum += src[int(Y>>16)*w+int(X>>16)]
				sum2 += src[int((Y+dY)>>16)*w+int((X+dX)>>16)]
				X, Y = X+2*dX, Y+2*dY
			}
			sum += sum2
			half := uint64(taps/2) * (1 | 1<<laneShift | 1<<(2*laneShift))
			dst[o] = (sum + half) >> lg & lanesLin
		}
	}
}
