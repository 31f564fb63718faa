package world

import (
	"context"
	"math"
	"testing"
	"time"

	"simgui/app/transport"
	"simgui/app/transport/msgs"
)

func newBusWorld(t *testing.T) (*Loop, *transport.Bus, context.Context) {
	t.Helper()
	bus := transport.NewBus(transport.Options{})
	w, err := New(Config{Track: testTrack, BuildLayout: staticLayout, Seed: 7, Bus: bus,
		Agents: []AgentSpec{{Name: "car0", Vehicle: testVehicle}}})
	if err != nil {
		t.Fatal(err)
	}
	l := NewLoop(w, LoopOptions{Lockstep: true})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); <-l.Done(); bus.Close() })
	go l.Run(ctx)
	if _, err := l.Advertise(bus); err != nil {
		t.Fatal(err)
	}
	return l, bus, ctx
}

func TestCmdVelTopicDrivesTheModel(t *testing.T) {
	l, bus, ctx := newBusWorld(t)
	if err := bus.Publish(CmdVelTopic("car0"), &msgs.Twist{Linear: &msgs.Vector3D{X: 0.5}}, 0); err != nil {
		t.Fatal(err)
	}
	s, _ := l.Step(ctx, 200) // 1 s
	m, _ := s.Model("car0")
	if math.Abs(m.Forward-0.5) > 1e-9 || !m.Command.Twist {
		t.Fatalf("after cmd_vel 0.5 m/s for 1 s: forward %.4f, command %+v", m.Forward, m.Command)
	}
	// A normalised command on cmd_drive replaces it.
	bus.Publish(CmdDriveTopic("car0"), &msgs.Param{Params: map[string]*msgs.Any{
		"throttle": {Type: msgs.Any_DOUBLE, Value: &msgs.Any_DoubleValue{DoubleValue: -1}},
	}}, 0)
	s, _ = l.Step(ctx, 200)
	if m, _ := s.Model("car0"); math.Abs(m.Forward+0.73) > 1e-9 {
		t.Fatalf("after throttle -1: forward %.4f, want -0.73", m.Forward)
	}
	if err := bus.Publish(CmdVelTopic("car0"), &msgs.Double{Data: 1}, 0); err == nil {
		t.Fatal("a Double on cmd_vel was accepted")
	}
}

func TestPoseAndClockTopics(t *testing.T) {
	l, bus, ctx := newBusWorld(t)
	pose := bus.Subscribe(PoseTopic("car0"))
	stats := bus.Subscribe(StatsTopic("default"))
	l.Step(ctx, 3)
	var last transport.Message
	for i := 0; i < 3; i++ {
		last = <-pose.C()
	}
	if p := last.Msg.(*msgs.Pose); p.GetName() != "car0" || last.Stamp != 15*time.Millisecond {
		t.Fatalf("pose %v at %v", p, last.Stamp)
	}
	var st *msgs.WorldStatistics
	for st == nil || st.GetIterations() < 3 {
		st = (<-stats.C()).Msg.(*msgs.WorldStatistics)
	}
	if st.GetSimTime().AsDuration() != 15*time.Millisecond || !st.GetStepping() {
		t.Fatalf("stats %v", st)
	}
}

func TestControlAndSetPoseServices(t *testing.T) {
	l, bus, ctx := newBusWorld(t)
	rep, err := bus.Call(ctx, ControlService("default"), &msgs.WorldControl{Pause: true, MultiStep: 7}, time.Second)
	if err != nil || !rep.(*msgs.Boolean).Data {
		t.Fatal(rep, err)
	}
	if s := l.Snapshot(); s.Step != 7 || !s.Paused {
		t.Fatalf("after multi_step 7 paused: step %d paused %v", s.Step, s.Paused)
	}
	_, err = bus.Call(ctx, SetPoseService("default"), &msgs.Pose{Name: "car0",
		Position: &msgs.Vector3D{X: 0.5, Y: 0.25}, Orientation: &msgs.Quaternion{Z: math.Sin(0.5), W: math.Cos(0.5)}}, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := l.Step(ctx, 1)
	if m, _ := s.Model("car0"); math.Abs(m.Pose.X-0.5) > 1e-9 || math.Abs(m.Pose.Yaw-1) > 1e-9 {
		t.Fatalf("after set_pose: %+v", m.Pose)
	}
	if _, err := bus.Call(ctx, SetPoseService("default"), &msgs.Pose{Name: "nobody"}, time.Second); err == nil {
		t.Fatal("set_pose of an unknown model succeeded")
	}
	if _, err := bus.Call(ctx, ControlService("default"), &msgs.WorldControl{Reset_: &msgs.WorldReset{All: true}, Pause: true}, time.Second); err != nil {
		t.Fatal(err)
	}
	if s := l.Snapshot(); s.Step != 0 || s.Seed != 7 {
		t.Fatalf("after reset: step %d seed %d", s.Step, s.Seed)
	}
}
