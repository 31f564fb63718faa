package gztopics

import (
	"context"
	"log/slog"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/app/world"
	"simgui/plugins"
)

var car = &plugins.VehicleDescriptor{
	ID: "vehicle.test.car.v1", Version: plugins.ContractVersion{Major: 1},
	Body:  &plugins.Body{Shape: "box", Length: 0.25, Width: 0.15, Height: 0.12, Mass: 1, Friction: 0.9},
	Drive: &plugins.Drive{Model: "differential"},
}

var arena = &plugins.TrackDescriptor{ID: "track.test.v1", SpawnPoints: []plugins.SpawnPoint{{YawDeg: 90}}}

func asIs(t *plugins.TrackDescriptor, _ map[string]any, _ int64) (*plugins.Layout, error) {
	return &plugins.Layout{Elements: t.Elements, SpawnPoints: t.SpawnPoints}, nil
}

// newWorld runs a lockstep world with one car and the adapter on a bus.
func newWorld(t *testing.T, beforeReset func(*world.Config) error) (*world.Loop, *transport.Bus, context.Context) {
	t.Helper()
	bus := transport.NewBus(transport.Options{})
	w, err := world.New(world.Config{Track: arena, BuildLayout: asIs, Seed: 7, Bus: bus, BeforeReset: beforeReset,
		Logger: slog.New(slog.DiscardHandler), Agents: []world.AgentSpec{{Name: "car0", Vehicle: car}}})
	if err != nil {
		t.Fatal(err)
	}
	l := world.NewLoop(w, world.LoopOptions{Lockstep: true})
	if err := w.AddSystem(&Adapter{}, world.SystemOptions{Name: ID}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); <-l.Done(); w.Close(); bus.Close() })
	go l.Run(ctx)
	// The adapter subscribes in Init, which runs when the loop starts: wait for it.
	if err := l.Call(ctx, func(*world.World) error { return nil }); err != nil {
		t.Fatal(err)
	}
	return l, bus, ctx
}

func sendTwist(t *testing.T, bus *transport.Bus, x float64) {
	t.Helper()
	if err := bus.Publish(transport.CmdVelTopic("car0"), &msgs.Twist{Linear: &msgs.Vector3D{X: x}}, 0); err != nil {
		t.Fatal(err)
	}
}

func TestCmdVelAndCmdDriveDriveTheModel(t *testing.T) {
	l, bus, ctx := newWorld(t, nil)
	sendTwist(t, bus, 0.5)
	s, _ := l.Step(ctx, 200) // 1 s
	m, _ := s.Model("car0")
	if math.Abs(m.Forward-0.5) > 1e-9 || !m.Command.Twist {
		t.Fatalf("after cmd_vel 0.5 m/s for 1 s: forward %.4f, command %+v", m.Forward, m.Command)
	}
	// A normalised command on cmd_drive replaces it.
	bus.Publish(transport.CmdDriveTopic("car0"), &msgs.Param{Params: map[string]*msgs.Any{
		"throttle": {Type: msgs.Any_DOUBLE, Value: &msgs.Any_DoubleValue{DoubleValue: -1}},
	}}, 0)
	s, _ = l.Step(ctx, 200)
	if m, _ := s.Model("car0"); math.Abs(m.Forward+0.73) > 1e-9 {
		t.Fatalf("after throttle -1: forward %.4f, want -0.73", m.Forward)
	}
	if err := bus.Publish(transport.CmdVelTopic("car0"), &msgs.Double{Data: 1}, 0); err == nil {
		t.Fatal("a Double on cmd_vel was accepted")
	}
	// Numbers that are not finite never reach the drive.
	sendTwist(t, bus, math.NaN())
	s, _ = l.Step(ctx, 10)
	if m, _ := s.Model("car0"); math.IsNaN(m.Pose.X) || math.IsNaN(m.Pose.Y) || m.Command.Linear[0] != 0 {
		t.Fatalf("after a NaN twist: pose %+v, command %+v", m.Pose, m.Command)
	}
}

func TestPoseTopics(t *testing.T) {
	l, bus, ctx := newWorld(t, nil)
	pose := bus.Subscribe(transport.PoseTopic("car0"))
	info := bus.Subscribe(transport.PoseInfoTopic("default"))
	l.Step(ctx, 3)
	var last transport.Message
	for i := 0; i < 3; i++ {
		last = <-pose.C()
	}
	if p := last.Msg.(*msgs.Pose); p.GetName() != "car0" || last.Stamp != 15*time.Millisecond ||
		p.GetHeader().GetStamp().AsDuration() != last.Stamp {
		t.Fatalf("pose %v at %v: want car0's, stamped with the step's sim time", p, last.Stamp)
	}
	if v := (<-info.C()).Msg.(*msgs.Pose_V); len(v.GetPose()) != 1 || v.GetPose()[0].GetName() != "car0" ||
		v.GetHeader().GetStamp().AsDuration() != 5*time.Millisecond || v.GetPose()[0].GetHeader().GetStamp().AsDuration() != 5*time.Millisecond {
		t.Fatalf("pose/info %v: want car0's, stamped with the first step's sim time", v)
	}
}

func TestControlAndSetPoseServices(t *testing.T) {
	l, bus, ctx := newWorld(t, nil)
	rep, err := bus.Call(ctx, transport.ControlService("default"), &msgs.WorldControl{Pause: true, MultiStep: 7}, time.Second)
	if err != nil || !rep.(*msgs.Boolean).Data {
		t.Fatal(rep, err)
	}
	if s := l.Snapshot(); s.Step != 7 || !s.Paused {
		t.Fatalf("after multi_step 7 paused: step %d paused %v", s.Step, s.Paused)
	}
	// More steps than a request may ask for are refused, not run for ever.
	for _, req := range []*msgs.WorldControl{{Pause: true, MultiStep: 4_000_000_000},
		{Pause: true, RunToSimTime: &msgs.Time{Sec: 1_000_000}}} {
		if _, err := bus.Call(ctx, transport.ControlService("default"), req, time.Second); err == nil || !strings.Contains(err.Error(), "over the limit") {
			t.Errorf("%v: %v, want refused", req, err)
		}
	}
	if s := l.Snapshot(); s.Step != 7 {
		t.Fatalf("the refused requests stepped to %d", s.Step)
	}
	_, err = bus.Call(ctx, transport.SetPoseService("default"), &msgs.Pose{Name: "car0",
		Position: &msgs.Vector3D{X: 0.5, Y: 0.25}, Orientation: &msgs.Quaternion{Z: math.Sin(0.5), W: math.Cos(0.5)}}, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := l.Step(ctx, 1)
	if m, _ := s.Model("car0"); math.Abs(m.Pose.X-0.5) > 1e-9 || math.Abs(m.Pose.Yaw-1) > 1e-9 {
		t.Fatalf("after set_pose: %+v", m.Pose)
	}
	if _, err := bus.Call(ctx, transport.SetPoseService("default"), &msgs.Pose{Name: "nobody"}, time.Second); err == nil {
		t.Fatal("set_pose of an unknown model succeeded")
	}
	if _, err := bus.Call(ctx, transport.SetPoseService("default"), &msgs.Pose{Name: "car0",
		Position: &msgs.Vector3D{X: math.Inf(1)}}, time.Second); err == nil {
		t.Fatal("set_pose to infinity succeeded")
	}
	if _, err := bus.Call(ctx, transport.ControlService("default"), &msgs.WorldControl{Reset_: &msgs.WorldReset{All: true}, Pause: true}, time.Second); err != nil {
		t.Fatal(err)
	}
	if s := l.Snapshot(); s.Step != 0 || s.Seed != 7 {
		t.Fatalf("after reset: step %d seed %d", s.Step, s.Seed)
	}
	// After a reset the new episode's car obeys cmd_vel.
	sendTwist(t, bus, 0.3)
	s, _ = l.Step(ctx, 200)
	if m, _ := s.Model("car0"); math.Abs(m.Forward-0.3) > 1e-9 {
		t.Fatalf("after the reset, cmd_vel 0.3: forward %.4f", m.Forward)
	}
}

// A reset that fails while spawning leaves the command topics working: cmd_vel still drives
// the car afterwards.
func TestCommandsSurviveAFailedReset(t *testing.T) {
	broken := car.Clone()
	broken.Drive = &plugins.Drive{Model: "no_such_drive"}
	fail := false
	l, bus, ctx := newWorld(t, func(c *world.Config) error {
		if fail {
			c.Agents = append(c.Agents, world.AgentSpec{Name: "intruder", Vehicle: broken})
		}
		return nil
	})
	l.Step(ctx, 10)
	fail = true // the loop only reads it inside Reset, after this write (ordered by the queue)
	if err := l.Reset(ctx, 9); err == nil || !strings.Contains(err.Error(), "no_such_drive") {
		t.Fatalf("Reset = %v", err)
	}
	sendTwist(t, bus, 0.4)
	s, _ := l.Step(ctx, 200)
	if m, _ := s.Model("car0"); math.Abs(m.Forward-0.4) > 1e-9 || s.Step != 210 || s.Seed != 7 {
		t.Fatalf("after the failed reset: forward %.4f at step %d seed %d", m.Forward, s.Step, s.Seed)
	}
}

// The pose list holds the pushable boxes after the robots, each by its box name, where it
// stands as it is pushed: a recording's transforms place them at each step's time.
func TestPoseListHoldsTheBoxes(t *testing.T) {
	withBox := *arena
	withBox.Elements = []plugins.Element{
		{Kind: plugins.ElementBox, Name: "crate", X: 2, Y: 1, Length: 0.2, Width: 0.2, Height: 0.1, Movable: true, Mass: 0.3},
		{Kind: plugins.ElementBox, X: -2, Y: 1, Length: 0.2, Width: 0.2, Height: 0.1, Movable: true, Mass: 0.3},
	}
	bus := transport.NewBus(transport.Options{})
	w, err := world.New(world.Config{Track: &withBox, BuildLayout: asIs, Seed: 7, Bus: bus,
		Logger: slog.New(slog.DiscardHandler), Agents: []world.AgentSpec{{Name: "car0", Vehicle: car}}})
	if err != nil {
		t.Fatal(err)
	}
	defer bus.Close()
	defer w.Close()
	if err := w.AddSystem(&Adapter{}, world.SystemOptions{Name: ID}); err != nil {
		t.Fatal(err)
	}
	info := bus.Subscribe(transport.PoseInfoTopic("default"))
	w.Step()
	b := w.Boxes()[0]
	p := b.Pose()
	p.X += 0.5
	b.SetPose(p)
	w.Step()
	<-info.C()
	v := (<-info.C()).Msg.(*msgs.Pose_V)
	var names []string
	for _, p := range v.GetPose() {
		names = append(names, p.GetName())
	}
	if strings.Join(names, ",") != "car0,box/crate,box/"+strconv.Itoa(int(w.Boxes()[1].ID)) {
		t.Fatalf("pose list %v, want car0 then the two boxes", names)
	}
	if crate := v.GetPose()[1]; crate.GetPosition().GetX() != 2.5 || crate.GetPosition().GetY() != 1 ||
		crate.GetHeader().GetStamp().AsDuration() != 10*time.Millisecond {
		t.Errorf("crate %v, want at (2.5, 1) stamped with the second step", crate)
	}
}
