package bridge

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
	"google.golang.org/protobuf/proto"

	"simgui/app"
	"simgui/app/scenario"
	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/app/world"
	"simgui/plugins"
)

// testCar has one sensor of every served kind and one (speedometer) that is not served.
var testCar = &plugins.VehicleDescriptor{
	ID: "vehicle.test.car.v1", DisplayName: "Test car", Version: plugins.ContractVersion{Major: 1},
	Body:  &plugins.Body{Shape: "box", Length: 0.25, Width: 0.15, Height: 0.12, Mass: 1, Friction: 0.9},
	Drive: &plugins.Drive{Model: "differential"},
	Sensors: []plugins.SensorMount{
		{ID: "lidar.top", Kind: "lidar", Pose: plugins.Pose3{Z: 0.2}, Params: map[string]float64{"samples": 8}},
		{ID: "imu", Kind: "imu", Pose: plugins.Pose3{Z: 0.05}},
		{ID: "camera.front", Kind: "camera", Pose: plugins.Pose3{X: 0.1, Z: 0.1, PitchDeg: 5}, Params: map[string]float64{"fovDeg": 60, "near": 0.05, "far": 20}},
		{ID: "depth.front", Kind: "depth", Pose: plugins.Pose3{X: 0.1, Z: 0.1}},
		{ID: "speedometer", Kind: "speedometer"},
	},
	Contract: &plugins.DeviceContract{Sensors: []plugins.SensorDescriptor{
		{ID: "camera.front", SensorType: "camera", Shape: []int{48, 64, 3}, RateHz: 30},
		{ID: "depth.front", SensorType: "depth", Shape: []int{12, 16}, RateHz: 15},
	}},
}

var testTrack = &plugins.TrackDescriptor{
	ID:          "track.test.v1",
	SpawnPoints: []plugins.SpawnPoint{{X: 0, Y: 0}, {X: 0, Y: 1}},
}

// testPlan is a plan for the test track with car0 driving v, at real time.
func testPlan(v *plugins.VehicleDescriptor, names ...string) *scenario.Plan {
	if len(names) == 0 {
		names = []string{"car0"}
	}
	p := &scenario.Plan{Scenario: &scenario.Scenario{Source: "bridge test"}, WorldName: "test", Track: testTrack,
		TrackParams: map[string]any{}, StepSize: 0.005, TimeScale: 1, ActionPeriod: 0.05, VehicleCollisions: true}
	for _, n := range names {
		p.Agents = append(p.Agents, world.AgentSpec{Name: n, Vehicle: v})
	}
	p.Primary = names[0]
	return p
}

// testWorld is a real world and loop running at real time with one agent, car0, and a bridge
// serving it.
type testWorld struct {
	bus    *transport.Bus
	w      *world.World
	loop   *world.Loop
	bridge *Bridge
}

func startWorld(t *testing.T) *testWorld { t.Helper(); return startWorldWith(t, testCar) }

// startWorldWith is startWorld with car0 driving vehicle v.
func startWorldWith(t *testing.T, v *plugins.VehicleDescriptor) *testWorld {
	t.Helper()
	return startWorldOpts(t, v, Config{Logger: quiet})
}

// startWorldLogged is startWorld with the bridge logging to log.
func startWorldLogged(t *testing.T, log *slog.Logger) *testWorld {
	t.Helper()
	return startWorldOpts(t, testCar, Config{Logger: log})
}

// startWorldOpts is startWorld with car0 (or the agents named) driving v and the bridge
// configured by cfg (its Bus, Source and, when zero, DiscoveryInterval are the test world's).
func startWorldOpts(t *testing.T, v *plugins.VehicleDescriptor, cfg Config, names ...string) *testWorld {
	t.Helper()
	// The app's builder: the world with its default systems (gz topics, clock, odometry).
	sim, err := app.Build(testPlan(v, names...), app.BuildOptions{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go sim.Run(ctx)
	cfg.Bus, cfg.Source = sim.Bus, sim.Loop
	if cfg.DiscoveryInterval == 0 {
		cfg.DiscoveryInterval = 20 * time.Millisecond
	}
	b, err := Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		b.Close()
		cancel()
		<-sim.Loop.Done()
		sim.Close()
	})
	return &testWorld{bus: sim.Bus, w: sim.World, loop: sim.Loop, bridge: b}
}

func (tw *testWorld) port(t *testing.T, key string) uint16 {
	t.Helper()
	p, ok := tw.bridge.Manager().SearchSensorPort(key)
	if !ok {
		t.Fatalf("no port for %s (ports: %v)", key, tw.bridge.Manager().GetDevicePortList(""))
	}
	return p
}

// info sends one Info request with a zmq4 REQ and returns the reply payload after the tag.
func (tw *testWorld) info(t *testing.T, key, request string, value *msgs.Any) []byte {
	t.Helper()
	req := zmq4.NewReq(context.Background(), zmq4.WithLogger(zlog))
	defer req.Close()
	if err := req.Dial(endpoint(tw.port(t, key))); err != nil {
		t.Fatal(err)
	}
	if value == nil {
		value = &msgs.Any{}
	}
	b, err := proto.Marshal(param(request, value))
	if err != nil {
		t.Fatal(err)
	}
	if err := req.Send(zmq4.NewMsg(tagged("anything", b))); err != nil {
		t.Fatal(err)
	}
	m := recvTimeout(t, req, 3*time.Second)
	if len(m.Frames) != 1 || !hasTag(m.Frames[0], key) {
		t.Fatalf("%s reply: %s", request, fmtFrames(m))
	}
	return m.Frames[0][8:]
}

// subscribe connects a zmq4 SUB to key's port, subscribed to key's tag.
func (tw *testWorld) subscribe(t *testing.T, key string) zmq4.Socket {
	t.Helper()
	tag := TagBytes(key)
	return dialSub(t, tw.port(t, key), tag[:])
}

// recvProto receives one message on sub and decodes its payload into m.
func recvProto(t *testing.T, sub zmq4.Socket, key string, m proto.Message) {
	t.Helper()
	msg := recvTimeout(t, sub, 3*time.Second)
	if len(msg.Frames) != 1 || !hasTag(msg.Frames[0], key) {
		t.Fatalf("%s: %s", key, fmtFrames(msg))
	}
	if err := proto.Unmarshal(msg.Frames[0][8:], m); err != nil {
		t.Fatalf("%s: %v", key, err)
	}
}
