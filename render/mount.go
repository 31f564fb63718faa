package render

import (
	"fmt"
	"maps"
	"math"
	"sync"

	"simgui/plugins"
)

// mountParams returns a camera mount's parameters with every absent one at its default
// (plugins.SensorParams("camera")).
func mountParams(given map[string]float64) map[string]float64 {
	p := maps.Clone(cameraDefaults()) // cloning the built defaults costs a reset less than building them
	maps.Copy(p, given)
	return p
}

// cameraDefaults is every camera parameter at its default; read only.
var cameraDefaults = sync.OnceValue(func() map[string]float64 {
	specs, _ := plugins.SensorParams(plugins.SensorCamera)
	p := make(map[string]float64, len(specs))
	for _, s := range specs {
		p[s.Name] = s.Default
	}
	return p
})

// MountCamera returns the camera a mount's parameters describe (plugins.SensorParams("camera"):
// fovDeg, near, far, the lens, the film) at width × height (the intrinsics fx..cy are for that
// size), without a pose, and the
// environment it sees the scene in: base's sky and ground (nil: DefaultEnvironment's) with the
// mount's look — realistic with its sun, ambient light, shadows and randomization, or base's
// flat look when realistic is 0. The film is nil in the flat look.
func MountCamera(params map[string]float64, width, height int, base *Environment) (Camera, Environment, error) {
	p := mountParams(params)
	cam := Camera{FovYDeg: p["fovDeg"], Near: p["near"], Far: p["far"], Width: width, Height: height}
	cam.Lens = Lens{Fx: p["fx"], Fy: p["fy"], Cx: p["cx"], Cy: p["cy"],
		K1: p["k1"], K2: p["k2"], K3: p["k3"], K4: p["k4"], P1: p["p1"], P2: p["p2"]}
	switch p["lensModel"] {
	case 0:
		if cam.Lens.distorted() {
			cam.Lens.Model = PlumbBob
		}
	case 1:
		cam.Lens.Model = Equidistant
	default:
		return Camera{}, Environment{}, fmt.Errorf("camera lensModel %g: want 0 (plumb_bob) or 1 (equidistant)", p["lensModel"])
	}
	if cam.Lens.Fx != 0 && cam.Lens.Fy == 0 {
		cam.Lens.Fy = cam.Lens.Fx
	}
	if cam.Lens.Fy != 0 && cam.Lens.Fx == 0 {
		cam.Lens.Fx = cam.Lens.Fy
	}
	if sx, sy, dx, dy := p["fxScale"], p["fyScale"], p["cxShift"], p["cyShift"]; sx != 1 || sy != 1 || dx != 0 || dy != 0 {
		fx, fy, cx, cy := cam.Intrinsics()
		cam.Lens.Fx, cam.Lens.Fy = fx*sx, fy*sy
		cam.Lens.Cx, cam.Lens.Cy = cx+dx*float64(width), cy+dy*float64(height)
	}
	env := DefaultEnvironment()
	if base != nil {
		env = *base
	}
	if p["realistic"] == 0 {
		env.Realistic = false
		return cam, env, cam.Validate()
	}
	wb := [3]float64{p["wbR"], p["wbG"], p["wbB"]}
	if wb == ([3]float64{}) {
		// Each gain 0 takes its channel away, all three too; Film's zero WhiteBalance would
		// mean no white balance instead.
		wb = [3]float64{math.SmallestNonzeroFloat64, math.SmallestNonzeroFloat64, math.SmallestNonzeroFloat64}
	}
	cam.Film = &Film{Exposure: p["exposure"], Gamma: p["gamma"], WhiteBalance: wb,
		Vignette: p["vignette"], ReadNoise: p["readNoise"], ShotNoise: p["shotNoise"], ShutterS: p["shutterS"]}
	env = lookEnvironment(env, p)
	return cam, env, cam.Validate()
}

// lookEnvironment is base with the realistic look of mount parameters p (all present).
func lookEnvironment(base Environment, p map[string]float64) Environment {
	e := base
	e.Realistic = true
	e.LightDir = SunDirection(p["sunAzimuthDeg"], p["sunElevationDeg"])
	e.Diffuse = p["sunIntensity"]
	e.SunColor = [3]float64{p["sunR"], p["sunG"], p["sunB"]}
	e.Ambient = p["ambient"]
	if e.AmbientColor == ([3]float64{}) {
		e.AmbientColor = skyLight
	}
	if e.SkyIntensity == 0 {
		e.SkyIntensity = 1
	}
	e.Shadows = p["shadows"] != 0
	e.ContactShadow = p["contactShadow"]
	e.Seed = uint64(p["lookSeed"])
	e.TextureSwap = p["textureSwap"]
	e.ColorJitter = p["colorJitter"]
	e.Distractors = int(p["distractors"])
	return e
}

// skyLight is the colour of the ambient (sky) light of the realistic look: a little blue.
var skyLight = [3]float64{0.9, 0.96, 1.08}

// MountIsRealistic reports whether a camera with mount parameters params draws through the
// realistic pipeline (the realistic look, or a lens that distorts), whose buffers take several
// times the flat look's per pixel. Parameters that do not make a camera count as flat.
func MountIsRealistic(params map[string]float64) bool {
	cam, env, err := MountCamera(params, 64, 48, nil)
	return err == nil && (env.Realistic || cam.Film != nil || cam.Lens.distorted())
}

// MountView returns how far a camera mount (params as MountCamera takes them) drawing
// width × height pixels sees to each side of its optical axis along the frame's principal
// row: left and right, radians, each at least 0. Its intrinsics (fx, fy, cx, cy and their
// jitter) and lens distortion are included, as the camera draws them: a view from above that
// drew fovDeg's fan showed a calibrated camera's, or a fisheye's, field as the fovDeg it
// leaves unused. ok is false when the parameters make no camera (Camera.Validate).
func MountView(params map[string]float64, width, height int) (left, right float64, ok bool) {
	cam, _, err := MountCamera(params, width, height, nil)
	if err != nil {
		return 0, 0, false
	}
	left, right = cam.edgeAngles()
	return left, right, true
}

// edgeAngles returns how far c sees to the left and the right of its axis along the
// principal row, radians: the directions of its frame's outer edges (Lens: pixel centres at
// whole coordinates, so the edges are half a pixel out), through its lens, up to where a
// distorted frame turns black (the lens's fold or MaxLensAngleDeg).
func (c *Camera) edgeAngles() (left, right float64) {
	fx, _, cx, _ := c.Intrinsics()
	l := &c.Lens
	side := func(xd float64) float64 { // xd: the edge's distorted normalized x, signed
		if !l.distorted() {
			return math.Atan(math.Abs(xd))
		}
		fold := l.fold()
		if x, _, ok := l.undistort(xd, 0, fold); ok {
			return math.Atan(math.Abs(x))
		}
		// Past what the lens draws: the last direction drawn before the edge, by bisection
		// along the row (the drawn part is the one around the axis).
		lo, hi := 0.0, xd
		for range 50 {
			mid := (lo + hi) / 2
			if _, _, ok := l.undistort(mid, 0, fold); ok {
				lo = mid
			} else {
				hi = mid
			}
		}
		x, _, _ := l.undistort(lo, 0, fold)
		return math.Atan(math.Abs(x))
	}
	return side(-(cx + 0.5) / fx), side((float64(c.Width) - 0.5 - cx) / fx)
}
