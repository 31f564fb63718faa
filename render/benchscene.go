package render

import (
	"math"

	"simgui/plugins"
)

// corridorLayout is cardboard_corridor.v1: a closed L of cardboard 0.60 m wide, walls 0.25 m
// high and 0.02 m thick, leg A along +y from y = −1.10 to 0, leg B along +x to x = 0.90, on
// plywood, with an ArUco-like marker on the end wall.
func corridorLayout() *plugins.Layout {
	const h, t = 0.25, 0.02
	wall := func(name string, x, y, length, yawDeg float64) plugins.Element {
		return plugins.Element{Kind: plugins.ElementWall, Name: name, X: x, Y: y,
			Length: length, Width: t, Height: h, YawDeg: yawDeg, Color: "#b8966a"}
	}
	return &plugins.Layout{
		Floor: plugins.Floor{X: 0.3, Y: -0.4, Length: 1.8, Width: 2.0, Texture: "plywood"},
		Elements: []plugins.Element{
			wall("outer-west", -0.31, -0.40, 1.44, 90),
			wall("outer-north", 0.30, 0.31, 1.24, 0),
			wall("inner-east", 0.31, -0.71, 0.82, 90),
			wall("inner-south", 0.61, -0.31, 0.62, 0),
			wall("start", 0, -1.11, 0.64, 0),
			wall("end", 0.91, 0, 0.64, 90),
			{Kind: plugins.ElementMarker, Name: "aruco-border", X: 0.90, Y: 0, Z: 0.125, Length: 0.12, YawDeg: 180, Color: "#f4f4f4"},
			{Kind: plugins.ElementMarker, Name: "aruco", X: 0.899, Y: 0, Z: 0.125, Length: 0.08, YawDeg: 180, Color: "#101010"},
		},
	}
}

// benchScene is the scene the speed claims are measured in: a KS0223 at the corridor's spawn
// point, a second one ahead of it in view, and the first one's camera.
type benchScene struct {
	static *Static
	dyn    []Object
}

func newBenchScene() (*benchScene, error) {
	st, err := NewStatic(corridorLayout(), nil)
	if err != nil {
		return nil, err
	}
	own, err := NewVehicleMesh(VehicleSpec{Shape: "ks0223"})
	if err != nil {
		return nil, err
	}
	other, err := NewVehicleMesh(VehicleSpec{Shape: "ks0223", Color: "#2060c8", Accent: "#f0f0f0"})
	if err != nil {
		return nil, err
	}
	return &benchScene{static: st, dyn: []Object{
		{Mesh: own, Pose: Pose{X: 0, Y: -0.85, Yaw: math.Pi / 2}},
		{Mesh: other, Pose: Pose{X: 0.04, Y: -0.28, Yaw: math.Pi / 2 * 1.6}},
	}}, nil
}

// benchCamera is the KS0223 camera at the spawn point: (0, −0.73, 0.09), looking along +y,
// pitched 6° down, vertical field of view 68°.
func benchCamera(w, h int) Camera {
	return Camera{
		Pose:    Pose{X: 0, Y: -0.73, Z: 0.09, Yaw: math.Pi / 2, Pitch: 6 * math.Pi / 180},
		FovYDeg: 68, Near: 0.03, Far: 50, Width: w, Height: h,
	}
}

// BenchScene returns the scene of the renderer's speed claims (render/renderbench): the
// corridor's static part and the two KS0223s.
func BenchScene() (*Static, []Object, error) {
	sc, err := newBenchScene()
	if err != nil {
		return nil, nil, err
	}
	return sc.static, sc.dyn, nil
}

// BenchCamera is the camera of BenchScene at w×h: the first KS0223's.
func BenchCamera(w, h int) Camera { return benchCamera(w, h) }
