package bridge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
	"google.golang.org/protobuf/proto"

	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/app/world"
)

// logRecorder is a slog.Handler keeping every record as "LEVEL msg k=v ..." lines.
type logRecorder struct {
	mu    sync.Mutex
	lines []string
}

func (r *logRecorder) Enabled(context.Context, slog.Level) bool { return true }
func (r *logRecorder) WithAttrs([]slog.Attr) slog.Handler       { return r }
func (r *logRecorder) WithGroup(string) slog.Handler            { return r }
func (r *logRecorder) Handle(_ context.Context, rec slog.Record) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", rec.Level, rec.Message)
	rec.Attrs(func(a slog.Attr) bool {
		fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
		return true
	})
	r.mu.Lock()
	r.lines = append(r.lines, b.String())
	r.mu.Unlock()
	return nil
}

// find returns the first line containing every part.
func (r *logRecorder) find(parts ...string) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
next:
	for _, l := range r.lines {
		for _, p := range parts {
			if !strings.Contains(l, p) {
				continue next
			}
		}
		return l, true
	}
	return "", false
}

// count returns how many lines hold part.
func (r *logRecorder) count(part string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, l := range r.lines {
		if strings.Contains(l, part) {
			n++
		}
	}
	return n
}

// waitSimAdvance waits until the loop's sim time passes what it is now: the world steps.
func waitSimAdvance(t *testing.T, loop *world.Loop) {
	t.Helper()
	before := loop.Snapshot().SimTime
	waitFor(t, "sim time to advance", func() bool { return loop.Snapshot().SimTime > before })
}

// sendRaw connects to port, sends stream, and waits for the server to close the connection.
// It returns the client's address as the server sees it.
func sendRaw(t *testing.T, port uint16, stream []byte) string {
	t.Helper()
	c, err := net.Dial("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(int(port))))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	// The server may close before it has read everything: a failed write is expected then.
	go c.Write(stream)
	if _, err := io.Copy(io.Discard, c); err != nil && !isReset(err) {
		t.Fatalf("port %d did not close the connection: %v", port, err)
	}
	return c.LocalAddr().String()
}

func isReset(err error) bool {
	return strings.Contains(err.Error(), "connection reset")
}

// TestHostilePeersOnEveryPortKind sends each port kind (SUB: micom Rx, REP: micom Info, PUB:
// camera Data and the clock) streams that crashed or exhausted the process: a frame header
// declaring 2^62 or 2^40 bytes before and after the handshake, a message one byte over the
// limit in one frame and across frames, 65 frames, a READY whose metadata breaks zmq4's
// parser, and noise. Each connection is closed and logged with the peer's address, the world
// keeps stepping after each, the port still serves a good client afterwards, and the heap
// does not grow by what the headers declared.
func TestHostilePeersOnEveryPortKind(t *testing.T) {
	rec := &logRecorder{}
	tw := startWorldLogged(t, slog.New(rec))
	max := uint64(DefaultMaxMessage)
	noise := bytes.Repeat([]byte{0xff}, 2048)

	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)

	for _, port := range []struct {
		key, peerType string
	}{
		{"car0MicomRx", "PUB"},
		{"car0MicomInfo", "REQ"},
		{"car0camera_frontData", "SUB"},
		{"WorldSimulationWorldClock", "SUB"},
	} {
		g, ready := zmtpGreeting(), zmtpReady(port.peerType)
		for _, tc := range []struct {
			name   string
			stream []byte
			log    string // what the server's log line says
		}{
			{"handshake: 2^62-byte command", concat(g, zmtpHeader(flagCommand|flagLong, 1<<62)), "over the limit"},
			{"handshake: 2^40-byte command", concat(g, zmtpHeader(flagCommand|flagLong, 1<<40)), "over the limit"},
			{"handshake: READY one byte over", concat(g, zmtpHeader(flagCommand|flagLong, max+1)), "over the limit"},
			{"handshake: READY with broken metadata", concat(g, zmtpFrame(flagCommand, []byte("\x05READY\x01"))), "panic"},
			{"after READY: 2^62-byte message", concat(g, ready, zmtpHeader(flagLong, 1<<62)), "over the limit"},
			{"after READY: 2^40-byte message", concat(g, ready, zmtpHeader(flagLong, 1<<40)), "over the limit"},
			{"after READY: one byte over", concat(g, ready, zmtpHeader(flagLong, max+1)), "over the limit"},
			{"after READY: over across frames", concat(g, ready, zmtpFrame(flagMore, make([]byte, max/2)), zmtpHeader(flagLong, max/2+1)), "over the limit"},
			{"after READY: 65 frames", concat(g, ready, bytes.Repeat(zmtpFrame(flagMore, nil), maxFrames+1)), "over the limit"},
			{"noise instead of a greeting", concat(g, noise), "over the limit"},
		} {
			t.Run(port.key+"/"+tc.name, func(t *testing.T) {
				// Panics are logged in full only up to a budget per process, which other
				// tests of the package (and -count) spend: this case's must be logged.
				panicLog.n.Store(0)
				addr := sendRaw(t, tw.port(t, port.key), tc.stream)
				waitFor(t, "the log line", func() bool { _, ok := rec.find(port.key, addr, tc.log); return ok })
				waitSimAdvance(t, tw.loop)
			})
		}
	}

	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	grew := int64(after.HeapInuse) - int64(before.HeapInuse)
	t.Logf("heap in use %.1f MiB before the hostile streams, %.1f MiB after (%+.1f MiB); headers declared up to 2^62 bytes",
		float64(before.HeapInuse)/(1<<20), float64(after.HeapInuse)/(1<<20), float64(grew)/(1<<20))
	if grew > 16<<20 {
		t.Errorf("heap grew by %d bytes", grew)
	}

	// Every port still serves: Info answers, Rx moves the car, Data and the clock publish.
	if rep := tw.info(t, "car0MicomInfo", reqROS2, nil); len(rep) == 0 {
		t.Error("no ros2 answer after the hostile streams")
	}
	clock := tw.subscribe(t, "WorldSimulationWorldClock")
	var stats msgs.WorldStatistics
	recvProto(t, clock, "WorldSimulationWorldClock", &stats)
	cam := tw.subscribe(t, "car0camera_frontData")
	topic := SensorTopic("car0", "camera.front", "image")
	waitFor(t, "the bridge to read the camera topic", func() bool { return tw.bus.HasSubscribers(topic) })
	img := &msgs.Image{Width: 2, Height: 1, Step: 6, Data: make([]byte, 6), PixelFormatType: msgs.PixelFormatType_RGB_INT8}
	if err := tw.bus.Publish(topic, img, time.Second); err != nil {
		t.Fatal(err)
	}
	if m := recvTimeout(t, cam, 5*time.Second); len(m.Frames) != 1 || !hasTag(m.Frames[0], "car0camera_frontData") {
		t.Errorf("camera frame %s", fmtFrames(m))
	}
	sendTwists(t, tw, &msgs.Twist{Linear: &msgs.Vector3D{X: 0.4}}, func() bool {
		m, _ := tw.loop.Snapshot().Model("car0")
		return m.Pose.X > 0.05
	})
}

// TestMicomRefusesNonFiniteTwists: NaN, ±Inf and absurd components never reach cmd_vel: the
// robot stops instead (a zero Twist), said once in the log; a sane Twist sent after them
// drives it.
func TestMicomRefusesNonFiniteTwists(t *testing.T) {
	rec := &logRecorder{}
	tw := startWorldLogged(t, slog.New(rec))
	sub := tw.bus.Subscribe(transport.CmdVelTopic("car0"))
	defer sub.Close()
	pub := zmq4.NewPub(context.Background(), zmq4.WithLogger(zlog))
	defer pub.Close()
	if err := pub.Dial(endpoint(tw.port(t, "car0MicomRx"))); err != nil {
		t.Fatal(err)
	}
	nan, inf := math.NaN(), math.Inf(1)
	bad := []*msgs.Twist{
		{Linear: &msgs.Vector3D{X: nan}},
		{Linear: &msgs.Vector3D{Y: inf}},
		{Angular: &msgs.Vector3D{Z: -inf}},
		{Angular: &msgs.Vector3D{X: nan}},
		{Linear: &msgs.Vector3D{X: 1e300}},
		{Linear: &msgs.Vector3D{Z: -MaxTwist - 1}},
	}
	good := &msgs.Twist{Linear: &msgs.Vector3D{X: 0.25}, Angular: &msgs.Vector3D{Z: -MaxTwist}}
	// The SUB side subscribes after the connection: send until the good one arrives.
	deadline := time.Now().Add(10 * time.Second)
	stops := 0
	for {
		for _, m := range append(bad, good) {
			b, _ := proto.Marshal(m)
			if err := pub.Send(zmq4.NewMsg(tagged("car0MicomRx", b))); err != nil {
				t.Fatal(err)
			}
		}
	drain:
		for {
			select {
			case m := <-sub.C():
				got := m.Msg.(*msgs.Twist)
				if proto.Equal(got, &msgs.Twist{}) {
					stops++
					continue
				}
				if !proto.Equal(got, good) {
					t.Fatalf("cmd_vel got %v; only %v or a stop may pass", got, good)
				}
				// The first messages may go before the subscription takes hold.
				if stops == 0 {
					t.Error("no stop for the bad Twists before the good one")
				}
				waitSimAdvance(t, tw.loop)
				if p, _ := tw.loop.Snapshot().Model("car0"); math.IsNaN(p.Pose.X) || math.IsNaN(p.Pose.Yaw) {
					t.Fatalf("pose %v", p.Pose)
				}
				if n := rec.count("command refused; the robot stops"); n != 1 {
					t.Errorf("%d warnings of refused commands, want 1", n)
				}
				return
			case <-time.After(50 * time.Millisecond):
				break drain
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("the good Twist never arrived")
		}
	}
}

// sendTwists sends tw's micom Rx the Twist until done holds.
func sendTwists(t *testing.T, tw *testWorld, m *msgs.Twist, done func() bool) {
	t.Helper()
	pub := zmq4.NewPub(context.Background(), zmq4.WithLogger(zlog))
	defer pub.Close()
	if err := pub.Dial(endpoint(tw.port(t, "car0MicomRx"))); err != nil {
		t.Fatal(err)
	}
	b, _ := proto.Marshal(m)
	waitFor(t, "the Twist to take effect", func() bool {
		pub.Send(zmq4.NewMsg(tagged("car0MicomRx", b)))
		return done()
	})
}

// TestPortConnectionCap: a port serves at most maxPeers connections (handshakes included); one
// more closes the connection idle the longest, logged, so silent connections cannot lock the
// real client out, and a client that uses its connection keeps it.
func TestPortConnectionCap(t *testing.T) {
	rec := &logRecorder{}
	cfg := testConfig()
	cfg.maxPeers, cfg.log = 2, slog.New(rec)
	s := bindTest(t, kindRep, "capInfo", cfg, handlers{onRequest: func(p []byte) []byte { return p }})
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(int(s.Port())))
	var idle []net.Conn
	for i := range 2 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		idle = append(idle, c)
		waitFor(t, "the connection accepted", func() bool { s.mu.Lock(); defer s.mu.Unlock(); return len(s.conns) == i+1 })
	}
	ask := func(p *rawPeer, what string) {
		t.Helper()
		if err := p.zc.SendMsg(zmq4.NewMsgFrom(nil, []byte("12345678"+what))); err != nil {
			t.Fatal(err)
		}
		if m := p.recv(t); len(m.Frames) != 2 || string(m.Frames[1][8:]) != what {
			t.Fatalf("reply %s", fmtFrames(m))
		}
	}
	client := dialRaw(t, s.Port(), zmq4.Req)
	ask(client, "hello")
	if _, ok := rec.find("closed one to make room", "closed="+idle[0].LocalAddr().String(), "limit=2"); !ok {
		t.Errorf("no log line for the first idle connection closed; log %q", rec.lines)
	}
	// The next newcomer closes the other idle one, not the client that asked.
	late := dialRaw(t, s.Port(), zmq4.Req)
	ask(late, "late")
	ask(client, "again")
	if _, ok := rec.find("closed one to make room", "closed="+idle[1].LocalAddr().String()); !ok {
		t.Errorf("no log line for the second idle connection closed; log %q", rec.lines)
	}
}

// TestPortCapKeepsQuietClients: connections that never finish the ZMTP handshake push one
// another out, not a client that did and has been quiet since.
func TestPortCapKeepsQuietClients(t *testing.T) {
	cfg := testConfig()
	cfg.maxPeers = 2
	s := bindTest(t, kindRep, "capQuiet", cfg, handlers{onRequest: func(p []byte) []byte { return p }})
	client := dialRaw(t, s.Port(), zmq4.Req)
	if err := client.zc.SendMsg(zmq4.NewMsgFrom(nil, []byte("12345678hello"))); err != nil {
		t.Fatal(err)
	}
	client.recv(t)
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(int(s.Port())))
	for i := range 5 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		waitFor(t, fmt.Sprintf("silent connection %d accepted", i), func() bool {
			s.mu.Lock()
			defer s.mu.Unlock()
			for _, a := range s.conns {
				if !a.ready.Load() && time.Since(time.Unix(0, a.last.Load())) < time.Minute {
					return len(s.conns) == 2
				}
			}
			return false
		})
	}
	if err := client.zc.SendMsg(zmq4.NewMsgFrom(nil, []byte("12345678still"))); err != nil {
		t.Fatalf("the quiet client was pushed out: %v", err)
	}
	if m := client.recv(t); len(m.Frames) != 2 || string(m.Frames[1][8:]) != "still" {
		t.Fatalf("reply %s", fmtFrames(m))
	}
}

// TestSubscriptionsStayBounded: a subscriber sending thousands of distinct topics costs at
// most the nine prefixes of the port's tag, and its real subscription still works.
func TestSubscriptionsStayBounded(t *testing.T) {
	const key = "boundData"
	s := bindTest(t, kindPub, key, testConfig(), handlers{})
	tag := TagBytes(key)
	p := dialRaw(t, s.Port(), zmq4.Sub)
	for i := range 5000 {
		topic := append([]byte{1}, strconv.Itoa(i)...)
		if err := p.zc.SendMsg(zmq4.NewMsg(topic)); err != nil {
			t.Fatal(err)
		}
	}
	p.zc.SendMsg(zmq4.NewMsg(append([]byte{1}, tag[:4]...)))
	waitFor(t, "the subscription", s.Subscribed)
	s.mu.Lock()
	for peer := range s.peers {
		if len(peer.subs) > 9 {
			t.Errorf("peer keeps %d subscriptions", len(peer.subs))
		}
	}
	s.mu.Unlock()
	s.Publish(append(s.Frame(1), 42))
	if m := p.recv(t); len(m.Frames) != 1 || !bytes.Equal(m.Frames[0], append(tag[:], 42)) {
		t.Errorf("got %s", fmtFrames(m))
	}
}

// TestServedModelsAreCapped: past MaxModels, models get no ports (a fleet of thousands would
// take every free port of the machine) and one warning says so; when a served model goes, the
// next one waiting is served.
func TestServedModelsAreCapped(t *testing.T) {
	rec := &logRecorder{}
	tw := startWorldOpts(t, testCar, Config{Logger: slog.New(rec), MaxModels: 2})
	m := tw.bridge.Manager()
	tw.spawnAll(t, "car1", "car2", "car3")
	waitFor(t, "the warning", func() bool {
		_, ok := rec.find("WARN", "no device ports", "served=2", "unserved=2", "limit=2")
		return ok
	})
	if got := len(m.GetDevicePortList("car1")); got != 12 {
		t.Errorf("car1 has %d ports, want 12", got)
	}
	for _, name := range []string{"car2", "car3"} {
		if got := m.GetDevicePortList(name); len(got) != 0 {
			t.Errorf("%s is served past the limit: %v", name, got)
		}
	}
	if err := tw.loop.Call(context.Background(), func(w *world.World) error { return w.Remove("car0") }); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "car2 served in car0's place", func() bool { return len(m.GetDevicePortList("car2")) == 12 })
	waitFor(t, "the warning that one is left", func() bool {
		_, ok := rec.find("WARN", "no device ports", "served=2", "unserved=1", "limit=2")
		return ok
	})
	if got := m.GetDevicePortList("car3"); len(got) != 0 {
		t.Errorf("car3 is served past the limit: %v", got)
	}
	rec.mu.Lock()
	warnings := 0
	for _, l := range rec.lines {
		if strings.Contains(l, "no device ports") {
			warnings++
		}
	}
	rec.mu.Unlock()
	if warnings != 2 { // 2 unserved, then 1: a line each time the number changes, not a sync
		t.Errorf("%d warnings, want 2", warnings)
	}
}

// spawnAll spawns testCars of the names in one call, so that every sync of the bridge sees
// all of them or none.
func (tw *testWorld) spawnAll(t *testing.T, names ...string) {
	t.Helper()
	if err := tw.loop.Call(context.Background(), func(w *world.World) error {
		for _, name := range names {
			if _, err := w.Spawn(world.AgentSpec{Name: name, Vehicle: testCar}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// TestUsedUpPortRangeSaysSoOnce: when the port range is used up, the models left without
// ports are counted in one error line that says how to widen it, not a line each.
func TestUsedUpPortRangeSaysSoOnce(t *testing.T) {
	rec := &logRecorder{}
	first := freeRange(t, 14)
	tw := startWorldOpts(t, testCar, Config{Logger: slog.New(rec), FirstPort: first, LastPort: first + 13})
	m := tw.bridge.Manager()
	tw.spawnAll(t, "car1", "car2", "car3")
	waitFor(t, "the used-up range's line", func() bool {
		_, ok := rec.find("ERROR", "no more device ports", "--bridge-ports", "models=3", "served=1", "no free port")
		return ok
	})
	if got := len(m.GetDevicePortList("car0")); got != 12 {
		t.Errorf("car0 has %d ports, want 12", got)
	}
	if n := rec.count("cannot serve model's devices"); n != 0 {
		t.Errorf("%d lines of a model each, want the one line", n)
	}
}

// TestSmallerModelsTakeThePortsLeft: when a model finds too few ports left, a later one that
// needs fewer is still served; the one left out is served once a served model lets its ports
// go. portsOf counts a model's ports as openRobot takes them.
func TestSmallerModelsTakeThePortsLeft(t *testing.T) {
	first := freeRange(t, 20)
	tw := startWorldOpts(t, testCar, Config{Logger: quiet, FirstPort: first, LastPort: first + 19})
	m := tw.bridge.Manager()
	if got, want := len(m.GetDevicePortList("car0")), portsOf(world.ModelState{Vehicle: testCar}); got != want {
		t.Fatalf("car0 has %d ports, portsOf says %d", got, want)
	}
	// 2 for the world, 12 for car0: 6 left, too few for car1 (12), enough for bot (4).
	bare := testCar.Clone()
	bare.Sensors, bare.Contract = nil, nil
	if err := tw.loop.Call(context.Background(), func(w *world.World) error {
		if _, err := w.Spawn(world.AgentSpec{Name: "car1", Vehicle: testCar}); err != nil {
			return err
		}
		_, err := w.Spawn(world.AgentSpec{Name: "bot", Vehicle: bare})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "bot's micom", func() bool { return len(m.GetDevicePortList("bot")) == micomPorts })
	if n := len(m.GetDevicePortList("car1")); n != 0 {
		t.Fatalf("car1 has %d ports in a range that has not 12 left", n)
	}
	if err := tw.loop.Call(context.Background(), func(w *world.World) error { return w.Remove("car0") }); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "car1 served with car0's ports", func() bool { return len(m.GetDevicePortList("car1")) == 12 })
}

// TestModelsListedUnderOneNameSayWhich: two models whose names make the same ROS 2 name
// (r-1, r_1) cannot both be listed; the second is refused with a line naming the first and
// the name they share, and the first keeps its devices.
func TestModelsListedUnderOneNameSayWhich(t *testing.T) {
	rec := &logRecorder{}
	tw := startWorldOpts(t, testCar, Config{Logger: slog.New(rec)})
	m := tw.bridge.Manager()
	for _, name := range []string{"r-1", "r_1"} {
		tw.spawnAll(t, name)
		waitFor(t, name+" seen by the bridge", func() bool {
			_, refused := rec.find("model="+name, "cannot serve")
			return len(m.GetDevicePortList("r_1")) == 12 && (name == "r-1" || refused)
		})
	}
	if _, ok := rec.find("ERROR", "model=r_1", "listed as r_1, as model r-1's are", "rename one"); !ok {
		t.Errorf("no line naming both models; log:\n%s", strings.Join(rec.lines, "\n"))
	}
}

// TestConnectionBudgetAcrossPorts: the ports of a bridge serve at most the budget's
// connections together, each port under its own cap: past it the connection idle the
// longest, of any port, is closed (logged), those still in their handshake first, so the
// client that did its handshake keeps its connection. 19,000 connections spread over 800
// ports once took every file descriptor of the process.
func TestConnectionBudgetAcrossPorts(t *testing.T) {
	rec := &logRecorder{}
	cfg := testConfig()
	cfg.log = slog.New(rec)
	cfg.budget = newConnBudget(3, cfg.log)
	echo := handlers{onRequest: func(p []byte) []byte { return p }}
	ports := []*socket{bindTest(t, kindRep, "budgetAInfo", cfg, echo), bindTest(t, kindRep, "budgetBInfo", cfg, echo),
		bindTest(t, kindRep, "budgetCInfo", cfg, echo)}
	client := dialRaw(t, ports[0].Port(), zmq4.Req)
	served := func(local net.Addr) func() bool {
		return func() bool {
			cfg.budget.mu.Lock()
			defer cfg.budget.mu.Unlock()
			for c := range cfg.budget.conns {
				if c.RemoteAddr().String() == local.String() {
					return true
				}
			}
			return false
		}
	}
	waitFor(t, "the client's connection counted", served(client.raw.LocalAddr()))
	var silent []net.Conn
	for i := range 6 {
		c, err := net.Dial("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(int(ports[1+i%2].Port()))))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		silent = append(silent, c)
		waitFor(t, fmt.Sprintf("silent connection %d counted", i), served(c.LocalAddr()))
	}
	waitFor(t, "the ports to hold the budget's 3 connections", func() bool {
		n := 0
		for _, s := range ports {
			s.mu.Lock()
			n += len(s.conns)
			s.mu.Unlock()
		}
		return n == 3
	})
	// The first silent ones were closed for the later ones: their reads end.
	for i, c := range silent[:4] {
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		// The port's greeting may come first; then the end.
		if _, err := io.Copy(io.Discard, c); err != nil && !errors.Is(err, syscall.ECONNRESET) {
			t.Errorf("silent connection %d: read %v, want it closed", i, err)
		}
	}
	if err := client.zc.SendMsg(zmq4.NewMsgFrom(nil, []byte("12345678still"))); err != nil {
		t.Fatalf("the client was pushed out: %v", err)
	}
	if m := client.recv(t); len(m.Frames) != 2 || string(m.Frames[1][8:]) != "still" {
		t.Fatalf("reply %s", fmtFrames(m))
	}
	if _, ok := rec.find("on the device ports together; closed one to make room", "limit=3"); !ok {
		t.Errorf("no log line for a connection closed for the budget; log %q", rec.lines)
	}
}

// TestVictimOrder: a full port closes, first, a connection in its handshake; then one that
// did nothing since; then the one idle the longest; and when all are busy, the newest, so that
// a flood of subscribers churns its own connections and not the client that was there first
// (its subscriber only reads: what it is sent is its activity).
func TestVictimOrder(t *testing.T) {
	now := time.Now()
	at := func(ago time.Duration) int64 { return now.Add(-ago).UnixNano() }
	conn := func(name string) net.Conn { c, _ := net.Pipe(); return namedConn{c, name} }
	mk := func(ready bool, since, last time.Duration) *activity {
		a := &activity{since: at(since)}
		a.last.Store(at(last))
		a.ready.Store(ready)
		return a
	}
	client := mk(true, time.Hour, 10*time.Millisecond) // a subscriber sent a frame just now
	for _, tc := range []struct {
		name  string
		conns map[string]*activity
		want  string
	}{
		{"handshake first", map[string]*activity{"client": client, "idle": mk(true, time.Hour, time.Minute),
			"hs": mk(false, time.Second, time.Second), "hs-old": mk(false, 3*time.Second, 3*time.Second)}, "hs-old"},
		{"unused next", map[string]*activity{"client": client, "idle": mk(true, time.Hour, time.Minute),
			"unused": mk(true, time.Second, time.Second), "unused-old": mk(true, 5*time.Second, 5*time.Second)}, "unused-old"},
		{"then the idlest", map[string]*activity{"client": client, "idle": mk(true, time.Hour, time.Minute),
			"idler": mk(true, time.Hour, 2*time.Minute)}, "idler"},
		{"all busy: the newest", map[string]*activity{"client": client,
			"flood1": mk(true, 300*time.Millisecond, 20*time.Millisecond), "flood2": mk(true, 100*time.Millisecond, 30*time.Millisecond)}, "flood2"},
	} {
		conns := map[net.Conn]*activity{}
		for name, a := range tc.conns {
			conns[conn(name)] = a
		}
		got, _ := victim(conns, now)
		if got.(namedConn).name != tc.want {
			t.Errorf("%s: closed %s, want %s", tc.name, got.(namedConn).name, tc.want)
		}
	}
}

// namedConn is a connection a test tells apart by name.
type namedConn struct {
	net.Conn
	name string
}
