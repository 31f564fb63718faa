//go:build linux

package fastpathbench

import (
	"context"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"time"

	"simgui/app"
	"simgui/app/bench"
	"simgui/app/fastpath"
	"simgui/app/scenario"
	"simgui/plugins"
)

func init() {
	bench.Register(bench.Case{Name: "fastpath/step/1", Baseline: "api/step/84x84", F: benchStep(1, fastpath.KindStep),
		Doc: "fast path: 1 env per request, 0.05 s of sim time and an 84x84 RGB frame in shared memory"})
	bench.Register(bench.Case{Name: "fastpath/step/16", Baseline: "fastpath/step/1", F: benchStep(16, fastpath.KindStep),
		Doc: "fast path: 16 envs per request, stepped in parallel, 84x84 RGB frames; per request"})
	bench.Register(bench.Case{Name: "fastpath/hold/16", Baseline: "fastpath/step/16", F: benchStep(16, fastpath.KindHold),
		Doc: "fast path: a request for 16 envs that holds them all: the round trip alone"})
}

// resetEvery keeps the cars of the step cases off the walls of the default corridor.
const resetEvery = 200

// session serves the fast path on a host whose scenario world (the default one) is paused,
// as the process runs it, and opens a session of n envs with 84×84 frames.
func session(b bench.B, n int) *fastpath.Client {
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
	dir, err := os.MkdirTemp("", "fpb") // short: a socket path fits 108 bytes
	if err != nil {
		h.Close()
		b.Fatal(err)
	}
	f := &fastpath.Face{Socket: filepath.Join(dir, "fp.sock"), IdleTimeout: time.Hour}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx, f) }()
	stop := func() {
		cancel()
		<-done
		h.Close()
		os.RemoveAll(dir)
	}
	select {
	case <-h.Start.Done():
	case err := <-done:
		cancel()
		h.Close()
		os.RemoveAll(dir)
		b.Fatalf("host stopped: %v", err)
	}
	c, err := fastpath.Dial(f.Addr())
	if err != nil {
		stop()
		b.Fatal(err)
	}
	b.Cleanup(func() {
		c.Close()
		stop()
	})
	if _, err := c.Open(fastpath.OpenRequest{Envs: n, FrameWidth: 84, FrameHeight: 84}); err != nil {
		b.Fatal(err)
	}
	return c
}

// benchStep measures requests that give every one of n envs kind; it reports agent-steps/s
// (requests/s for holds) and fails when a stepped env did not advance.
func benchStep(n int, kind byte) func(bench.B) {
	return func(b bench.B) {
		c := session(b, n)
		reset := make([]byte, n)
		kinds, acts, seeds := make([]byte, n), make([][2]float64, n), make([]int64, n)
		for i := range n {
			reset[i], kinds[i] = fastpath.KindReset, kind
			acts[i] = [2]float64{0.2, 0.3 * math.Sin(float64(i))}
			seeds[i] = int64(i)
		}
		if _, err := c.Step(reset, acts, seeds); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		ops := 0
		for b.Loop() {
			if kind == fastpath.KindStep && ops > 0 && ops%resetEvery == 0 {
				b.StopTimer()
				if _, err := c.Step(reset, acts, seeds); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			if _, err := c.Step(kinds, acts, seeds); err != nil {
				b.Fatal(err)
			}
			ops++
		}
		last, err := c.State(n-1, "actions")
		if err != nil {
			b.Fatal(err)
		}
		want := 0.0 // held envs stay where the first reset left them
		if kind == fastpath.KindStep && ops > 0 {
			want = float64((ops-1)%resetEvery + 1)
		}
		if last != want {
			b.Fatalf("env %d counts %g actions since its reset after %d requests; want %g", n-1, last, ops, want)
		}
		if kind == fastpath.KindHold {
			b.ReportMetric(float64(ops)/b.Elapsed().Seconds(), "requests/s")
			return
		}
		b.ReportMetric(float64(n*ops)/b.Elapsed().Seconds(), "agent-steps/s")
	}
}
