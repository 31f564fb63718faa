package camera_test

import (
	"strings"
	"testing"

	"simgui/app/bench"
)

// BenchmarkCamera runs the registered sensors/camera cases: go test -bench Camera.
func BenchmarkCamera(b *testing.B) {
	for _, c := range bench.Cases() {
		if strings.HasPrefix(c.Name, "sensors/camera/") {
			b.Run(c.Name, c.F)
		}
	}
}
