package render

import (
	"fmt"
	"image"
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"simgui/plugins"
)

// Pose places a camera or an object in the world frame (x east, y north, z up).
//
// The rotation is R = Rz(Yaw)·Ry(Pitch)·Rx(Roll), right-handed about the body's own axes
// x forward, y left, z up (ROS REP-103, SDF): Yaw turns counter-clockwise seen from above,
// positive Pitch tips the nose DOWN, positive Roll lowers the right side.
type Pose struct {
	X, Y, Z          float64 // metres
	Yaw, Pitch, Roll float64 // radians
}

// Rotation returns R, whose columns are the body's forward, left and up axes in the world frame.
func (p Pose) Rotation() mgl64.Mat3 {
	return mgl64.Rotate3DZ(p.Yaw).Mul3(mgl64.Rotate3DY(p.Pitch)).Mul3(mgl64.Rotate3DX(p.Roll))
}

// Pos returns the position as a vector.
func (p Pose) Pos() mgl64.Vec3 { return mgl64.Vec3{p.X, p.Y, p.Z} }

// Compose returns the world pose of a frame given as local in p's body frame, for example a
// camera mounted on a vehicle: vehicle.Compose(PoseFromPose3(mount.Pose)).
func (p Pose) Compose(local Pose) Pose {
	r := p.Rotation()
	t := p.Pos().Add(r.Mul3x1(local.Pos()))
	out := poseFromRotation(r.Mul3(local.Rotation()))
	out.X, out.Y, out.Z = t[0], t[1], t[2]
	return out
}

// poseFromRotation extracts yaw, pitch and roll from R = Rz·Ry·Rx. At pitch ±90° roll is set
// to 0 and yaw carries the whole turn.
func poseFromRotation(r mgl64.Mat3) Pose {
	sp := -r.At(2, 0)
	sp = max(-1, min(1, sp))
	pitch := math.Asin(sp)
	if math.Abs(sp) > 1-1e-12 {
		return Pose{Pitch: pitch, Yaw: math.Atan2(-r.At(0, 1), r.At(1, 1))}
	}
	return Pose{
		Yaw:   math.Atan2(r.At(1, 0), r.At(0, 0)),
		Pitch: pitch,
		Roll:  math.Atan2(r.At(2, 1), r.At(2, 2)),
	}
}

// PoseFromPose3 converts a descriptor pose (degrees) to a Pose (radians); the angle conventions
// are the same.
func PoseFromPose3(p plugins.Pose3) Pose {
	return Pose{X: p.X, Y: p.Y, Z: p.Z,
		Yaw: mgl64.DegToRad(p.YawDeg), Pitch: mgl64.DegToRad(p.PitchDeg), Roll: mgl64.DegToRad(p.RollDeg)}
}

// Camera is a pinhole camera, optionally with a lens (intrinsics and distortion) and a film
// (exposure, white balance, vignetting, noise, motion blur, gamma). Its optical axis is the
// pose's forward (x) axis; image right is the pose's -y (right) and image up its +z. Pixel
// (col, row) covers [col, col+1) × [row, row+1) with row 0 at the top, and is sampled at its
// centre (col+0.5, row+0.5). With the zero Lens, pixels are square and the principal point is
// the image centre: a camera-frame point (forward d, left l, up u) with d > 0 projects to
//
//	col = Width/2 − f·l/d,  row = Height/2 − f·u/d,  f = (Height/2) / tan(FovYDeg/2)
//
// so the horizontal field of view follows from the aspect ratio. A Lens gives fx, fy, cx, cy
// and distortion in OpenCV's pixel convention instead (col = u + 0.5 for OpenCV's u).
type Camera struct {
	Pose
	// FovYDeg is the vertical field of view in degrees, 0 < FovYDeg < 180.
	FovYDeg float64
	// Near and Far clip geometry by planar depth (metres along the optical axis),
	// 0 < Near < Far. Nothing nearer than Near or farther than Far is drawn, floor included.
	Near, Far float64
	// Width and Height are the image size in pixels.
	Width, Height int

	// Lens is the intrinsics and distortion; the zero Lens is the plain pinhole above.
	Lens Lens
	// Film, when set, exposes and encodes the frame the realistic way (see Film); nil draws
	// a realistic Static with the default film and a flat one as it is.
	Film *Film
	// Motion is how the camera moves during the exposure, for Film.ShutterS's motion blur.
	Motion Motion
	// Seed seeds the film's noise for this frame: the same seed gives the same noise.
	Seed uint64
	// Gains, when set, maps every colour of the frame through the table: the same bytes as
	// drawing without it and then calling Gains.Apply, without that pass over the frame. The
	// realistic look maps them after the film.
	Gains *GainTable
}

// Motion is a camera's velocity in the world frame: Linear in m/s, Angular in rad/s about the
// world axes (a vehicle turning left has Angular = (0, 0, yaw rate)).
type Motion struct {
	Linear, Angular mgl64.Vec3
}

// Validate reports what is wrong with c, if anything.
func (c *Camera) Validate() error {
	switch {
	case c.Width <= 0 || c.Height <= 0:
		return fmt.Errorf("camera size %dx%d: want positive width and height", c.Width, c.Height)
	case !(c.FovYDeg > 0 && c.FovYDeg < 180):
		return fmt.Errorf("camera fovYDeg %g: want 0 < fov < 180", c.FovYDeg)
	case !(c.Near > 0 && c.Far > c.Near) || math.IsInf(c.Far, 0):
		return fmt.Errorf("camera near %g, far %g: want 0 < near < far < +Inf", c.Near, c.Far)
	}
	for _, v := range []float64{c.X, c.Y, c.Z, c.Yaw, c.Pitch, c.Roll} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("camera pose %+v: want finite numbers", c.Pose)
		}
	}
	if !finiteVec(c.Motion.Linear) || !finiteVec(c.Motion.Angular) {
		return fmt.Errorf("camera motion %+v: want finite numbers", c.Motion)
	}
	if err := c.Lens.Validate(); err != nil {
		return err
	}
	if c.Lens.distorted() && c.Width*c.Height > MaxDistortedPixels {
		return fmt.Errorf("camera %dx%d with lens distortion: at most %d pixels", c.Width, c.Height, MaxDistortedPixels)
	}
	if c.Film != nil {
		return c.Film.Validate()
	}
	return nil
}

// Resized returns c drawing w × h pixels of the same view: the intrinsics of its lens scale
// with the image (a preview of a camera's frame at another size).
func (c Camera) Resized(w, h int) Camera {
	if c.Lens.Fx != 0 || c.Lens.Cx != 0 || c.Lens.Cy != 0 {
		fx, fy, cx, cy := c.Intrinsics()
		kx, ky := float64(w)/float64(c.Width), float64(h)/float64(c.Height)
		c.Lens.Fx, c.Lens.Fy = fx*kx, fy*ky
		// Not exactly 0, which would mean the centre.
		c.Lens.Cx, c.Lens.Cy = nonZero((cx+0.5)*kx-0.5), nonZero((cy+0.5)*ky-0.5)
	}
	c.Width, c.Height = w, h
	return c
}

// Focal returns fy, the vertical focal length in pixels.
func (c *Camera) Focal() float64 {
	_, fy, _, _ := c.Intrinsics()
	return fy
}

// Project returns the image position (col, row, in pixels, fractional, lens distortion
// included) and planar depth of a world point; ok is false when the point is not in front of
// the camera (depth <= 0).
func (c *Camera) Project(p mgl64.Vec3) (col, row, depth float64, ok bool) {
	q := c.Rotation().Transpose().Mul3x1(p.Sub(c.Pos()))
	if q[0] <= 0 {
		return 0, 0, q[0], false
	}
	fx, fy, cx, cy := c.Intrinsics()
	x, y := -q[1]/q[0], -q[2]/q[0]
	if c.Lens.distorted() {
		x, y = c.Lens.distort(x, y)
	}
	return fx*x + cx + 0.5, fy*y + cy + 0.5, q[0], true
}

// Frame receives a rendered image. RGB holds Width·Height·3 bytes, rows top first, R, G, B per
// pixel. Depth holds Width·Height planar depths in metres (distance along the optical axis, as
// CLOiSim's depth camera gives), rows top first, +Inf where nothing was hit within Far. A nil
// RGB or Depth is not rendered, which saves time.
type Frame struct {
	Width, Height int
	RGB           []byte
	Depth         []float32
}

// NewFrame allocates a frame of w×h pixels with the buffers asked for.
func NewFrame(w, h int, rgb, depth bool) *Frame {
	f := &Frame{Width: w, Height: h}
	if rgb {
		f.RGB = make([]byte, w*h*3)
	}
	if depth {
		f.Depth = make([]float32, w*h)
	}
	return f
}

// At returns the colour of pixel (col, row). It panics when RGB is nil.
func (f *Frame) At(col, row int) RGB {
	i := (row*f.Width + col) * 3
	return RGB{f.RGB[i], f.RGB[i+1], f.RGB[i+2]}
}

// DepthAt returns the depth of pixel (col, row) in metres. It panics when Depth is nil.
func (f *Frame) DepthAt(col, row int) float32 { return f.Depth[row*f.Width+col] }

// Image copies the colour buffer into an image (for PNG files and the window).
func (f *Frame) Image() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, f.Width, f.Height))
	for i := range f.Width * f.Height {
		copy(img.Pix[4*i:4*i+3], f.RGB[3*i:3*i+3])
		img.Pix[4*i+3] = 255
	}
	return img
}

// DepthImage maps depth to grey for viewing: black at 0 m, white at maxDepth and beyond
// (including +Inf).
func (f *Frame) DepthImage(maxDepth float64) *image.Gray {
	img := image.NewGray(image.Rect(0, 0, f.Width, f.Height))
	for i, d := range f.Depth {
		img.Pix[i] = clamp8(255 * min(float64(d), maxDepth) / maxDepth)
	}
	return img
}

// nonZero returns x, or the smallest step off 0 when it is 0 (a principal point at the frame's
// edge rather than the centre 0 stands for).
func nonZero(x float64) float64 {
	if x == 0 {
		return math.SmallestNonzeroFloat64
	}
	return x
}
