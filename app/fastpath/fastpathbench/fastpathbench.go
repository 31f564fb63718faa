//go:build linux

package fastpathbench

import (
	"context"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
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
	bench.Register(bench.Case{Name: "fastpath/reset/plain", Baseline: "fastpath/step/1", F: benchReset(nil),
		Doc: "fast path: one env reset into a new episode of the default scenario per request (its usual randomization), 84x84"})
	bench.Register(bench.Case{Name: "fastpath/reset/visual", Baseline: "fastpath/reset/plain", F: benchReset(visual),
		Doc: "fast path: as reset/plain with visual randomization: textures, sun, ambient, 2..10 distractors, k1, exposure, white balance, vignette, noise"})
}

// visual is the visual randomization of fastpath/reset/visual, the one docs/TRAINING.md
// quotes the cost of.
var visual = map[string]string{
	"enabled":                  "true",
	"visual.textures":          "0.5,1",
	"visual.color_jitter":      "0.1",
	"visual.sun_azimuth_deg":   "180",
	"visual.sun_elevation_deg": "20",
	"visual.sun_intensity":     "0.3",
	"visual.sun_color":         "0.1",
	"visual.ambient":           "0.3",
	"visual.distractors":       "2,10",
	"sensors.distortion_k1":    "-0.1,0.02",
	"sensors.exposure":         "0.3",
	"sensors.white_balance":    "0.1",
	"sensors.vignette":         "0.4",
	"sensors.read_noise":       "2",
	"sensors.shot_noise":       "4",
}

// resetEvery keeps the cars of the step cases off the walls of the default corridor.
const resetEvery = 200

// session serves the fast path on a host whose scenario world (the default one) is paused,
// as the process runs it, and opens a session of n envs with 84×84 frames.
func session(b bench.B, n int, randomization map[string]string) *fastpath.Client {
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
	if _, err := c.Open(fastpath.OpenRequest{Envs: n, FrameWidth: 84, FrameHeight: 84, Randomization: randomization}); err != nil {
		b.Fatal(err)
	}
	return c
}

// benchStep measures requests that give every one of n envs kind; it reports agent-steps/s
// (requests/s for holds) and fails when a stepped env did not advance.
func benchStep(n int, kind byte) func(bench.B) {
	return func(b bench.B) {
		c := session(b, n, nil)
		reset := make([]byte, n)
		kinds, acts, seeds := make([]byte, n), make([][3]float64, n), make([]int64, n)
		for i := range n {
			reset[i], kinds[i] = fastpath.KindReset, kind
			acts[i] = [3]float64{0.2, 0.3 * math.Sin(float64(i))}
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

// warmResets is how many resets benchReset makes before measuring.
const warmResets = 24

// benchReset measures requests that reset one env into the episode of a new seed each time.
// It reports resets/s and simgui's CPU time per reset (the process's, as the env's world
// resets on goroutines of its own), and fails when a reset did not draw what randomization
// asks for or left the env mid-episode.
func benchReset(randomization map[string]string) func(bench.B) {
	return func(b bench.B) {
		c := session(b, 1, randomization)
		kinds, acts, seeds := []byte{fastpath.KindReset}, make([][3]float64, 1), []int64{0}
		// A long run's resets find the textures they draw (materials × variants) made by
		// earlier ones; the first few make them. Those are left out, as a run amortizes them.
		for seed := range warmResets {
			seeds[0] = -1 - int64(seed)
			if _, err := c.Step(kinds, acts, seeds); err != nil {
				b.Fatal(err)
			}
		}
		b.ResetTimer()
		var start, end syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &start); err != nil {
			b.Fatal(err)
		}
		ops := 0
		var info []fastpath.ResetInfo
		for b.Loop() {
			seeds[0] = int64(ops)
			var err error
			if info, err = c.Step(kinds, acts, seeds); err != nil {
				b.Fatal(err)
			}
			ops++
		}
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &end); err != nil {
			b.Fatal(err)
		}
		if ops == 0 {
			return
		}
		if len(info) != 1 || info[0].Seed != int64(ops-1) {
			b.Fatalf("the last reset's info %+v, want env 0's episode of seed %d", info, ops-1)
		}
		if randomization != nil {
			// The visual draws land on the camera as its params (sensor.<id>.<param>).
			got := map[string]float64{}
			for k, v := range info[0].Draws {
				got[k[strings.LastIndexByte(k, '.')+1:]] = v
			}
			if got["realistic"] != 1 || got["distractors"] < 2 || got["distractors"] > 10 ||
				got["k1"] < -0.1 || got["k1"] > 0.02 || got["sunIntensity"] == 0 || got["readNoise"] == 0 {
				b.Fatalf("the reset's visual draws %v are not those asked for", info[0].Draws)
			}
		}
		if n, err := c.State(0, "actions"); err != nil || n != 0 {
			b.Fatalf("env 0 counts %g actions after a reset (%v)", n, err)
		}
		cpu := time.Duration(syscall.TimevalToNsec(end.Utime) + syscall.TimevalToNsec(end.Stime) -
			syscall.TimevalToNsec(start.Utime) - syscall.TimevalToNsec(start.Stime))
		b.ReportMetric(float64(ops)/b.Elapsed().Seconds(), "resets/s")
		b.ReportMetric(cpu.Seconds()*1e3/float64(ops), "cpu-ms/reset")
	}
}
