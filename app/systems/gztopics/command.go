package gztopics

import (
	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/app/world"
	"simgui/physics/drive"
)

// commandOut is what the adapter last published on one model's command topic.
type commandOut struct {
	topic string
	last  drive.Command
	sent  bool   // last went to the topic's present listeners
	subs  uint64 // Bus.SubscriptionsTo(topic) when last published
}

// publishCommands publishes each vehicle's held command, the one its step just ran with, where
// someone listens and it changed since the last publication: a training policy sets one every
// action period, and a recording needs the actions beside the frames. After a subscription to
// a command topic (or to every topic) its held command goes out again, so that a listener that
// came since has it after the next step; subscriptions elsewhere (a face starting at its own
// pace) do not, so that a recording holds the same messages run after run.
func (a *Adapter) publishCommands(w *world.World) {
	for _, m := range w.Models() {
		o := a.commands[m.Name]
		if o == nil {
			if a.commands == nil {
				a.commands = map[string]*commandOut{}
			}
			o = &commandOut{topic: transport.CommandTopic(m.Name)}
			a.commands[m.Name] = o
		}
		if !a.bus.HasSubscribers(o.topic) {
			o.sent = false
			continue
		}
		subs := a.bus.SubscriptionsTo(o.topic)
		if o.sent && subs == o.subs && o.last == m.Command {
			continue
		}
		o.last, o.sent, o.subs = m.Command, true, subs
		c := CommandMsg(m.Command)
		c.Header = &msgs.Header{Stamp: msgs.NewTime(w.SimTime())} // the step it ran with
		a.bus.Publish(o.topic, c, w.SimTime())
	}
}

// CommandMsg is a held command as the command topic carries it: throttle, steer (> 0 turns
// left), brake and vertical always; left and right when the wheels are driven directly;
// linear_x, linear_y, linear_z (m/s) and angular_z (rad/s, counter-clockwise) for velocity
// targets (cmd_vel), which the others then do not drive. All DOUBLE. CommandFrom reads it back
// as the same command (cmd_drive takes it as it is, but for velocity targets).
func CommandMsg(c drive.Command) *msgs.Param {
	p := map[string]*msgs.Any{
		"throttle": double(c.Throttle), "steer": double(c.Steer),
		"brake": double(c.Brake), "vertical": double(c.Vertical),
	}
	if c.Wheels {
		p["left"], p["right"] = double(c.Left), double(c.Right)
	}
	if c.Twist {
		p["linear_x"], p["linear_y"], p["linear_z"] = double(c.Linear[0]), double(c.Linear[1]), double(c.Linear[2])
		p["angular_z"] = double(c.Angular)
	}
	return &msgs.Param{Params: p}
}

func double(x float64) *msgs.Any {
	return &msgs.Any{Type: msgs.Any_DOUBLE, Value: &msgs.Any_DoubleValue{DoubleValue: x}}
}
