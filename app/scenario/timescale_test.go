package scenario

import (
	"strings"
	"testing"
)

// TestRuntimeTimeScale: runtime.timeScale takes what a loop can keep (world.CheckTimeScale).
func TestRuntimeTimeScale(t *testing.T) {
	const head = "world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\nruntime: {timeScale: "
	for _, ok := range []string{"0", "0.25", "1000", "1e6"} {
		if p, err := resolveText(t, head+ok+"}\n"); err != nil || p == nil {
			t.Errorf("timeScale %s: %v", ok, err)
		}
	}
	for _, bad := range []string{".nan", ".inf", "-.inf", "-1", "1e18", "1000001"} {
		_, err := resolveText(t, head+bad+"}\n")
		if err == nil || !strings.Contains(err.Error(), "runtime.timeScale: ") {
			t.Errorf("timeScale %s: %v", bad, err)
		}
	}
}
