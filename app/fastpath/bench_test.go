package fastpath

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"simgui/app/scenario"
)

// BenchmarkStep steps 16 envs of the randomized corridor task with 84×84 frames over the
// socket, as the Python client does; it reports agent-steps/s. The default scenario's cases
// (1 and 16 envs, holds) are `simgui bench` cases in fastpathbench; these need the Python
// package's task scenario.
func BenchmarkStep(b *testing.B) {
	b.Run("envs=16/randomized", func(b *testing.B) { benchStep(b, 16, kindStep) })
	b.Run("envs=16/randomized/random-actions", func(b *testing.B) { benchRandom(b, 16) })
	b.Run("reset", func(b *testing.B) { benchStep(b, 16, kindReset) })
	b.Run("reset/randomized", func(b *testing.B) { benchStep(b, 16, kindReset) })
}

func benchStep(b *testing.B, n int, kind byte) {
	sc := scenario.Default()
	if strings.HasSuffix(b.Name(), "randomized") {
		var err error
		if sc, err = scenario.Load(filepath.Join("..", "..", "python", "simgui", "scenarios", "ks0223_corridor.yaml")); err != nil {
			b.Fatal(err)
		}
	}
	sc.Runtime.ActionPeriod, sc.Runtime.StepSize = 0.1, 0.01
	_, f := startFace(b, sc)
	c := dial(b, f.Addr())
	c.open(OpenRequest{Envs: n, FrameWidth: 84, FrameHeight: 84})
	c.resetAll(1)
	kinds, acts, seeds := make([]byte, n), make([][3]float64, n), make([]int64, n)
	for i := range n {
		kinds[i] = kind
		acts[i] = [3]float64{0.2, 0.3 * math.Sin(float64(i))}
		seeds[i] = int64(i)
	}
	msg := stepMessage(kinds, acts, seeds)
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for k := range b.N {
		if kind == kindStep && k%200 == 199 { // keep the cars off the walls
			c.resetAll(int64(k))
		}
		c.send(msgStep, msg)
		if _, _, _, err := c.recv(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n*b.N)/time.Since(start).Seconds(), "agent-steps/s")
}

// benchRandom steps n envs of the randomized corridor task with random actions, resetting an
// env after a contact or 100 steps as the Python envs do: what `python3 -m simgui.bench` asks
// of simgui.
func benchRandom(b *testing.B, n int) {
	sc, err := scenario.Load(filepath.Join("..", "..", "python", "simgui", "scenarios", "ks0223_corridor.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	_, f := startFace(b, sc)
	c := dial(b, f.Addr())
	c.open(OpenRequest{Envs: n, FrameWidth: 84, FrameHeight: 84})
	c.resetAll(1)
	rng := rand.New(rand.NewPCG(1, 2))
	kinds, acts, seeds := make([]byte, n), make([][3]float64, n), make([]int64, n)
	resets := 0
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for k := range b.N {
		for i := range n {
			if kinds[i] == kindStep && (c.state(i, "contacts") > 0 || c.state(i, "actions") >= 100) {
				kinds[i], seeds[i] = kindReset, int64(k*n+i)
				resets++
				continue
			}
			kinds[i], acts[i] = kindStep, [3]float64{2*rng.Float64() - 1, 2*rng.Float64() - 1}
		}
		c.mustStep(kinds, acts, seeds)
	}
	b.ReportMetric(float64(n*b.N)/time.Since(start).Seconds(), "agent-steps/s")
	b.ReportMetric(float64(n*b.N)/float64(max(1, resets)), "steps/episode")
}
