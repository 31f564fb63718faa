package api

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"simgui/app"
	"simgui/app/scenario"
	"simgui/plugins"
)

// A step that reaches worlds stopped with the runtime is answered as a reset then is, "The
// runtime is shutting down.", not as a step that failed ("Step failed: world loop stopped").
func TestStepAfterTheRuntimeStopped(t *testing.T) {
	plan, err := scenario.Resolve(scenario.Default(), plugins.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	h := app.NewHost(app.HostOptions{Logger: slog.New(slog.DiscardHandler)})
	sim, err := h.Build(plan, app.BuildOptions{Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	h.SetScenario(sim)
	t.Cleanup(func() { h.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx) }()
	<-h.Running()
	s := startServer(t, Options{Host: h})
	s.ok("/reset", `{"seed":1}`)
	s.ok("/step", `{"throttle":0.5}`)
	if h.Stopping() {
		t.Fatal("the host says it is stopping while it runs")
	}
	cancel()
	if err := <-done; err != nil {
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
