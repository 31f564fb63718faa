package bridge

import "testing"

// The `simgui bench` cases, also under `go test -bench`.

func BenchmarkRawZMQ4(b *testing.B)      { BenchRawZMQ4(b) }
func BenchmarkCamera(b *testing.B)       { BenchCamera(b) }
func BenchmarkEightCameras(b *testing.B) { BenchEightCameras(b) }
