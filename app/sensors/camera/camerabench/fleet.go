package camerabench

import (
	"fmt"
	"log/slog"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"simgui/app/bench"
	"simgui/app/sensors"
	"simgui/app/sensors/sensortest"
	"simgui/app/transport"
	"simgui/app/world"
	"simgui/plugins"
)

func init() {
	for _, n := range []int{200, 1000} {
		base := fmt.Sprintf("sensors/camera/fleet-%d/unsubscribed", n)
		bench.Register(bench.Case{Name: base, F: benchFleet(n, false),
			Doc: fmt.Sprintf("World.Step of %d KS0223s in a %.0f m arena whose 160x120 cameras (15 Hz) nobody reads", n, fleetArena(n))})
		bench.Register(bench.Case{Name: fmt.Sprintf("sensors/camera/fleet-%d/subscribed", n), Baseline: base, F: benchFleet(n, true),
			Doc: "the same with every camera subscribed (a recording of the fleet): frames/s, dropped-%, heap-MB after a GC " +
				"with the frames queued (queued-heap-MB) and after they are drawn, goroutines"})
	}
}

// fleetArena is the side of the square floor n robots stand on, 1.2 m apart.
func fleetArena(n int) float64 { return max(30, 1.2*math.Ceil(math.Sqrt(float64(n)))+6) }

// benchFleet steps n KS0223s with 160×120 cameras at their 15 Hz, every camera subscribed
// or none: what a fleet's cameras cost the step loop, and what they hold in memory.
func benchFleet(n int, subscribed bool) func(bench.B) {
	return func(b bench.B) {
		v := sensortest.KS0223(b)
		for i := range v.Contract.Sensors {
			if s := &v.Contract.Sensors[i]; s.ID == "camera.front.rgb" {
				s.Shape, s.Format, s.RateHz = []int{120, 160, 3}, sensors.FormatRaw, 15
			}
		}
		var agents []world.AgentSpec
		side := max(15, int(math.Ceil(math.Sqrt(float64(n)))))
		for i := range n {
			agents = append(agents, world.AgentSpec{Name: fmt.Sprintf("r%d", i), Vehicle: v,
				Spawn: &world.Pose{X: 1.2*float64(i%side) - 8, Y: 1.2*float64(i/side) - 8}})
		}
		floor := plugins.Floor{Length: 30, Width: 30, Texture: "plywood"}
		if a := fleetArena(n); a > floor.Length {
			c := -8 + 1.2*float64(side-1)/2 // the grid's centre
			floor.X, floor.Y, floor.Length, floor.Width = c, c, a, a
		}
		layout := &plugins.Layout{Floor: floor}
		// Drops are the case's dropped-% figure: a warning a camera said it on stderr up to
		// a thousand times a run.
		env := sensortest.New(b, layout, agents, sensors.Options{Logger: slog.New(slog.DiscardHandler)})
		var frames atomic.Int64
		var wg sync.WaitGroup
		var subs []*transport.Subscription
		if subscribed {
			for _, a := range agents {
				sub := env.Bus.Subscribe(sensors.Topic(a.Name, "camera.front.rgb", sensors.TopicImage), transport.WithQueueLen(2))
				subs = append(subs, sub)
				wg.Go(func() {
					for range sub.C() {
						frames.Add(1)
					}
				})
			}
		}
		env.Step(1)
		env.System.Flush()
		steps := 0
		for b.Loop() {
			env.World.Step()
			steps++
		}
		var ms runtime.MemStats
		if subscribed {
			// What the frames waiting for the workers hold: their shots of the scene.
			runtime.GC()
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(ms.HeapInuse)/1e6, "queued-heap-MB")
		}
		env.System.Flush()
		runtime.GC()
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.HeapInuse)/1e6, "heap-MB")
		b.ReportMetric(float64(runtime.NumGoroutine()), "goroutines")
		if !subscribed {
			return
		}
		var dropped uint64
		for _, s := range env.System.Sensors() {
			if s.Kind == "camera" {
				dropped += s.Dropped
			}
		}
		for _, sub := range subs {
			sub.Close()
		}
		wg.Wait()
		b.ReportMetric(float64(frames.Load())/b.Elapsed().Seconds(), "frames/s")
		if due := float64(frames.Load()) + float64(dropped); due > 0 {
			b.ReportMetric(100*float64(dropped)/due, "dropped-%")
		}
	}
}
