package window

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"math"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
	"golang.org/x/sys/unix"

	"simgui/app"
	"simgui/app/scenario"
	"simgui/app/sensors"
	"simgui/app/transport/msgs"
	"simgui/app/window/xtest"
	"simgui/app/world"
	"simgui/physics/drive"
	"simgui/plugins"
)

// The GUI tests start window programs in processes of their own — Ebiten must own the main
// thread, and the tests drive the window from outside with real X input events — by running
// this test binary with childEnv set to the program's name.
const childEnv = "SIMGUI_WINDOW_CHILD"

// Environment of a child: where to write its state, screenshots and results.
const (
	envState   = "SIMGUI_CHILD_STATE"
	envShots   = "SIMGUI_CHILD_SHOTS"
	envResult  = "SIMGUI_CHILD_RESULT"
	envSeconds = "SIMGUI_CHILD_SECONDS"
)

func TestMain(m *testing.M) {
	if kind := os.Getenv(childEnv); kind != "" {
		if err := runChild(kind); err != nil {
			fmt.Fprintln(os.Stderr, "child "+kind+":", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	code := m.Run()
	xtest.RemoveBuilds()
	os.Exit(code)
}

func runChild(kind string) error {
	switch kind {
	case "camera":
		return cameraChild()
	case "bench":
		return benchChild()
	case "screens":
		return screensChild()
	}
	return fmt.Errorf("unknown child %q", kind)
}

// cameraChild is the default scenario, whose KS0223 carries a real camera sensor (640×480,
// 15 Hz of sim time). Once the world is paused, a tap writes the last frame the sensor sent to
// the shots directory as sent.png (and its stamp to sent.json), so that the test can compare
// the panel with it.
func cameraChild() error {
	plan, err := scenario.Resolve(scenario.Default(), plugins.Builtin())
	if err != nil {
		return err
	}
	ctx, cancel := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer cancel()
	return runHosted(ctx, plan, app.BuildOptions{}, Options{StateFile: os.Getenv(envState), ScreenshotDir: os.Getenv(envShots)}, nil,
		func(sim *app.Sim) { go tap(ctx, sim, "ego", "camera.front.rgb", os.Getenv(envShots)) })
}

// runHosted runs the window as the command line does: a host with plan's world as its
// scenario world and the window as its face. before, when set, sees the world before it runs;
// wrap is run's benchmark hook.
func runHosted(ctx context.Context, plan *scenario.Plan, bo app.BuildOptions, opts Options, wrap func(ebiten.Game) ebiten.Game, before func(*app.Sim)) error {
	h := app.NewHost(app.HostOptions{})
	sim, err := h.Build(plan, bo)
	if err != nil {
		return err
	}
	h.SetScenario(sim)
	defer h.Close()
	if before != nil {
		before(sim)
	}
	return h.Run(ctx, &testWindow{opts: opts, wrap: wrap})
}

// testWindow is the window face with the benchmark hook.
type testWindow struct {
	opts Options
	wrap func(ebiten.Game) ebiten.Game
	h    *app.Host
}

func (w *testWindow) Start(_ context.Context, h *app.Host) error { w.h = h; return nil }
func (w *testWindow) RunMain(ctx context.Context) error          { return run(ctx, w.h, w.opts, w.wrap) }
func (w *testWindow) Shutdown(context.Context) error             { return nil }

// tap waits for the world to be paused, then writes the last image the sensor sent to
// dir/sent.png and after it {"stamp": its sim time in seconds} to dir/sent.json, once a
// pause. The frames still being rendered are delivered first (sensors.System.Flush, on the
// loop goroutine), so the image written is the last sent, the one the panel shows.
func tap(ctx context.Context, sim *app.Sim, model, sensor, dir string) {
	written := time.Duration(-1)
	for {
		updated := sim.Loop.Updated()
		if sim.Loop.Snapshot().Paused {
			var last sensors.Reading
			err := sim.Loop.Call(ctx, func(*world.World) error {
				sim.Sensors.Flush()
				last, _ = sim.Sensors.Latest(model, sensor)
				return nil
			})
			if err != nil {
				return
			}
			if m, ok := last.Msg.(*msgs.Image); ok && last.Stamp != written {
				if fr, err := convertImage(m, 0, nil); err == nil && writePNG(dir+"/sent.png", fr.W, fr.H, fr.Pix) == nil {
					stamp, _ := json.Marshal(map[string]float64{"stamp": last.Stamp.Seconds()})
					if writeAtomic(dir+"/sent.json", stamp) == nil {
						written = last.Stamp
					}
				}
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-sim.Loop.Done():
			return
		case <-updated:
		}
	}
}

// screensChild hosts a second screen, as the descriptor editor will be hosted: F2 shows it,
// and T on it test-drives an arcade car through the Host (spawned at (-1.5, -1.5) facing north, in the open,
// the simulator screen back on show).
func screensChild() error {
	plan, err := scenario.Resolve(scenario.Default(), plugins.Builtin())
	if err != nil {
		return err
	}
	ctx, cancel := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer cancel()
	return runHosted(ctx, plan, app.BuildOptions{}, Options{StateFile: os.Getenv(envState), ScreenshotDir: os.Getenv(envShots), Screens: []Screen{&testScreen{}}}, nil, nil)
}

// testScreen is a minimal hosted screen: a magenta page that test-drives a plugin on T, and
// holds work not kept until the window has been asked to close once.
type testScreen struct {
	host  Host
	shown int
	asked int
}

// MayClose implements CloseGuard: no the first time, yes after.
func (s *testScreen) MayClose() bool { s.asked++; return s.asked > 1 }

func (s *testScreen) Name() string               { return "editor" }
func (s *testScreen) Attach(h Host)              { s.host = h }
func (s *testScreen) Shown(on bool)              { s.shown++ }
func (s *testScreen) Layout(w, h int) (int, int) { return w, h }

func (s *testScreen) Update() error {
	if inpututil.IsKeyJustPressed(ebiten.KeyT) {
		v, err := s.host.Plugins().Vehicle("vehicle.arcade.blue.v1")
		if err != nil {
			return err
		}
		s.host.TestDrive(v, &world.Pose{X: -1.5, Y: -1.5, Yaw: math.Pi / 2})
	}
	return nil
}

func (s *testScreen) Draw(dst *ebiten.Image) {
	dst.Fill(color.NRGBA{200, 0, 200, 255})
	drawText(dst, fmt.Sprintf("hosted screen, sim time %.2f s", s.host.Snapshot().SimTime.Seconds()), 20, 20, textColor)
}

// benchChild runs the window on 100 KS0223s driving in the basic arena, the selected one
// carrying four cameras (two RGB, two depth) whose frames arrive at 15 Hz each, for
// SIMGUI_CHILD_SECONDS of wall time, and writes drawMetrics as JSON to SIMGUI_CHILD_RESULT.
func benchChild() error {
	sc := scenario.Default()
	sc.World = scenario.WorldSpec{TrackID: "track.basic_arena.v1"}
	hundred := 100
	sc.Agents = &scenario.Agents{Count: &hundred}
	plan, err := scenario.Resolve(sc, plugins.Builtin())
	if err != nil {
		return err
	}
	for i := range plan.Agents {
		plan.Agents[i].Spawn = &world.Pose{X: -4.5 + float64(i%10), Y: -8 + float64(i/10), Yaw: float64(i%8) * math.Pi / 4}
	}
	// The panels' frames come from syntheticFrames: the real camera is taken out of the
	// contract, so that the window's cost is measured, not four 640×480 renders a frame.
	ego := plan.Agents[0].Vehicle.Clone()
	ego.Contract.Sensors = slices.DeleteFunc(ego.Contract.Sensors, func(s plugins.SensorDescriptor) bool { return s.SensorType == plugins.SensorCamera })
	ego.Sensors = append(ego.Sensors,
		plugins.SensorMount{ID: "camera.rear.rgb", Kind: plugins.SensorCamera, Pose: plugins.Pose3{X: -0.12, Z: 0.09, YawDeg: 180}},
		plugins.SensorMount{ID: "depth.front", Kind: plugins.SensorDepth, Pose: plugins.Pose3{X: 0.12, Z: 0.08}, Params: map[string]float64{"far": 5}},
		plugins.SensorMount{ID: "depth.rear", Kind: plugins.SensorDepth, Pose: plugins.Pose3{X: -0.12, Z: 0.08, YawDeg: 180}, Params: map[string]float64{"far": 5}})
	plan.Agents[0].Vehicle = ego
	secs, _ := strconv.ParseFloat(os.Getenv(envSeconds), 64)
	if secs <= 0 {
		secs = 6
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(secs*float64(time.Second)))
	defer cancel()
	feed := func(sim *app.Sim) {
		for _, s := range ego.Sensors {
			switch s.Kind {
			case plugins.SensorCamera:
				go syntheticFrames(ctx, sim, imageTopic("ego", s.ID), false)
			case plugins.SensorDepth:
				go syntheticFrames(ctx, sim, depthTopic("ego", s.ID), true)
			}
		}
	}
	tg := &timedGame{}
	err = runHosted(ctx, plan, app.BuildOptions{Hold: &drive.Command{Throttle: 0.4, Steer: 0.25}}, Options{ScreenshotDir: os.Getenv(envShots)}, func(g ebiten.Game) ebiten.Game {
		// Look at the whole crowd, close enough that every robot is labelled.
		s := g.(*game).sim
		s.fit, s.follow = true, false
		s.view = view{CX: 0, CY: -3.5, Scale: 62}
		tg.Game = g
		return tg
	}, feed)
	if err != nil {
		return err
	}
	res := tg.metrics()
	data, _ := json.Marshal(res)
	return os.WriteFile(os.Getenv(envResult), data, 0o644)
}

// syntheticFrames publishes 640×480 frames on topic at 15 Hz of wall time: a moving gradient,
// RGB or depth. The content does not matter to the window; the size, format and rate do.
func syntheticFrames(ctx context.Context, sim *app.Sim, topic string, depth bool) {
	const w, h = 640, 480
	tick := time.NewTicker(time.Second / 15)
	defer tick.Stop()
	for k := 0; ; k++ {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		img := &msgs.Image{Width: w, Height: h}
		if depth {
			img.PixelFormatType, img.Step = msgs.PixelFormatType_R_FLOAT32, 4*w
			img.Data = make([]byte, 4*w*h)
			for i := range w * h {
				d := float32(0.2 + 4*float64((i%w+k*8)%w)/w)
				b := math.Float32bits(d)
				img.Data[4*i], img.Data[4*i+1], img.Data[4*i+2], img.Data[4*i+3] = byte(b), byte(b>>8), byte(b>>16), byte(b>>24)
			}
		} else {
			img.PixelFormatType, img.Step = msgs.PixelFormatType_RGB_INT8, 3*w
			img.Data = make([]byte, 3*w*h)
			for i := range w * h {
				img.Data[3*i], img.Data[3*i+1], img.Data[3*i+2] = byte(i%w+k*4), byte(i/w), 128
			}
		}
		sim.Bus.Publish(topic, img, sim.Loop.Snapshot().SimTime)
	}
}

// timedGame measures the CPU time of each Draw and Update on its thread
// (CLOCK_THREAD_CPUTIME_ID, the goroutine locked to its thread while measured).
type timedGame struct {
	ebiten.Game
	draws, updates []time.Duration
	start          time.Time
	tps, fps       []float64
	// Process CPU time (all threads: the loop, the renderer's GL) over the measured frames.
	cpu0, cpu1 time.Duration
	shot       bool
}

func processCPU() time.Duration {
	var ru unix.Rusage
	unix.Getrusage(unix.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func threadCPU() time.Duration {
	var ts unix.Timespec
	unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts)
	return time.Duration(ts.Nano())
}

func (t *timedGame) Update() error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if t.start.IsZero() {
		t.start = time.Now()
	}
	c := threadCPU()
	err := t.Game.Update()
	// The first two seconds warm up (fonts, atlases, the first frames); then measure.
	if time.Since(t.start) > 2*time.Second {
		if t.cpu0 == 0 {
			t.cpu0 = processCPU()
		}
		t.cpu1 = processCPU()
		if g, ok := t.Game.(*game); ok && !t.shot && g.opts.ScreenshotDir != "" {
			g.shot, t.shot = true, true // one screenshot of the scene measured
		}
		t.updates = append(t.updates, threadCPU()-c)
		t.tps = append(t.tps, ebiten.ActualTPS())
		t.fps = append(t.fps, ebiten.ActualFPS())
	}
	return err
}

func (t *timedGame) Draw(screen *ebiten.Image) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c := threadCPU()
	t.Game.Draw(screen)
	if !t.start.IsZero() && time.Since(t.start) > 2*time.Second {
		t.draws = append(t.draws, threadCPU()-c)
	}
}

// drawMetrics is what the bench child reports.
type drawMetrics struct {
	Frames, Ticks   int
	DrawMeanNs      float64
	DrawP95Ns       float64
	UpdateMeanNs    float64
	TPSMean, TPSMin float64
	FPSMean         float64
	Screen          image.Point
	// ProcessCPUPerFrameNs is the whole process's CPU time per frame drawn (the step loop
	// with 100 robots, the camera feeds, Ebiten and the software GL driver).
	ProcessCPUPerFrameNs float64
}

func (t *timedGame) metrics() drawMetrics {
	m := drawMetrics{Frames: len(t.draws), Ticks: len(t.updates)}
	mean := func(xs []time.Duration) float64 {
		s := 0.0
		for _, x := range xs {
			s += float64(x)
		}
		return s / float64(max(len(xs), 1))
	}
	m.DrawMeanNs, m.UpdateMeanNs = mean(t.draws), mean(t.updates)
	if len(t.draws) > 0 {
		d := slices.Clone(t.draws)
		slices.Sort(d)
		m.DrawP95Ns = float64(d[len(d)*95/100])
	}
	m.TPSMin = math.Inf(1)
	for i, x := range t.tps {
		m.TPSMean += x
		m.FPSMean += t.fps[i]
		if i > 60 { // ActualTPS averages over the last second; skip its warm-up
			m.TPSMin = min(m.TPSMin, x)
		}
	}
	m.TPSMean /= float64(max(len(t.tps), 1))
	m.FPSMean /= float64(max(len(t.fps), 1))
	m.ProcessCPUPerFrameNs = float64(t.cpu1-t.cpu0) / float64(max(len(t.draws), 1))
	w, h := ebiten.WindowSize()
	m.Screen = image.Pt(w, h)
	return m
}
