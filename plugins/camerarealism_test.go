package plugins

import (
	"slices"
	"testing"
)

// CameraViewParams are fovDeg and the lens rows of the camera's table, not the film's or the
// look's, which do not change what the camera sees across its frame.
func TestCameraViewParams(t *testing.T) {
	want := []string{"fovDeg", "fx", "fy", "cx", "cy", "fxScale", "fyScale", "cxShift", "cyShift",
		"lensModel", "k1", "k2", "k3", "k4", "p1", "p2"}
	if !slices.Equal(CameraViewParams, want) {
		t.Fatalf("CameraViewParams = %v, want %v", CameraViewParams, want)
	}
}
