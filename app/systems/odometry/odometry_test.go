package odometry

import (
	"context"
	"log/slog"
	"math"
	"testing"
	"time"

	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/app/world"
	"simgui/physics/drive"
	"simgui/plugins"
)

var car = &plugins.VehicleDescriptor{
	ID: "vehicle.test.car.v1", Version: plugins.ContractVersion{Major: 1},
	Body:  &plugins.Body{Shape: "box", Length: 0.25, Width: 0.15, Height: 0.12, Mass: 1, Friction: 0.9},
	Drive: &plugins.Drive{Model: "differential"},
}

func asIs(t *plugins.TrackDescriptor, _ map[string]any, _ int64) (*plugins.Layout, error) {
	return &plugins.Layout{SpawnPoints: t.SpawnPoints}, nil
}

func newWorld(t *testing.T) (*world.Loop, *transport.Bus, context.Context) {
	t.Helper()
	bus := transport.NewBus(transport.Options{})
	w, err := world.New(world.Config{Track: &plugins.TrackDescriptor{ID: "track.t.v1",
		SpawnPoints: []plugins.SpawnPoint{{X: 1, Y: 2, YawDeg: 90}}}, BuildLayout: asIs, Bus: bus,
		Logger: slog.New(slog.DiscardHandler), Agents: []world.AgentSpec{{Name: "car0", Vehicle: car}}})
	if err != nil {
		t.Fatal(err)
	}
	l := world.NewLoop(w, world.LoopOptions{Lockstep: true})
	if err := w.AddSystem(&Odometry{}, world.SystemOptions{Name: ID}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); <-l.Done(); bus.Close() })
	go l.Run(ctx)
	l.Do(func(w *world.World) {
		w.SetCommand("car0", drive.Command{Twist: true, Linear: [3]float64{0.4}, Angular: 0.5})
	})
	return l, bus, ctx
}

// collect steps n times and returns what the micom topic carried.
func collect(t *testing.T, l *world.Loop, bus *transport.Bus, ctx context.Context, n int) []*msgs.Micom {
	t.Helper()
	sub := bus.Subscribe(transport.OdometryTopic("car0"), transport.WithQueueLen(1000))
	defer sub.Close()
	if _, err := l.Step(ctx, n); err != nil {
		t.Fatal(err)
	}
	var out []*msgs.Micom
	for len(sub.C()) > 0 {
		out = append(out, (<-sub.C()).Msg.(*msgs.Micom))
	}
	return out
}

func TestOdometryOnSimTime(t *testing.T) {
	l, bus, ctx := newWorld(t)
	got := collect(t, l, bus, ctx, 200) // 1 s of sim time at 5 ms steps
	if len(got) != 50 {
		t.Fatalf("%d micom messages in 1 s of sim time, want 50 (50 Hz)", len(got))
	}
	last := got[len(got)-1]
	s := l.Snapshot()
	m, _ := s.Model("car0")
	// The odometry frame is the spawn pose: x forward along the heading (north), y to the left.
	dx, dy := m.Pose.X-1, m.Pose.Y-2
	wantX, wantY := dy, -dx
	if p := last.GetOdom().GetPose(); math.Abs(p.GetX()-wantX) > 0.02 || math.Abs(p.GetY()-wantY) > 0.02 ||
		math.Abs(p.GetZ()-math.Remainder(m.Pose.Yaw-math.Pi/2, 2*math.Pi)) > 0.02 {
		t.Fatalf("odometry pose %v, want (%.3f, %.3f) yaw %.3f", p, wantX, wantY, m.Pose.Yaw-math.Pi/2)
	}
	if ts := last.GetTime().AsDuration(); ts != time.Second {
		t.Errorf("last stamp %v, want 1s", ts)
	}
	w := last.GetOdom().GetLinearVelocity()
	if !(w.GetRight() > w.GetLeft()) || math.Abs((w.GetLeft()+w.GetRight())/2-m.Forward) > 1e-6 {
		t.Errorf("wheel speeds %v for a left turn at %.3f m/s", w, m.Forward)
	}
	// reset_odometry starts again where the car stands.
	if _, err := bus.Call(ctx, transport.ResetOdometryService("car0"), &msgs.Empty{}, time.Second); err != nil {
		t.Fatal(err)
	}
	after := collect(t, l, bus, ctx, 4)
	if p := after[0].GetOdom().GetPose(); math.Hypot(p.GetX(), p.GetY()) > 0.01 {
		t.Fatalf("after reset_odometry: %v", p)
	}
}

// Two worlds with the same commands publish the same odometry, bit for bit.
func TestOdometryDeterministic(t *testing.T) {
	var runs [2][]*msgs.Micom
	for i := range runs {
		l, bus, ctx := newWorld(t)
		runs[i] = collect(t, l, bus, ctx, 400)
	}
	if len(runs[0]) != len(runs[1]) {
		t.Fatalf("%d vs %d messages", len(runs[0]), len(runs[1]))
	}
	for i := range runs[0] {
		a, b := runs[0][i], runs[1][i]
		if a.String() != b.String() {
			t.Fatalf("message %d differs:\n%v\n%v", i, a, b)
		}
	}
}
