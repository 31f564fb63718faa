package render

import (
	"bytes"
	"encoding/json"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"simgui/plugins"
)

// arucoSeen is a marker OpenCV found: its id and corners clockwise from its top left.
type arucoSeen struct {
	ID      int          `json:"id"`
	Corners [][2]float64 `json:"corners"`
}

// opencvAruco returns the markers OpenCV's detectMarkers finds in each frame.
func opencvAruco(t *testing.T, frames ...*Frame) [][]arucoSeen {
	t.Helper()
	dir := t.TempDir()
	args := []string{"testdata/opencv_aruco.py"}
	for i, f := range frames {
		var b bytes.Buffer
		if err := png.Encode(&b, f.Image()); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, string(rune('a'+i))+".png")
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, p)
	}
	var stderr bytes.Buffer
	cmd := exec.Command(python, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s with OpenCV (python3-opencv; run build/setup.sh): %v\n%s", python, err, stderr.String())
	}
	var res struct {
		Frames [][]arucoSeen `json:"frames"`
		OpenCV string        `json:"opencv"`
	}
	if err := json.Unmarshal(out, &res); err != nil || len(res.Frames) != len(frames) {
		t.Fatalf("OpenCV answered %q: %v", out, err)
	}
	t.Logf("OpenCV %s", res.OpenCV)
	return res.Frames
}

// TestArucoMarkersOpenCVFinds renders an ArUco marker on a wall (the flat look) and one on the
// floor (the realistic look through a distorting lens, with film noise): OpenCV's detector
// finds each with its id, its corners within 1.5 px of where the camera projects the marker's
// black square's corners.
func TestArucoMarkersOpenCVFinds(t *testing.T) {
	const side = 0.12
	h := side / 2
	wallID, floorID := 7, 23
	layout := &plugins.Layout{
		Floor: plugins.Floor{X: 1, Length: 4, Width: 4, Color: "#7a7a70"},
		Elements: []plugins.Element{
			{Kind: plugins.ElementWall, X: 1.51, Length: 3, Width: 0.02, Height: 0.5, YawDeg: 90, Color: "#b8966a"},
			{Kind: plugins.ElementMarker, X: 1.5, Y: 0.05, Z: 0.2, Length: side, YawDeg: 180, ArucoID: &wallID},
			{Kind: plugins.ElementMarker, X: 0.8, Y: -0.03, Length: side, ArucoID: &floorID},
		},
	}
	// Seen from the origin side: the wall marker's right is -y, its top +z; the floor
	// marker's top is +x (its yaw), its right -y.
	wallAt := mgl64.Vec3{1.5, 0.05, 0.2}
	wallCorners := []mgl64.Vec3{wallAt.Add(mgl64.Vec3{0, h, h}), wallAt.Add(mgl64.Vec3{0, -h, h}),
		wallAt.Add(mgl64.Vec3{0, -h, -h}), wallAt.Add(mgl64.Vec3{0, h, -h})}
	floorAt := mgl64.Vec3{0.8, -0.03, markerLift}
	floorCorners := []mgl64.Vec3{floorAt.Add(mgl64.Vec3{h, h, 0}), floorAt.Add(mgl64.Vec3{h, -h, 0}),
		floorAt.Add(mgl64.Vec3{-h, -h, 0}), floorAt.Add(mgl64.Vec3{-h, h, 0})}

	flatCam := Camera{Pose: Pose{X: 0.9, Z: 0.2}, FovYDeg: 50, Near: 0.02, Far: 10, Width: 320, Height: 240}
	flat := render(t, flatCam, mustStatic(t, layout, nil), nil, Options{Workers: 1})

	env := realEnv(200, 50)
	realCam := Camera{Pose: Pose{X: 0.45, Z: 0.3, Pitch: 0.75}, FovYDeg: 60, Near: 0.02, Far: 10, Width: 320, Height: 240,
		Lens: Lens{Model: PlumbBob, K1: -0.2, K2: 0.04, P1: 0.001, P2: -0.0008},
		Film: &Film{Exposure: 1.1, WhiteBalance: [3]float64{1.04, 1, 0.94}, Vignette: 0.3, ReadNoise: 1.2, ShotNoise: 3}, Seed: 5}
	real := render(t, realCam, mustStatic(t, layout, &env), nil, Options{Workers: 1})

	seen := opencvAruco(t, flat, real)
	for i, c := range []struct {
		name    string
		cam     Camera
		id      int
		corners []mgl64.Vec3
	}{
		{"on the wall, flat", flatCam, wallID, wallCorners},
		{"on the floor, realistic", realCam, floorID, floorCorners},
	} {
		var got *arucoSeen
		for k := range seen[i] {
			if seen[i][k].ID == c.id {
				got = &seen[i][k]
			}
		}
		if got == nil || len(got.Corners) != 4 {
			t.Errorf("%s: OpenCV found %v, not marker %d", c.name, seen[i], c.id)
			continue
		}
		for k, p := range c.corners {
			u, v, _, ok := c.cam.Project(p)
			// OpenCV's pixel centres are whole numbers; the renderer's are at .5.
			if d := math.Hypot(got.Corners[k][0]-(u-0.5), got.Corners[k][1]-(v-0.5)); !ok || d > 1.5 {
				t.Errorf("%s: corner %d found at %v, projected at (%.1f, %.1f): %.2f px apart", c.name, k, got.Corners[k], u-0.5, v-0.5, d)
			}
		}
	}
}
