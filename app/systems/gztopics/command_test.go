package gztopics

import (
	"math"
	"testing"
	"time"

	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/app/world"
	"simgui/physics/drive"
)

// The command topic carries the command each step ran with when it changed, whoever set it:
// SetCommand (the window's keys, the training API) as well as cmd_drive.
func TestCommandTopicCarriesTheHeldCommandOnChange(t *testing.T) {
	l, bus, ctx := newWorld(t, nil)
	l.Step(ctx, 2) // before anyone listens: nothing kept for later
	sub := bus.Subscribe(transport.CommandTopic("car0"))
	l.Step(ctx, 3)
	first := next(t, sub)
	if first.Stamp != 15*time.Millisecond {
		t.Fatalf("the first command came at %v, want after the step that followed the subscription (15ms)", first.Stamp)
	}
	if c, _ := CommandFrom(first.Msg, drive.Command{Throttle: 9}); c != (drive.Command{}) {
		t.Fatalf("the idle car's command reads back as %+v", c)
	}
	keys := drive.Command{Throttle: 0.6, Steer: -0.25, Brake: 0.1}
	if err := l.Call(ctx, func(w *world.World) error { return w.SetCommand("car0", keys) }); err != nil {
		t.Fatal(err)
	}
	l.Step(ctx, 4)
	got := next(t, sub)
	if got.Stamp != 30*time.Millisecond || got.Msg.(*msgs.Param).GetHeader().GetStamp().AsDuration() != got.Stamp {
		t.Fatalf("the changed command came at %v stamped %v, want 30ms (after the step it first ran in)",
			got.Stamp, got.Msg.(*msgs.Param).GetHeader().GetStamp().AsDuration())
	}
	if c, _ := CommandFrom(got.Msg, drive.Command{}); c != keys {
		t.Fatalf("command %+v, want %+v", c, keys)
	}
	bus.Publish(transport.CmdDriveTopic("car0"), &msgs.Param{Params: map[string]*msgs.Any{
		"left": double(0.5), "right": double(-0.5)}}, 0)
	l.Step(ctx, 1)
	got = next(t, sub)
	p := got.Msg.(*msgs.Param).GetParams()
	if p["left"].GetDoubleValue() != 0.5 || p["right"].GetDoubleValue() != -0.5 || p["throttle"].GetDoubleValue() != 0.6 {
		t.Fatalf("after cmd_drive left/right: %v", p)
	}
	sendTwist(t, bus, 0.3)
	l.Step(ctx, 1)
	p = next(t, sub).Msg.(*msgs.Param).GetParams()
	if p["linear_x"].GetDoubleValue() != 0.3 || p["angular_z"] == nil || p["left"] != nil {
		t.Fatalf("after cmd_vel 0.3: %v", p)
	}
	// Unchanged commands are not repeated.
	l.Step(ctx, 20)
	select {
	case m := <-sub.C():
		t.Fatalf("an unchanged command was published again at %v", m.Stamp)
	default:
	}
	// A subscription elsewhere does not bring it again: a face starting at its own pace
	// would make a recording's messages differ from run to run.
	elsewhere := bus.Subscribe("/clock")
	defer elsewhere.Close()
	l.Step(ctx, 1)
	select {
	case m := <-sub.C():
		t.Fatalf("the unchanged command was published again at %v after a subscription to /clock", m.Stamp)
	default:
	}
	// A listener that comes later gets the held command after the next step.
	late := bus.Subscribe(transport.CommandTopic("car0"))
	l.Step(ctx, 1)
	if p := next(t, late).Msg.(*msgs.Param).GetParams(); math.Abs(p["linear_x"].GetDoubleValue()-0.3) > 0 {
		t.Fatalf("the late listener got %v", p)
	}
	next(t, sub) // the earlier one hears it again
	l.Step(ctx, 5)
	if n := len(late.C()) + len(sub.C()); n != 0 {
		t.Fatalf("%d more publications of the unchanged command", n)
	}
}

// next returns the message waiting on s: publications after a step are delivered before
// Step returns.
func next(t *testing.T, s *transport.Subscription) transport.Message {
	t.Helper()
	select {
	case m := <-s.C():
		return m
	default:
		t.Fatal("nothing published on " + s.Topic())
		return transport.Message{}
	}
}
