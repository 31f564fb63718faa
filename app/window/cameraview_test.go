package window

import (
	"math"
	"testing"

	"simgui/app/world"
	"simgui/plugins"
)

// The frustum drawn from above spans what the camera draws: a calibrated camera's fx (its
// fovDeg left at the default 68°) and a principal point off centre. It was drawn from fovDeg
// alone, ±42° where the camera sees 28° to its left and 37° to its right.
func TestFrustumFollowsTheIntrinsics(t *testing.T) {
	v := &plugins.VehicleDescriptor{
		Sensors: []plugins.SensorMount{{ID: "cam", Kind: plugins.SensorCamera, Params: map[string]float64{"fx": 300, "cx": 120}}},
		Contract: &plugins.DeviceContract{Sensors: []plugins.SensorDescriptor{
			{ID: "cam", SensorType: plugins.SensorCamera, Shape: []int{240, 320, 3}}}},
	}
	m := &world.ModelState{Vehicle: v}
	vw := &view{Scale: 200, W: 800, H: 600}
	var b batch
	sensorFans(vw, &b, m, nil, nil, nil)
	if len(b.vs) < 4 {
		t.Fatalf("no fan drawn: %d vertices", len(b.vs))
	}
	cx, cy := vw.toWorld(float64(b.vs[0].DstX), float64(b.vs[0].DstY))
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, vx := range b.vs[1:] {
		x, y := vw.toWorld(float64(vx.DstX), float64(vx.DstY))
		if math.Hypot(x-cx, y-cy) < 1 { // the outline's ends at the apex
			continue
		}
		a := math.Atan2(y-cy, x-cx) * 180 / math.Pi
		lo, hi = min(lo, a), max(hi, a)
	}
	wantLeft, wantRight := math.Atan(120.5/300)*180/math.Pi, math.Atan(199.5/300)*180/math.Pi
	if math.Abs(hi-wantLeft) > 0.1 || math.Abs(-lo-wantRight) > 0.1 {
		t.Errorf("frustum spans %.1f° left and %.1f° right, want %.1f° and %.1f°", hi, -lo, wantLeft, wantRight)
	}
}

// A fleet whose lenses domain randomization drew apart keeps them all cached between frames:
// with room for 256, a fleet of 1,000 emptied the cache every frame and worked each lens out
// again (the lens's inverse), 60-90 ms a frame.
func TestCameraViewsOfAFleetStayCached(t *testing.T) {
	views.Lock()
	clear(views.m)
	views.Unlock()
	const n = 1000
	mounts := make([]plugins.SensorMount, n)
	for i := range mounts {
		mounts[i] = plugins.SensorMount{ID: "cam", Kind: plugins.SensorCamera, Params: map[string]float64{
			"fxScale": 0.8 + 0.4*float64(i)/n, "k1": -0.3 + 0.1*float64(i)/n}}
	}
	for range 2 { // two frames
		for i := range mounts {
			cameraView(&mounts[i], 640, 480)
		}
	}
	views.Lock()
	cached := len(views.m)
	views.Unlock()
	if cached != n {
		t.Errorf("%d lenses cached after two frames of %d robots, each with its own lens; want all", cached, n)
	}
}
