package world

import (
	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/physics/drive"
)

// Topic names the world uses on its transport bus.
func CmdVelTopic(model string) string   { return "/model/" + model + "/cmd_vel" }
func CmdDriveTopic(model string) string { return "/model/" + model + "/cmd_drive" }
func PoseTopic(model string) string     { return "/model/" + model + "/pose" }
func PoseInfoTopic(world string) string { return "/world/" + world + "/pose/info" }
func StatsTopic(world string) string    { return "/world/" + world + "/stats" }

// ClockTopic carries gz.msgs.Clock with sim time, as in gz-sim.
const ClockTopic = "/clock"

// link connects a world to a transport bus: it listens for each vehicle's commands and
// publishes poses for whoever subscribes.
type link struct {
	bus  *transport.Bus
	subs map[string][2]*transport.Subscription // model -> cmd_vel, cmd_drive
}

func newLink(bus *transport.Bus) *link {
	return &link{bus: bus, subs: map[string][2]*transport.Subscription{}}
}

// watch subscribes to a model's command topics. Command topics are declared with their types
// so a publisher of the wrong type is refused at once.
func (l *link) watch(model string) {
	if l == nil {
		return
	}
	l.bus.DeclareTopic(CmdVelTopic(model), "gz.msgs.Twist")
	l.bus.DeclareTopic(CmdDriveTopic(model), "gz.msgs.Param")
	l.subs[model] = [2]*transport.Subscription{
		l.bus.Subscribe(CmdVelTopic(model), transport.WithQueueLen(16)),
		l.bus.Subscribe(CmdDriveTopic(model), transport.WithQueueLen(16)),
	}
}

func (l *link) forget(model string) {
	if l == nil {
		return
	}
	for _, s := range l.subs[model] {
		s.Close()
	}
	delete(l.subs, model)
}

func (l *link) forgetAll() {
	if l == nil {
		return
	}
	for m := range l.subs {
		l.forget(m)
	}
}

// applyInputs drains command topics at the start of a step: the newest command per model wins
// and is held until the next one.
func (w *World) applyInputs() {
	if w.link == nil {
		return
	}
	for _, m := range w.models {
		subs, ok := w.link.subs[m.Name]
		if !ok {
			continue
		}
		for _, s := range subs {
			if len(s.C()) == 0 { // the common case, without a select per robot per step
				continue
			}
		drain:
			for {
				select {
				case msg, ok := <-s.C():
					if !ok {
						break drain
					}
					if cmd, ok := commandFrom(msg.Msg, m.Command); ok {
						m.Command = cmd
					}
				default:
					break drain
				}
			}
		}
	}
}

// commandFrom converts a Twist (velocity targets) or a Param (normalised commands: throttle,
// steer, brake, vertical, left, right as DOUBLE) into a drive command.
func commandFrom(m any, held drive.Command) (drive.Command, bool) {
	switch v := m.(type) {
	case *msgs.Twist:
		c := drive.Command{Twist: true}
		if lin := v.GetLinear(); lin != nil {
			c.Linear = [3]float64{lin.GetX(), lin.GetY(), lin.GetZ()}
		}
		c.Angular = v.GetAngular().GetZ()
		return c, true
	case *msgs.Param:
		c := held
		c.Twist = false
		get := func(k string) (float64, bool) {
			a, ok := v.GetParams()[k]
			if !ok {
				return 0, false
			}
			switch a.GetType() {
			case msgs.Any_INT32:
				return float64(a.GetIntValue()), true
			default:
				return a.GetDoubleValue(), true
			}
		}
		for k, dst := range map[string]*float64{"throttle": &c.Throttle, "steer": &c.Steer, "brake": &c.Brake, "vertical": &c.Vertical} {
			if x, ok := get(k); ok {
				*dst = x
			}
		}
		l, okL := get("left")
		r, okR := get("right")
		c.Wheels = okL && okR
		if c.Wheels {
			c.Left, c.Right = l, r
		}
		return c, true
	}
	return held, false
}

// publishPoses publishes each vehicle's pose and the world's pose list, only where someone
// listens.
func (w *World) publishPoses() {
	if w.link == nil {
		return
	}
	bus := w.link.bus
	infoTopic := PoseInfoTopic(w.cfg.Name)
	all := bus.HasSubscribers(infoTopic)
	var list *msgs.Pose_V
	if all {
		list = &msgs.Pose_V{Pose: make([]*msgs.Pose, 0, len(w.models))}
	}
	for _, m := range w.models {
		topic := PoseTopic(m.Name)
		one := bus.HasSubscribers(topic)
		if !one && !all {
			continue
		}
		p := PoseMsg(m.Name, m.ID, bodyPose(m.Body))
		if one {
			bus.Publish(topic, p, w.simTime)
		}
		if all {
			list.Pose = append(list.Pose, p)
		}
	}
	if all {
		bus.Publish(infoTopic, list, w.simTime)
	}
}

// PoseMsg converts a world pose to gz.msgs.Pose (yaw as a quaternion about z).
func PoseMsg(name string, id uint32, p Pose) *msgs.Pose {
	s, c := sincosHalf(p.Yaw)
	return &msgs.Pose{
		Name: name, Id: id,
		Position:    &msgs.Vector3D{X: p.X, Y: p.Y, Z: p.Z},
		Orientation: &msgs.Quaternion{Z: s, W: c},
	}
}
