package api

import (
	"net/http"
	"strings"
	"testing"

	"simgui/app/scenario"
)

// A step that reaches worlds stopped with the runtime is answered as a reset then is, "The
// runtime is shutting down.", not as a step that failed ("Step failed: world loop stopped").
func TestStepAfterTheRuntimeStopped(t *testing.T) {
	h, stop := runHost(t, scenario.Default())
	s := startServer(t, Options{Host: h})
	s.ok("/reset", `{"seed":1}`)
	s.ok("/step", `{"throttle":0.5}`)
	if h.Stopping() {
		t.Fatal("the host says it is stopping while it runs")
	}
	if err := stop(); err != nil {
		t.Fatalf("host: %v", err)
	}
	if !h.Stopping() {
		t.Fatal("the host's run returned, and it does not say it is stopping")
	}
	code, _, body := s.do(http.MethodPost, "/step", `{"throttle":0.5}`)
	if code != http.StatusInternalServerError || !strings.Contains(string(body), "The runtime is shutting down.") {
		t.Fatalf("step after the runtime stopped: %d %s", code, body)
	}
}
