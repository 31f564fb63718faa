package window

import (
	"math"
	"sync"

	"simgui/plugins"
	"simgui/render"
)

// lensParams are the camera parameters that decide how far it sees across its frame
// (render.MountCamera's intrinsics and lens); the others (clip range, film, look) do not.
var lensParams = [...]string{"fovDeg", "fx", "fy", "cx", "cy", "fxScale", "fyScale", "cxShift", "cyShift",
	"lensModel", "k1", "k2", "k3", "k4", "p1", "p2"}

// viewKey is a camera's lens parameters and frame size: what its view across depends on.
type viewKey struct {
	p    [len(lensParams)]float64
	w, h int
}

// views caches cameraView's answers for lensed cameras: finding where a distorted frame's edge
// looks takes the lens's inverse, too slow to redo for every robot at every frame of a fleet.
var views = struct {
	sync.Mutex
	m map[viewKey][2]float64
}{m: map[viewKey][2]float64{}}

// maxViews bounds views: room for a fleet of the largest reset (10,000 agents) whose lenses
// domain randomization draws apart, at about 200 bytes an entry (3 MB). With 256, such a fleet
// of 1,000 emptied the cache every frame and recomputed each lens: 60-90 ms a frame.
const maxViews = 16384

// cameraView is how far a camera or depth mount drawing w × h pixels sees to the left and the
// right of its heading, radians: as the camera draws it, with its intrinsics and lens (a
// calibrated camera's fx, a fisheye), which leave its fovDeg unused. A depth camera has only
// its fovDeg.
func cameraView(s *plugins.SensorMount, w, h int) (left, right float64) {
	pinhole := func() (float64, float64) {
		half := math.Atan(math.Tan(s.Param("fovDeg")*math.Pi/360) * float64(w) / float64(h))
		return half, half
	}
	if s.Kind != plugins.SensorCamera {
		return pinhole()
	}
	k := viewKey{w: w, h: h}
	for i, name := range lensParams {
		k.p[i] = s.Param(name)
	}
	views.Lock()
	defer views.Unlock()
	if v, ok := views.m[k]; ok {
		return v[0], v[1]
	}
	params := make(map[string]float64, len(lensParams))
	for i, name := range lensParams {
		params[name] = k.p[i]
	}
	left, right, ok := render.MountView(params, w, h)
	if !ok {
		left, right = pinhole()
	}
	if len(views.m) >= maxViews { // randomized lenses make new keys at every reset
		clear(views.m)
	}
	views.m[k] = [2]float64{left, right}
	return left, right
}
