package window

import (
	"math"
	"strconv"
	"sync"

	"simgui/plugins"
	"simgui/render"
)

// views caches cameraView's answers for lensed cameras: finding where a distorted frame's edge
// looks takes the lens's inverse, too slow to redo for every robot at every frame of a fleet.
// Its keys are a camera's plugins.CameraViewParams and frame size, written out in key.
var views = struct {
	sync.Mutex
	m   map[string][2]float64
	key []byte
}{m: map[string][2]float64{}}

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
	views.Lock()
	defer views.Unlock()
	k := strconv.AppendInt(views.key[:0], int64(w), 10)
	k = strconv.AppendInt(append(k, 'x'), int64(h), 10)
	for _, name := range plugins.CameraViewParams {
		k = strconv.AppendFloat(append(k, ' '), s.Param(name), 'g', -1, 64)
	}
	views.key = k
	if v, ok := views.m[string(k)]; ok { // no string made for the lookup
		return v[0], v[1]
	}
	params := make(map[string]float64, len(plugins.CameraViewParams))
	for _, name := range plugins.CameraViewParams {
		params[name] = s.Param(name)
	}
	left, right, ok := render.MountView(params, w, h)
	if !ok {
		left, right = pinhole()
	}
	if len(views.m) >= maxViews { // randomized lenses make new keys at every reset
		clear(views.m)
	}
	views.m[string(k)] = [2]float64{left, right}
	return left, right
}
