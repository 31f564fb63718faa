// Package bridgebench holds the device bridge's benchmarks for `simgui bench` and `go test
// -bench`. Frames are 640×480 RGB (921,600 bytes) received by a go-zeromq/zmq4 SUB client over
// loopback TCP.
//
// What fails a case: an error on the way, a frame of the wrong size, a frame lost where the
// path has room for it (at most two frames in flight against queues of two), or a camera
// whose subscriber received nothing at all. What does not: bridge/8-cameras-30hz drops the
// oldest frames by design when a subscriber falls behind, which on a busy machine is load, not
// a bug, so it reports the drops (count and per cent) and the rate the publisher kept.
package bridgebench

import (
	"context"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-zeromq/zmq4"

	"simgui/app/bench"
	"simgui/app/bridge"
	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/app/world"
	"simgui/plugins"
)

func init() {
	const raw = "bridge/raw-zmq4-640x480"
	bench.Register(bench.Case{Name: raw, F: benchRawZMQ4,
		Doc: "baseline: a prebuilt 640x480 RGB frame from a zmq4 PUB to a zmq4 SUB, 2 frames in flight"})
	bench.Register(bench.Case{Name: "bridge/camera-640x480", Baseline: raw, F: benchCamera,
		Doc: "a 640x480 gz.msgs.Image on the bus to a zmq4 SUB through the bridge (RAWI), 2 frames in flight"})
	bench.Register(bench.Case{Name: "bridge/8-cameras-30hz", F: benchEightCameras,
		Doc: "8 cameras publishing 640x480 at 30 Hz through the bridge to 8 SUB clients; op = one 30 Hz tick; reports drops"})
}

const (
	benchW, benchH = 640, 480
	benchFrame     = benchW * benchH * 3
	benchInFlight  = 2 // frames published but not yet received
	// lostAfter is how long a frame the path has room for may take before it counts as lost.
	lostAfter = 30 * time.Second
)

var benchLog = log.New(io.Discard, "", 0)

// benchRawZMQ4 is the baseline: zmq4's own PUB sending prebuilt frames of the camera case's
// size to a zmq4 SUB.
func benchRawZMQ4(b bench.B) {
	ctx := context.Background()
	pub := zmq4.NewPub(ctx, zmq4.WithLogger(benchLog))
	defer pub.Close()
	if err := pub.Listen("tcp://127.0.0.1:0"); err != nil {
		b.Fatal(err)
	}
	port := pub.Addr().(*net.TCPAddr).Port
	sub := zmq4.NewSub(ctx, zmq4.WithLogger(benchLog))
	defer sub.Close()
	if err := sub.Dial("tcp://127.0.0.1:" + strconv.Itoa(port)); err != nil {
		b.Fatal(err)
	}
	tag := bridge.TagBytes("benchcam0Data")
	if err := sub.SetOption(zmq4.OptionSubscribe, string(tag[:])); err != nil {
		b.Fatal(err)
	}
	deadline := time.Now().Add(lostAfter)
	for len(pub.(zmq4.Topics).Topics()) == 0 {
		if time.Now().After(deadline) {
			b.Fatal("the SUB never subscribed")
		}
		time.Sleep(time.Millisecond)
	}
	frame := append(tag[:], benchPixels()...)
	frame = append(frame, make([]byte, bridge.RAWIHeaderSize)...) // the size of a RAWI frame
	runWindowed(b, sub, len(frame), func() error { return pub.Send(zmq4.NewMsg(frame)) })
}

// benchCamera measures the bridge's whole path for one camera: bus → forwarder → RAWI frame →
// per-subscriber queue → ZMTP → zmq4 SUB.
func benchCamera(b bench.B) {
	env := newBenchEnv(b, 1)
	defer env.close()
	sub := env.subscribe(b, 0)
	defer sub.Close()
	img := benchImage()
	topic := bridge.SensorTopic(benchModel, "cam0", "image")
	var stamp time.Duration
	runWindowed(b, sub, 8+bridge.RAWIHeaderSize+benchFrame, func() error {
		stamp += time.Millisecond
		return env.bus.Publish(topic, img, stamp)
	})
	// Two frames in flight against queues of two: nothing may be dropped, however slow.
	if d := env.dropped(); d != 0 {
		b.Fatalf("%d frames dropped with %d in flight", d, benchInFlight)
	}
}

// runWindowed publishes one frame per op with send, keeping at most benchInFlight unreceived,
// checks that each received frame has size bytes, and waits for the last ones.
func runWindowed(b bench.B, sub zmq4.Socket, size int, send func() error) {
	window := make(chan struct{}, benchInFlight)
	errc := make(chan error, 1)
	go func() {
		for i := 0; ; i++ {
			m, err := sub.Recv()
			if err != nil {
				errc <- err // the socket closed at the end, or a real failure mid-run
				return
			}
			if len(m.Frames) != 1 || len(m.Frames[0]) != size {
				errc <- fmt.Errorf("frame %d: %d frames, %d bytes, want %d", i, len(m.Frames), len(m.Frames[0]), size)
				return
			}
			<-window
		}
	}()
	lost := time.NewTimer(lostAfter)
	defer lost.Stop()
	// take waits for room in the window.
	take := func() {
		lost.Reset(lostAfter)
		select {
		case window <- struct{}{}:
		case err := <-errc:
			b.Fatal(err)
		case <-lost.C:
			b.Fatalf("a frame was lost: nothing received for %v", lostAfter)
		}
	}
	b.SetBytes(benchFrame) // reported as MB/s
	b.ReportAllocs()
	for b.Loop() {
		take()
		if err := send(); err != nil {
			b.Fatal(err)
		}
	}
	for range benchInFlight { // the window is whole again once the last frames arrived
		take()
	}
}

// benchEightCameras publishes 8 cameras' frames at 30 Hz, one tick per op, to 8 subscribers
// and reports the frames dropped anywhere (bus queues, subscriber queues): received versus
// published, as a count and a share.
func benchEightCameras(b bench.B) {
	const cams, rate = 8, 30
	env := newBenchEnv(b, cams)
	defer env.close()
	subs := make([]zmq4.Socket, cams)
	for i := range subs {
		subs[i] = env.subscribe(b, i)
		defer subs[i].Close()
	}
	img := benchImage()
	topics := make([]string, cams)
	for i := range topics {
		topics[i] = bridge.SensorTopic(benchModel, "cam"+strconv.Itoa(i), "image")
	}
	var wg sync.WaitGroup
	received := make([]atomic.Int64, cams)
	for i, s := range subs {
		wg.Go(func() {
			for {
				if _, err := s.Recv(); err != nil {
					return // closed at the end
				}
				received[i].Add(1)
			}
		})
	}
	b.SetBytes(cams * benchFrame)
	tick := time.NewTicker(time.Second / rate)
	defer tick.Stop()
	ticks := 0
	for b.Loop() {
		<-tick.C
		stamp := time.Duration(ticks) * time.Second / rate
		for _, t := range topics {
			if err := env.bus.Publish(t, img, stamp); err != nil {
				b.Fatal(err)
			}
		}
		ticks++
	}
	elapsed := b.Elapsed()
	// Whatever has not arrived a few seconds after the last tick was dropped.
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		all := true
		for i := range received {
			all = all && received[i].Load() >= int64(ticks)
		}
		if all {
			break
		}
	}
	for _, s := range subs {
		s.Close()
	}
	wg.Wait()
	published := cams * ticks
	got, starved := 0, 0
	for i := range received {
		n := int(received[i].Load())
		got += n
		if n == 0 {
			starved++
		}
	}
	drops := published - got
	b.ReportMetric(float64(drops), "drops")
	b.ReportMetric(100*float64(drops)/float64(max(published, 1)), "drop-%")
	b.ReportMetric(float64(env.dropped()), "queue-drops")
	b.ReportMetric(float64(got)/elapsed.Seconds(), "frames/s")
	// Below 30 the publishing loop itself fell behind (a loaded machine): ticks were skipped,
	// not frames dropped.
	b.ReportMetric(float64(ticks)/elapsed.Seconds(), "hz")
	switch {
	case got > published:
		b.Errorf("%d frames received of %d published", got, published)
	case ticks > 0 && starved > 0:
		b.Errorf("%d of %d subscribers received no frame in %d ticks", starved, cams, ticks)
	}
}

const benchModel = "bench"

// benchEnv is a world with one model carrying n 640×480 cameras, and a bridge serving it.
type benchEnv struct {
	bus    *transport.Bus
	w      *world.World
	bridge *bridge.Bridge
}

func newBenchEnv(b bench.B, cams int) *benchEnv {
	b.Helper()
	quiet := slog.New(slog.DiscardHandler)
	v := &plugins.VehicleDescriptor{
		ID: "vehicle.bench.v1", DisplayName: "Bench car", Version: plugins.ContractVersion{Major: 1},
		Body:     &plugins.Body{Shape: "box", Length: 0.3, Width: 0.2, Height: 0.1, Mass: 1, Friction: 0.9},
		Drive:    &plugins.Drive{Model: "differential"},
		Contract: &plugins.DeviceContract{},
	}
	for i := range cams {
		id := "cam" + strconv.Itoa(i)
		v.Sensors = append(v.Sensors, plugins.SensorMount{ID: id, Kind: plugins.SensorCamera})
		v.Contract.Sensors = append(v.Contract.Sensors, plugins.SensorDescriptor{ID: id, SensorType: plugins.SensorCamera, Shape: []int{benchH, benchW, 3}, RateHz: 30})
	}
	bus := transport.NewBus(transport.Options{Logger: quiet})
	track := &plugins.TrackDescriptor{ID: "track.bench.v1", SpawnPoints: []plugins.SpawnPoint{{}}}
	w, err := world.New(world.Config{
		Name: "bench", Track: track, Logger: quiet, Bus: bus,
		BuildLayout: func(t *plugins.TrackDescriptor, _ map[string]any, _ int64) (*plugins.Layout, error) {
			return &plugins.Layout{SpawnPoints: t.SpawnPoints}, nil
		},
		Agents: []world.AgentSpec{{Name: benchModel, Vehicle: v}},
	})
	if err != nil {
		b.Fatal(err)
	}
	loop := world.NewLoop(w, world.LoopOptions{Lockstep: true})
	// Nobody steps this world, so sim time stands still: the ports' keep-alive would repeat
	// frames on top of the ones counted.
	br, err := bridge.Start(bridge.Config{Bus: bus, Source: loop, Logger: quiet, KeepAlive: time.Hour})
	if err != nil {
		b.Fatal(err)
	}
	return &benchEnv{bus: bus, w: w, bridge: br}
}

// subscribe connects a zmq4 SUB to camera i's Data port and waits until the bridge reads the
// camera's topic.
func (e *benchEnv) subscribe(b bench.B, i int) zmq4.Socket {
	b.Helper()
	key := benchModel + "cam" + strconv.Itoa(i) + "Data"
	port, ok := e.bridge.Manager().SearchSensorPort(key)
	if !ok {
		b.Fatalf("no port for %s", key)
	}
	sub := zmq4.NewSub(context.Background(), zmq4.WithLogger(benchLog))
	if err := sub.Dial("tcp://127.0.0.1:" + strconv.Itoa(int(port))); err != nil {
		b.Fatal(err)
	}
	tag := bridge.TagBytes(key)
	if err := sub.SetOption(zmq4.OptionSubscribe, string(tag[:])); err != nil {
		b.Fatal(err)
	}
	topic := bridge.SensorTopic(benchModel, "cam"+strconv.Itoa(i), "image")
	deadline := time.Now().Add(5 * time.Second)
	for !e.bus.HasSubscribers(topic) {
		if time.Now().After(deadline) {
			b.Fatalf("the bridge never read %s", topic)
		}
		time.Sleep(time.Millisecond)
	}
	return sub
}

// dropped sums the frames the bridge's subscriber queues and bus subscriptions dropped.
func (e *benchEnv) dropped() uint64 {
	var n uint64
	for _, s := range e.bridge.Stats() {
		n += s.Dropped
	}
	for _, t := range e.bus.Topics() {
		n += t.Dropped
	}
	return n
}

func (e *benchEnv) close() {
	e.bridge.Close()
	e.w.Close()
	e.bus.Close()
}

func benchPixels() []byte {
	p := make([]byte, benchFrame)
	for i := range p {
		p[i] = byte(i * 31)
	}
	return p
}

func benchImage() *msgs.Image {
	return &msgs.Image{Width: benchW, Height: benchH, Step: benchW * 3, Data: benchPixels(), PixelFormatType: msgs.PixelFormatType_RGB_INT8}
}
