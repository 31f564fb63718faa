package bridge

import (
	"context"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"

	"simgui/app/bench"
	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/app/world"
	"simgui/plugins"
)

// Benchmarks for `simgui bench` and `go test -bench` (bench_test.go). Frames are 640×480 RGB
// (921,600 bytes) received by a go-zeromq/zmq4 SUB client over loopback TCP.
func init() {
	const raw = "bridge/raw-zmq4-640x480"
	bench.Register(bench.Case{Name: raw, F: BenchRawZMQ4,
		Doc: "baseline: a prebuilt 640x480 RGB frame from a zmq4 PUB to a zmq4 SUB, 2 frames in flight"})
	bench.Register(bench.Case{Name: "bridge/camera-640x480", Baseline: raw, F: BenchCamera,
		Doc: "a 640x480 gz.msgs.Image on the bus to a zmq4 SUB through the bridge (RAWI), 2 frames in flight"})
	bench.Register(bench.Case{Name: "bridge/8-cameras-30hz", F: BenchEightCameras,
		Doc: "8 cameras publishing 640x480 at 30 Hz through the bridge to 8 SUB clients; op = one 30 Hz tick; drops must be 0"})
}

const (
	benchW, benchH = 640, 480
	benchFrame     = benchW * benchH * 3
	benchInFlight  = 2 // frames published but not yet received
)

var benchLog = log.New(io.Discard, "", 0)

// BenchRawZMQ4 is the baseline: zmq4's own PUB sending prebuilt frames of the camera case's
// size to a zmq4 SUB.
func BenchRawZMQ4(b *testing.B) {
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
	tag := TagBytes("benchcam0Data")
	if err := sub.SetOption(zmq4.OptionSubscribe, string(tag[:])); err != nil {
		b.Fatal(err)
	}
	for len(pub.(zmq4.Topics).Topics()) == 0 {
		time.Sleep(time.Millisecond)
	}
	frame := append(tag[:], benchPixels()...)
	frame = append(frame, make([]byte, 28)...) // the size of a RAWI frame
	runWindowed(b, sub, len(frame), func() error { return pub.Send(zmq4.NewMsg(frame)) })
}

// BenchCamera measures the bridge's whole path for one camera: bus → forwarder → RAWI frame →
// per-subscriber queue → ZMTP → zmq4 SUB.
func BenchCamera(b *testing.B) {
	env := newBenchEnv(b, 1)
	defer env.close()
	sub := env.subscribe(b, 0)
	img := benchImage()
	topic := SensorTopic(benchModel, "cam0", "image")
	var stamp time.Duration
	runWindowed(b, sub, 8+rawiHeaderSize+benchFrame, func() error {
		stamp += time.Millisecond
		return env.bus.Publish(topic, img, stamp)
	})
	if d := env.dropped(); d != 0 {
		b.Fatalf("%d frames dropped with %d in flight", d, benchInFlight)
	}
}

// runWindowed publishes b.N frames with send, keeping at most benchInFlight unreceived, and
// checks that each received frame has size bytes.
func runWindowed(b *testing.B, sub zmq4.Socket, size int, send func() error) {
	window := make(chan struct{}, benchInFlight)
	errc := make(chan error, 1)
	go func() {
		for i := 0; i < b.N; i++ {
			m, err := sub.Recv()
			if err != nil {
				errc <- err
				return
			}
			if len(m.Frames) != 1 || len(m.Frames[0]) != size {
				errc <- fmt.Errorf("frame %d: %d frames, %d bytes, want %d", i, len(m.Frames), len(m.Frames[0]), size)
				return
			}
			<-window
		}
		errc <- nil
	}()
	b.SetBytes(benchFrame)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		window <- struct{}{}
		if err := send(); err != nil {
			b.Fatal(err)
		}
	}
	select {
	case err := <-errc:
		if err != nil {
			b.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		b.Fatal("frames lost: the receiver is still waiting")
	}
	b.StopTimer()
	b.ReportMetric(float64(benchFrame)*float64(b.N)/b.Elapsed().Seconds()/1e6, "MB/s")
}

// BenchEightCameras publishes 8 cameras' frames at 30 Hz for b.N ticks to 8 subscribers and
// reports frames dropped anywhere (bus queues, subscriber queues): received versus published.
func BenchEightCameras(b *testing.B) {
	const cams, rate = 8, 30
	env := newBenchEnv(b, cams)
	defer env.close()
	subs := make([]zmq4.Socket, cams)
	for i := range subs {
		subs[i] = env.subscribe(b, i)
	}
	img := benchImage()
	topics := make([]string, cams)
	for i := range topics {
		topics[i] = SensorTopic(benchModel, "cam"+strconv.Itoa(i), "image")
	}
	var wg sync.WaitGroup
	received := make([]int, cams)
	for i, s := range subs {
		wg.Go(func() {
			for {
				if _, err := s.Recv(); err != nil {
					return
				}
				received[i]++
				if received[i] == b.N {
					return
				}
			}
		})
	}
	b.SetBytes(cams * benchFrame)
	b.ResetTimer()
	tick := time.NewTicker(time.Second / rate)
	defer tick.Stop()
	for i := 0; i < b.N; i++ {
		<-tick.C
		stamp := time.Duration(i) * time.Second / rate
		for _, t := range topics {
			if err := env.bus.Publish(t, img, stamp); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.StopTimer()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second): // whatever has not arrived by now was dropped
		for _, s := range subs {
			s.Close()
		}
		<-done
	}
	drops := 0
	for _, n := range received {
		drops += b.N - n
	}
	b.ReportMetric(float64(drops), "drops")
	b.ReportMetric(float64(cams*b.N-drops)/b.Elapsed().Seconds(), "frames/s")
	// Below 30 the publishing loop itself fell behind (a loaded machine): ticks were skipped,
	// not frames dropped.
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "hz")
	if drops != 0 {
		b.Errorf("%d of %d frames dropped (bridge queue drops: %d)", drops, cams*b.N, env.dropped())
	}
}

const benchModel = "bench"

// benchEnv is a world with one model carrying n 640×480 cameras, and a bridge serving it.
type benchEnv struct {
	bus    *transport.Bus
	w      *world.World
	bridge *Bridge
}

func newBenchEnv(b *testing.B, cams int) *benchEnv {
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
	br, err := Start(Config{Bus: bus, Source: loop, Logger: quiet})
	if err != nil {
		b.Fatal(err)
	}
	return &benchEnv{bus: bus, w: w, bridge: br}
}

// subscribe connects a zmq4 SUB to camera i's Data port and waits until the bridge reads the
// camera's topic.
func (e *benchEnv) subscribe(b *testing.B, i int) zmq4.Socket {
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
	tag := TagBytes(key)
	if err := sub.SetOption(zmq4.OptionSubscribe, string(tag[:])); err != nil {
		b.Fatal(err)
	}
	topic := SensorTopic(benchModel, "cam"+strconv.Itoa(i), "image")
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
