// Package apibench holds the training API's benchmarks for `simgui bench` and `go test
// -bench`.
//
// api/step/84x84 is one rusim step over HTTP with a keep-alive Go client: the command, an
// action period of world steps, telemetry and an 84×84 JPEG frame in the reply. Its baseline
// api/echo/84x84 is a bare net/http server answering the same request with a reply of the same
// size, so the ratio is the cost of simgui over the HTTP round trip itself.
//
// api/step/8-isolated steps 8 isolated agents together per request (the actions extension:
// 8 worlds stepped in parallel, 8 frames); it reports agent-steps/s.
package apibench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"simgui/app"
	"simgui/app/api"
	"simgui/app/bench"
	"simgui/app/scenario"
	"simgui/plugins"
)

func init() {
	bench.Register(bench.Case{Name: "api/echo/84x84", Doc: "baseline: net/http keep-alive round trip of a step request answered with a reply of the same size", F: benchEcho})
	bench.Register(bench.Case{Name: "api/step/84x84", Baseline: "api/echo/84x84", Doc: "POST /step over HTTP: 0.05 s of sim time, telemetry, an 84x84 JPEG frame", F: benchStep})
	bench.Register(bench.Case{Name: "api/step/8-isolated", Baseline: "api/step/84x84", Doc: "POST /step with 8 isolated agents stepped together (actions), 84x84 frames; per request", F: benchStepIsolated(8)})
}

const benchStepBody = `{"throttle":0.6,"steer":0.3,"brake":0,"targetAgentId":"ego","timestamp":0,"timeBase":"unix_ms","extensions":[]}`

// resetBody is the reset of the benchmarks: the KS0223 in the cardboard corridor, 84×84
// frames, n agents (isolated when n > 1).
func resetBody(n int) string {
	var agents []string
	for i := range n {
		id := "ego"
		if i > 0 {
			id = fmt.Sprintf("agent-%d", i+1)
		}
		agents = append(agents, fmt.Sprintf(`{"agentId":%q,"vehicleId":"vehicle.ks0223.v1","isPrimary":%v}`, id, i == 0))
	}
	return `{"seed":7,"selectedTrackId":"track.cardboard_corridor.v1","selectedVehicleId":"vehicle.ks0223.v1",` +
		`"vehicleParams":[{"key":"camera.width","value":"84"},{"key":"camera.height","value":"84"}],` +
		`"flags":[{"key":"agents.isolated","value":"true"}],"agents":[` + strings.Join(agents, ",") + `]}`
}

// benchClient is a keep-alive client, as rusim's requests.Session.
func benchClient() *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16, DisableCompression: true}, Timeout: 30 * time.Second}
}

func benchPost(b bench.B, c *http.Client, url, body string) []byte {
	r, err := c.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	out, err := io.ReadAll(r.Body)
	r.Body.Close()
	if err != nil {
		b.Fatal(err)
	}
	if r.StatusCode != http.StatusOK {
		b.Fatalf("%s: %d %s", url, r.StatusCode, out)
	}
	return out
}

// benchService serves the API on a host whose scenario world (the default one) is paused, as
// the process runs it.
func benchService(b bench.B) (*api.Service, string) {
	quiet := slog.New(slog.DiscardHandler)
	plan, err := scenario.Resolve(scenario.Default(), plugins.Builtin())
	if err != nil {
		b.Fatal(err)
	}
	h := app.NewHost(app.HostOptions{Logger: quiet})
	sim, err := h.Build(plan, app.BuildOptions{Paused: true})
	if err != nil {
		b.Fatal(err)
	}
	h.SetScenario(sim)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx) }()
	<-h.Running()
	svc, err := api.New(api.Options{Addr: "127.0.0.1:0", Scenario: plan.Scenario, Host: h, Logger: quiet})
	if err != nil {
		cancel()
		<-done
		h.Close()
		b.Fatal(err)
	}
	go svc.Serve(ctx)
	b.Cleanup(func() {
		svc.Shutdown(context.Background())
		cancel()
		<-done
		h.Close()
	})
	return svc, "http://" + svc.Addr().String()
}

// benchStep measures single-agent steps with an 84×84 frame; it reports steps/s.
func benchStep(b bench.B) {
	_, base := benchService(b)
	c := benchClient()
	benchPost(b, c, base+"/reset", resetBody(1))
	b.ReportAllocs()
	ops := 0
	for b.Loop() {
		benchPost(b, c, base+"/step", benchStepBody)
		ops++
	}
	b.ReportMetric(float64(ops)/b.Elapsed().Seconds(), "steps/s")
}

// benchStepIsolated measures n isolated agents stepped together per request; it reports
// agent-steps/s.
func benchStepIsolated(n int) func(bench.B) {
	return func(b bench.B) {
		_, base := benchService(b)
		c := benchClient()
		benchPost(b, c, base+"/reset", resetBody(n))
		acts := make([]string, n)
		for i := range n {
			id := "ego"
			if i > 0 {
				id = fmt.Sprintf("agent-%d", i+1)
			}
			acts[i] = fmt.Sprintf(`{"targetAgentId":%q,"throttle":0.6,"steer":%g}`, id, 0.1*float64(i%3))
		}
		body := `{"actions":[` + strings.Join(acts, ",") + `]}`
		b.ReportAllocs()
		ops := 0
		for b.Loop() {
			benchPost(b, c, base+"/step", body)
			ops++
		}
		b.ReportMetric(float64(n*ops)/b.Elapsed().Seconds(), "agent-steps/s")
	}
}

// benchEcho answers the step request with a stored reply of the same size from a bare
// net/http server: the HTTP floor.
func benchEcho(b bench.B) {
	_, base := benchService(b)
	c := benchClient()
	benchPost(b, c, base+"/reset", resetBody(1))
	reply := benchPost(b, c, base+"/step", benchStepBody)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	var once sync.Once
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req api.StepRequest
		body, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(body, &req); err != nil {
			once.Do(func() { b.Error(err) })
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Write(bytes.Clone(reply))
	})}
	go srv.Serve(ln)
	defer srv.Close()
	url := "http://" + ln.Addr().String() + "/step"
	b.ReportAllocs()
	for b.Loop() {
		benchPost(b, c, url, benchStepBody)
	}
}
