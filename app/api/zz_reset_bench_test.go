package api

import (
	"fmt"
	"testing"
	"time"
)

func TestZZVisualReset(t *testing.T) {
	s := startServer(t, Options{Scenario: randomizedScenario(t), Now: fixedClock})
	for _, flags := range []string{`"flags": []`, visualFlags} {
		t0 := time.Now()
		for i := range 60 {
			s.ok("/reset", fmt.Sprintf(`{"seed": %d, "vehicleParams": [{"key": "camera.width", "value": "84"},
			{"key": "camera.height", "value": "84"}], %s}`, i, flags))
		}
		t.Logf("%.1f ms a reset", float64(time.Since(t0).Microseconds())/60/1000)
	}
}
