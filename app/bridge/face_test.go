package bridge

import (
	"context"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
	"google.golang.org/protobuf/proto"

	"simgui/app"
	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/app/world"
)

// hostWithBridge runs a host whose scenario world has car0 (testCar) and the bridge face.
func hostWithBridge(t *testing.T, bo app.BuildOptions, face ...Face) (*app.Host, *Face, *app.Sim) {
	t.Helper()
	bo.Logger = quiet
	h := app.NewHost(app.HostOptions{Logger: quiet})
	sim, err := h.Build(testPlan(testCar), bo)
	if err != nil {
		t.Fatal(err)
	}
	h.SetScenario(sim)
	f := &Face{}
	if len(face) > 0 {
		f = &face[0]
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx, f) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("host: %v", err)
		}
		h.Close()
	})
	select {
	case <-h.Start.Done():
	case <-time.After(20 * time.Second):
		t.Fatalf("the host did not start: missing %v", h.Start.Missing())
	}
	return h, f, sim
}

// subscribeTo subscribes a SUB client to the device hashKey served on port.
func subscribeTo(t *testing.T, port uint16, hashKey string) zmq4.Socket {
	t.Helper()
	tag := TagBytes(hashKey)
	return dialSub(t, port, tag[:])
}

// devicePort returns the port the host's devices list for hashKey, 0 if none.
func devicePort(h *app.Host, hashKey string) uint16 {
	d := h.Devices()
	if d == nil {
		return 0
	}
	return d.PortList("")[hashKey]
}

// waitPort waits until the host lists hashKey (present) or not.
func waitPort(t *testing.T, h *app.Host, hashKey string, present bool) uint16 {
	t.Helper()
	var p uint16
	waitFor(t, hashKey+" listed="+strconv.FormatBool(present), func() bool {
		p = devicePort(h, hashKey)
		return (p != 0) == present
	})
	return p
}

// The bridge as a face: it starts with the host, offers its ports to the other faces, serves
// the clock, and when it shuts down withdraws its offer and closes its ports.
func TestBridgeFaceStartsServesAndShutsDown(t *testing.T) {
	h, f, _ := hostWithBridge(t, app.BuildOptions{})
	clockPort := waitPort(t, h, "WorldSimulationWorldClock", true)
	waitPort(t, h, "car0MicomTx", true)
	sub := subscribeTo(t, clockPort, "WorldSimulationWorldClock")
	var st msgs.WorldStatistics
	m := recvTimeout(t, sub, 10*time.Second)
	if err := proto.Unmarshal(m.Frames[0][8:], &st); err != nil || st.GetSimTime() == nil {
		t.Fatalf("clock frame: %v %v", err, &st)
	}
	if err := f.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if h.Devices() != nil {
		t.Error("the bridge's ports are still offered after shutdown")
	}
	if c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(int(clockPort)), time.Second); err == nil {
		c.Close()
		t.Error("the clock port still accepts connections after shutdown")
	}
}

// The device and port lists are the world's models as they are when asked: robots spawned
// a moment before are listed whole, never a fleet half opened (cloisim_ros builds its nodes
// from the first list it gets).
func TestDeviceListIsTheWorldNow(t *testing.T) {
	h, _, sim := hostWithBridge(t, app.BuildOptions{Lockstep: true})
	waitPort(t, h, "car0MicomTx", true)
	const guests = 40
	if err := sim.Loop.Call(context.Background(), func(w *world.World) error {
		for i := range guests {
			if _, err := w.Spawn(world.AgentSpec{Name: "guest" + strconv.Itoa(i), Vehicle: w.Models()[0].Vehicle}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// The step publishes the world with them (a reset publishes its world as it returns).
	if _, err := sim.Loop.Step(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	list := h.Devices().DeviceList("")
	ports := h.Devices().PortList("")
	for i := range guests {
		name := "guest" + strconv.Itoa(i)
		if _, ok := list[name]["MICOM"]; !ok {
			t.Errorf("device_list right after the spawn lacks %s (%d models listed)", name, len(list))
		}
		if ports[name+"MicomTx"] == 0 {
			t.Errorf("port_list right after the spawn lacks %sMicomTx", name)
		}
	}
}

// Switching the active world re-registers the devices: the episode's robot gets ports, the
// scenario's loses them, and a client reads the new robot's clock and micom odometry.
func TestBridgeFollowsTheActiveWorld(t *testing.T) {
	h, _, scenarioWorld := hostWithBridge(t, app.BuildOptions{})
	waitPort(t, h, "car0MicomTx", true)
	clockPort := devicePort(h, "WorldSimulationWorldClock")

	// A training episode: its own world, lockstep, with "rover".
	ep, err := h.Build(testPlan(testCar, "rover"), app.BuildOptions{Lockstep: true, Kind: app.KindEpisode, Label: "episode 1 · rover", Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.AddEpisode("episode-1", []*app.Sim{ep}, ep); err != nil {
		t.Fatal(err)
	}
	tx := waitPort(t, h, "roverMicomTx", true)
	waitPort(t, h, "car0MicomTx", false)
	if p := devicePort(h, "WorldSimulationWorldClock"); p != clockPort {
		t.Errorf("the world clock moved from port %d to %d", clockPort, p)
	}
	if _, ok := h.Devices().DeviceList("")["rover"]["MICOM"]; !ok {
		t.Errorf("device_list %v has no rover micom", h.Devices().DeviceList(""))
	}

	clock := subscribeTo(t, clockPort, "WorldSimulationWorldClock")
	odom := subscribeTo(t, tx, "roverMicomTx")
	waitFor(t, "the bridge to subscribe to rover's odometry", func() bool {
		return ep.Bus.HasSubscribers(transport.OdometryTopic("rover"))
	})
	// The episode moves only when stepped: its clock says so.
	rover := &msgs.Twist{Linear: &msgs.Vector3D{X: 0.3}}
	if err := ep.Loop.Do(func(w *world.World) { w.Model("rover").Command.Twist = true }); err != nil {
		t.Fatal(err)
	}
	ep.Bus.Publish(transport.CmdVelTopic("rover"), rover, 0)
	if _, err := ep.Loop.Step(context.Background(), 100); err != nil {
		t.Fatal(err)
	}
	var st msgs.WorldStatistics
	waitFor(t, "the episode's time on the world clock", func() bool {
		m := recvTimeout(t, clock, 10*time.Second)
		proto.Unmarshal(m.Frames[0][8:], &st)
		return st.GetSimTime().AsDuration() == 500*time.Millisecond && st.GetStepping()
	})
	var mc msgs.Micom
	waitFor(t, "rover's odometry at 0.5 s", func() bool {
		m := recvTimeout(t, odom, 10*time.Second)
		if err := proto.Unmarshal(m.Frames[0][8:], &mc); err != nil {
			t.Fatal(err)
		}
		return mc.GetTime().AsDuration() == 500*time.Millisecond
	})
	if x := mc.GetOdom().GetTwist().GetLinear().GetX(); x < 0.25 || mc.GetOdom().GetPose().GetX() < 0.05 {
		t.Fatalf("rover's micom at 0.5 s of Twist 0.3 m/s: %v", &mc)
	}
	if scenarioWorld.Loop.Snapshot().Paused != true {
		t.Error("the scenario world runs while the episode is on show")
	}

	// The episode ends: the scenario's robot is served again.
	h.RemoveEpisode("episode-1")
	waitPort(t, h, "car0MicomTx", true)
	waitPort(t, h, "roverMicomTx", false)
}

// A training episode that lists a newcomer before the scenario's robot: car0 keeps every port
// it had, and the newcomer takes none of them. cloisim_ros never reads a running node's ports
// again, so car0's nodes on ports that had moved to rover heard nothing and ended cloisim_ros.
func TestBridgeKeepsARobotsPortsAcrossWorlds(t *testing.T) {
	h, _, _ := hostWithBridge(t, app.BuildOptions{})
	waitPort(t, h, "car0MicomTx", true)
	before := h.Devices().PortList("car0")
	ep, err := h.Build(testPlan(testCar, "rover", "car0"), app.BuildOptions{Lockstep: true, Kind: app.KindEpisode, Label: "episode 1", Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.AddEpisode("episode-1", []*app.Sim{ep}, ep); err != nil {
		t.Fatal(err)
	}
	waitPort(t, h, "roverMicomTx", true)
	waitFor(t, "car0's devices in the episode", func() bool { return len(h.Devices().PortList("car0")) == len(before) })
	taken := map[uint16]string{}
	for k, p := range before {
		taken[p] = k
	}
	for k, p := range h.Devices().PortList("") {
		if was, ok := taken[p]; ok && was != k {
			t.Errorf("%s took port %d, car0's %s before", k, p, was)
		}
	}
	for k, p := range before {
		if now := devicePort(h, k); now != p {
			t.Errorf("%s moved from port %d to %d", k, p, now)
		}
	}
	// A client of car0's micom from before the episode reads the episode's car0.
	tx := subscribeTo(t, before["car0MicomTx"], "car0MicomTx")
	if _, err := ep.Loop.Step(context.Background(), 20); err != nil {
		t.Fatal(err)
	}
	var mc msgs.Micom
	if err := proto.Unmarshal(recvTimeout(t, tx, 10*time.Second).Frames[0][8:], &mc); err != nil {
		t.Fatal(err)
	}
}

// A client connected to a robot's device before a training episode that has the robot too
// reads the episode's robot on the same connection: the socket stays, only its feed moves. A
// closed and rebound port left cloisim_ros's clients without data until libzmq reconnected,
// a second later, at every reset.
func TestBridgeKeepsClientsAcrossWorlds(t *testing.T) {
	h, _, _ := hostWithBridge(t, app.BuildOptions{})
	port := waitPort(t, h, "car0MicomTx", true)
	tag := TagBytes("car0MicomTx")
	p := dialRaw(t, port, zmq4.Sub)
	if err := p.zc.SendMsg(zmq4.NewMsg(append([]byte{1}, tag[:]...))); err != nil {
		t.Fatal(err)
	}
	p.recv(t) // the scenario's car0

	ep, err := h.Build(testPlan(testCar, "car0"), app.BuildOptions{Lockstep: true, Kind: app.KindEpisode, Label: "episode 1", Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.AddEpisode("episode-1", []*app.Sim{ep}, ep); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the bridge to read the episode's car0", func() bool {
		return ep.Bus.HasSubscribers(transport.OdometryTopic("car0"))
	})
	if got := devicePort(h, "car0MicomTx"); got != port {
		t.Fatalf("car0MicomTx moved from port %d to %d", port, got)
	}
	if _, err := ep.Loop.Step(context.Background(), 20); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		var mc msgs.Micom
		if err := proto.Unmarshal(p.recv(t).Frames[0][8:], &mc); err != nil {
			t.Fatal(err)
		}
		if mc.GetTime().AsDuration() == 100*time.Millisecond {
			break // the episode's car0 after 20 steps, on the connection made before it
		}
		if i > 1000 {
			t.Fatal("no odometry of the episode's car0 at 0.1 s")
		}
	}
}

// Micom odometry is integrated on sim time: two runs with the same seed, one at real time and
// one ten times faster, send the same messages over the wire, byte for byte.
func TestMicomOdometrySameAtAnyTimeScale(t *testing.T) {
	run := func(scale float64) [][]byte {
		// A queue that holds a second's worth, so that a busy test machine drops nothing.
		h, _, sim := hostWithBridge(t, app.BuildOptions{TimeScale: &scale, Paused: true}, Face{QueueLen: 64})
		tx := waitPort(t, h, "car0MicomTx", true)
		sub := subscribeTo(t, tx, "car0MicomTx")
		waitFor(t, "the bridge to subscribe to car0's odometry", func() bool {
			return sim.Bus.HasSubscribers(transport.OdometryTopic("car0"))
		})
		sim.Loop.Do(func(w *world.World) {
			w.Model("car0").Command.Twist, w.Model("car0").Command.Linear[0], w.Model("car0").Command.Angular = true, 0.3, 0.4
		})
		if err := sim.Loop.Resume(); err != nil {
			t.Fatal(err)
		}
		var out [][]byte
		for len(out) < 50 { // 1 s of sim time at 50 Hz
			m := recvTimeout(t, sub, 10*time.Second)
			// While the world stood paused, the port may have asked it for its newest reading
			// (and repeated it): odometry at time 0, there or not as the machine's load has the
			// bridge's keep-alive tick come before the resume or after.
			var mc msgs.Micom
			if err := proto.Unmarshal(m.Frames[0][8:], &mc); err != nil {
				t.Fatal(err)
			}
			if mc.GetTime().AsDuration() == 0 {
				continue
			}
			out = append(out, m.Frames[0])
		}
		sim.Loop.Pause()
		return out
	}
	real, fast := run(1), run(10)
	for i := range real {
		if string(real[i]) != string(fast[i]) {
			var a, b msgs.Micom
			proto.Unmarshal(real[i][8:], &a)
			proto.Unmarshal(fast[i][8:], &b)
			t.Fatalf("message %d differs between time scales 1 and 10:\n%v\n%v", i, &a, &b)
		}
	}
	var last msgs.Micom
	proto.Unmarshal(real[49][8:], &last)
	if last.GetTime().AsDuration() != time.Second || last.GetOdom().GetPose().GetX() < 0.2 {
		t.Fatalf("the 50th message: %v", &last)
	}
}

// A move to another world is announced on the world Control channel as a reset, before the
// clock jumps to the new world's time: a training episode's world and, when it ends, the
// scenario's again. cloisim_ros's World node resets its nodes' time on it.
func TestBridgeAnnouncesWorldChanges(t *testing.T) {
	h, _, _ := hostWithBridge(t, app.BuildOptions{})
	waitPort(t, h, "car0MicomTx", true)
	rep := zmq4.NewRep(context.Background(), zmq4.WithLogger(zlog))
	t.Cleanup(func() { rep.Close() })
	if err := rep.Dial(endpoint(devicePort(h, "WorldSimulationWorldControl"))); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the Control client to be connected", func() bool { return h.Devices().(interface{ ControlClients() int }).ControlClients() == 1 })
	// answer waits for the bridge's request, checks it is a reset, and answers it.
	answer := func(when string) {
		t.Helper()
		m := recvTimeout(t, rep, 20*time.Second)
		tag := TagBytes("WorldSimulationWorldControl")
		var p msgs.Param
		if len(m.Frames) != 1 || len(m.Frames[0]) < 8 || string(m.Frames[0][:8]) != string(tag[:]) {
			t.Fatalf("%s: the request %q is not tagged for the Control port", when, m.Frames)
		}
		if err := proto.Unmarshal(m.Frames[0][8:], &p); err != nil || !p.GetParams()["reset_simulation"].GetBoolValue() {
			t.Fatalf("%s: the Control client got %v (%v), want reset_simulation true", when, &p, err)
		}
		out, _ := proto.Marshal(&msgs.Param{Params: map[string]*msgs.Any{
			"result": {Type: msgs.Any_STRING, Value: &msgs.Any_StringValue{StringValue: "ok"}}}})
		if err := rep.Send(zmq4.NewMsg(append(tag[:], out...))); err != nil {
			t.Fatal(err)
		}
	}

	ep, err := h.Build(testPlan(testCar, "rover"), app.BuildOptions{Lockstep: true, Kind: app.KindEpisode, Label: "episode 1 · rover", Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.AddEpisode("episode-1", []*app.Sim{ep}, ep); err != nil {
		t.Fatal(err)
	}
	answer("the episode's world on show")
	waitPort(t, h, "roverMicomTx", true)
	h.RemoveEpisode("episode-1")
	answer("the scenario's world on show again")
	waitPort(t, h, "car0MicomTx", true)
}
