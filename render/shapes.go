package render

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// Colours of parts every shape shares.
var (
	colorTyre  = RGB{28, 28, 30}
	colorDark  = RGB{48, 48, 52}
	colorMetal = RGB{196, 198, 202}
	colorLamp  = RGB{250, 238, 170}
	colorTail  = RGB{200, 30, 30}
)

func init() {
	RegisterShape("ks0223", ShapeParams{Length: 0.25, Width: 0.15, Height: 0.15,
		Color: RGB{200, 48, 40}, Accent: RGB{240, 196, 40}}, ks0223)
	RegisterShape("car", ShapeParams{Length: 0.52, Width: 0.34, Height: 0.16,
		Color: RGB{32, 96, 200}, Accent: RGB{40, 52, 66}}, car)
	RegisterShape("drone", ShapeParams{Length: 0.40, Width: 0.40, Height: 0.10,
		Color: RGB{230, 230, 235}, Accent: RGB{230, 60, 40}}, drone)
	RegisterShape("box", ShapeParams{Length: 0.30, Width: 0.20, Height: 0.15,
		Color: RGB{140, 140, 150}, Accent: RGB{250, 200, 40}}, boxShape)
}

// wheels adds four tyres (axis along y) of radius r and width ww at x = ±x, flush with the
// vehicle's sides at y = ±w/2.
func wheels(b *MeshBuilder, x, w, r, ww float64) {
	for _, sx := range [2]float64{-1, 1} {
		for _, sy := range [2]float64{-1, 1} {
			yo, yi := sy*w/2, sy*(w/2-ww)
			b.Cylinder(mgl64.Vec3{sx * x, yi, r}, mgl64.Vec3{sx * x, yo, r}, r, 10, colorTyre)
		}
	}
}

// ks0223 is the Keyestudio 4WD kit: a low chassis of two plates on four tyres with yellow
// motors, a battery pack, a controller board, the ultrasonic sensor's two eyes at the nose and
// the camera on a small mast at the front.
func ks0223(b *MeshBuilder, p ShapeParams) {
	L, W, H := p.Length, p.Width, p.Height
	r := math.Min(0.22*H, 0.14*L)
	ww := 0.18 * W
	wheels(b, 0.28*L, W, r, ww)
	inner := W/2 - ww - 0.03*W
	for _, sx := range [2]float64{-1, 1} { // the motors between the plates
		b.Span(sx*0.28*L-0.09*L, sx*0.28*L+0.09*L, -inner, inner, 0.6*r, 1.35*r, p.Accent)
	}
	z0 := 0.6 * r
	z1 := z0 + 0.05*H // bottom plate
	z2 := 1.35 * r    // top plate
	z3 := z2 + 0.05*H
	b.Span(-0.46*L, 0.46*L, -inner, inner, z0, z1, p.Color)
	b.Span(-0.44*L, 0.40*L, -inner, inner, z2, z3, p.Color)
	b.Span(-0.30*L, 0.12*L, -0.26*W, 0.26*W, z3, z3+0.12*H, colorDark)         // battery pack
	b.Span(-0.40*L, -0.05*L, -0.30*W, 0.30*W, z3, z3+0.05*H, RGB{30, 110, 60}) // controller board
	// Ultrasonic sensor at the nose: a blue board and two metal eyes looking forward.
	b.Span(0.44*L, 0.47*L, -0.24*W, 0.24*W, z0, z2, RGB{40, 90, 200})
	for _, sy := range [2]float64{-1, 1} {
		b.Cylinder(mgl64.Vec3{0.47 * L, sy * 0.12 * W, (z0 + z2) / 2},
			mgl64.Vec3{0.52 * L, sy * 0.12 * W, (z0 + z2) / 2}, 0.07*W, 8, colorMetal)
	}
	// Camera mast: the lens sits 0.6·H up at the nose (the KS0223 camera mount).
	b.Span(0.36*L, 0.40*L, -0.03*W, 0.03*W, z3, 0.55*H, colorDark)
	b.Span(0.36*L, 0.46*L, -0.10*W, 0.10*W, 0.53*H, 0.67*H, colorTyre)
	b.Span(0.46*L, 0.48*L, -0.04*W, 0.04*W, 0.57*H, 0.63*H, colorMetal)
}

// car is a small arcade car: a body, a cabin set back (windows in the accent colour, roof in the
// main colour), dark tyres, headlights in front and tail lights behind.
func car(b *MeshBuilder, p ShapeParams) {
	L, W, H := p.Length, p.Width, p.Height
	r := math.Min(0.28*H, 0.12*L)
	wheels(b, 0.33*L, W, r, 0.14*W)
	top := 0.55 * H
	b.Span(-0.5*L, 0.5*L, -0.47*W, 0.47*W, 0.45*r, top, p.Color)
	b.Span(-0.32*L, 0.12*L, -0.40*W, 0.40*W, top, 0.93*H, p.Accent)
	b.Span(-0.34*L, 0.08*L, -0.42*W, 0.42*W, 0.93*H, H, p.Color)
	for _, sy := range [2]float64{-1, 1} {
		b.Span(0.49*L, 0.505*L, sy*0.26*W, sy*0.42*W, 0.38*H, 0.48*H, colorLamp)
		b.Span(-0.505*L, -0.49*L, sy*0.28*W, sy*0.42*W, 0.38*H, 0.46*H, colorTail)
	}
}

// drone is a quadcopter: a body with a nose, four arms on the diagonals with motors, the two
// front rotors in the accent colour and the rear ones grey, and two landing skids.
func drone(b *MeshBuilder, p ShapeParams) {
	L, W, H := p.Length, p.Width, p.Height
	b.Span(-0.16*L, 0.16*L, -0.11*W, 0.11*W, 0.35*H, 0.75*H, p.Color)
	b.Span(0.16*L, 0.22*L, -0.05*W, 0.05*W, 0.45*H, 0.65*H, p.Accent)
	rr := 0.15 * math.Min(L, W)
	for _, sx := range [2]float64{-1, 1} {
		for _, sy := range [2]float64{-1, 1} {
			ex, ey := sx*0.33*L, sy*0.33*W
			arm := math.Hypot(ex, ey)
			b.Box(mgl64.Vec3{ex / 2, ey / 2, 0.6 * H}, mgl64.Vec3{arm, 0.04 * L, 0.08 * H},
				math.Atan2(ey, ex), colorDark)
			b.Cylinder(mgl64.Vec3{ex, ey, 0.5 * H}, mgl64.Vec3{ex, ey, 0.82 * H}, 0.045*L, 8, colorDark)
			rotor := RGB{110, 110, 115}
			if sx > 0 {
				rotor = p.Accent
			}
			b.Cylinder(mgl64.Vec3{ex, ey, 0.82 * H}, mgl64.Vec3{ex, ey, 0.88 * H}, rr, 12, rotor)
		}
	}
	for _, sy := range [2]float64{-1, 1} {
		b.Span(-0.18*L, 0.18*L, sy*0.10*W, sy*0.13*W, 0, 0.05*H, colorDark)
		b.Span(-0.02*L, 0.02*L, sy*0.10*W, sy*0.12*W, 0.05*H, 0.35*H, colorDark)
	}
}

// boxShape is a plain box with an accent arrow on its top pointing forward and an accent band
// across its front face.
func boxShape(b *MeshBuilder, p ShapeParams) {
	L, W, H := p.Length, p.Width, p.Height
	b.Span(-L/2, L/2, -W/2, W/2, 0, H, p.Color)
	// Ignore the error: the arrow is a fixed, simple triangle.
	_ = b.Prism([][2]float64{{0.42 * L, 0}, {-0.2 * L, 0.32 * W}, {-0.2 * L, -0.32 * W}}, H, H+0.02*H, p.Accent)
	b.Span(L/2, L/2+0.01*L, -0.45*W, 0.45*W, 0.55*H, 0.8*H, p.Accent)
}
