// Package gztopics is the systems.gz_topics system: a world's gz-sim style topics and services
// on its transport bus. Every world the app builds has it.
//
// In:
//   - /model/<name>/cmd_vel (gz.msgs.Twist): linear.x m/s, angular.z rad/s (positive turns
//     left), linear.z m/s climb for flying vehicles, as gz-sim's DiffDrive takes it. The drive
//     model clamps to its limits.
//   - /model/<name>/cmd_drive (gz.msgs.Param, DOUBLE or INT32 values): normalised commands
//     throttle, steer, brake, vertical in [-1, 1] (brake [0, 1]); left and right together give
//     per-wheel commands. Keys left out keep their held value.
//
// The newest command per model received since the last step is applied before the drive
// models run (on PRE_STEP) and held until the next one.
//
// Out, only while someone subscribes: /model/<name>/pose (gz.msgs.Pose) and
// /world/<world>/pose/info (gz.msgs.Pose_V, the robots and the pushable boxes) after every step; /model/<name>/command
// (gz.msgs.Param, CommandMsg) after a step whose command differs from the last one published
// there, whoever gave it (a key, the training API, the topics above).
//
// Services, when the world has a loop:
//   - /world/<world>/control (gz.msgs.WorldControl → gz.msgs.Boolean): reset (with the seed
//     when given, else the current one), then pause = the request's pause field, then step or
//     multi_step steps (also while paused), then run_to_sim_time; at most
//     world.MaxStepRequest steps a request.
//   - /world/<world>/set_pose (gz.msgs.Pose → gz.msgs.Boolean): teleport the named model.
//
// # Concurrency
//
// Init, Reset, Shutdown and the event handlers run on the loop goroutine; service handlers run
// on the bus's goroutines and reach the world only through the loop.
package gztopics

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"google.golang.org/protobuf/proto"

	"simgui/app/events"
	"simgui/app/systems"
	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/app/world"
	"simgui/physics/drive"
)

// ID is the registry name.
const ID = "systems.gz_topics"

// DefaultQueueLen is how many commands per topic wait between two steps before the oldest is
// dropped.
const DefaultQueueLen = 16

func init() {
	systems.Register(systems.Module{
		ID:  ID,
		New: func() any { return &Adapter{} },
		Doc: "gz-sim topics and services of the world: cmd_vel, cmd_drive, poses, world control, set_pose",
	})
}

// Adapter is the systems.gz_topics system. Its one parameter:
//
//	queueLen  commands per command topic kept between two steps (default 16)
type Adapter struct {
	QueueLen int `yaml:"queueLen"`

	bus      *transport.Bus
	subs     map[string][2]*transport.Subscription // model -> cmd_vel, cmd_drive
	handles  []events.Handle
	events   *events.Bus
	services func()
	// Topic names made once (per world name, per model) rather than on every step.
	infoWorld, infoTopic string
	poseTopics           map[string]string
	commands             map[string]*commandOut
}

// Validate checks the configuration.
func (a *Adapter) Validate() error {
	if a.QueueLen < 0 || a.QueueLen > 1<<16 {
		return fmt.Errorf("queueLen %d is outside 0..65536", a.QueueLen)
	}
	return nil
}

// Init subscribes to every model's command topics and offers the world's services.
func (a *Adapter) Init(w *world.World) error {
	a.bus = w.Bus()
	if a.bus == nil {
		return errors.New("the world has no transport bus (world.Config.Bus)")
	}
	if a.QueueLen == 0 {
		a.QueueLen = DefaultQueueLen
	}
	a.subs = map[string][2]*transport.Subscription{}
	for _, m := range w.Models() {
		a.watch(m.Name)
	}
	a.events = w.Events()
	a.handles = append(a.handles,
		// Inputs must reach the held commands before the drive models run in phase 1.
		a.events.On(events.PreStep, func(events.Event) { a.applyInputs(w) }, -100),
		a.events.On(events.PostStep, func(events.Event) { a.publishPoses(w); a.publishCommands(w) }, 0),
		a.events.On(events.AgentSpawned, func(ev events.Event) { a.watch(ev.Data.(events.Entity).Name) }, 0),
		a.events.On(events.AgentRemoved, func(ev events.Event) { a.forget(ev.Data.(events.Entity).Name) }, 0),
	)
	if l := w.Loop(); l != nil {
		stop, err := advertise(a.bus, w.Name(), l)
		if err != nil {
			a.Shutdown()
			return err
		}
		a.services = stop
	}
	return nil
}

// Reset follows the models of the new episode.
func (a *Adapter) Reset(w *world.World) {
	for m := range a.subs {
		a.forget(m)
	}
	for _, m := range w.Models() {
		a.watch(m.Name)
	}
}

// Shutdown withdraws the services and closes the subscriptions.
func (a *Adapter) Shutdown() error {
	for _, h := range a.handles {
		a.events.Off(h)
	}
	a.handles = nil
	for m := range a.subs {
		a.forget(m)
	}
	if a.services != nil {
		a.services()
		a.services = nil
	}
	return nil
}

// watch subscribes to a model's command topics. They are declared with their types so a
// publisher of the wrong type is refused at once; so are its pose and command topics, so that
// the bus lists them (a live view offers them) before anyone subscribes.
func (a *Adapter) watch(model string) {
	if _, ok := a.subs[model]; ok {
		return
	}
	a.bus.DeclareBuiltin(transport.CmdVelTopic(model), transport.CmdDriveTopic(model), transport.PoseTopic(model), transport.CommandTopic(model))
	a.subs[model] = [2]*transport.Subscription{
		a.bus.Subscribe(transport.CmdVelTopic(model), transport.WithQueueLen(a.QueueLen)),
		a.bus.Subscribe(transport.CmdDriveTopic(model), transport.WithQueueLen(a.QueueLen)),
	}
}

func (a *Adapter) forget(model string) {
	for _, s := range a.subs[model] {
		s.Close()
	}
	delete(a.subs, model)
	delete(a.poseTopics, model)
	delete(a.commands, model)
}

// applyInputs drains the command topics: the newest command per model wins and is held until
// the next one.
func (a *Adapter) applyInputs(w *world.World) {
	for _, m := range w.Models() {
		subs, ok := a.subs[m.Name]
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
					if cmd, ok := CommandFrom(msg.Msg, m.Command); ok {
						m.Command = cmd
					}
				default:
					break drain
				}
			}
		}
	}
}

// CommandFrom converts a Twist (velocity targets) or a Param (normalised commands: throttle,
// steer, brake, vertical, left, right) into a drive command over held. Values that are not
// finite leave the held value.
func CommandFrom(m any, held drive.Command) (drive.Command, bool) {
	switch v := m.(type) {
	case *msgs.Twist:
		c := drive.Command{Twist: true}
		if lin := v.GetLinear(); lin != nil {
			c.Linear = [3]float64{finite(lin.GetX()), finite(lin.GetY()), finite(lin.GetZ())}
		}
		c.Angular = finite(v.GetAngular().GetZ())
		return c, true
	case *msgs.Param:
		c := held
		c.Twist = false
		get := func(k string) (float64, bool) {
			a, ok := v.GetParams()[k]
			if !ok {
				return 0, false
			}
			var x float64
			switch a.GetType() {
			case msgs.Any_INT32:
				x = float64(a.GetIntValue())
			default:
				x = a.GetDoubleValue()
			}
			return x, !math.IsNaN(x) && !math.IsInf(x, 0)
		}
		for _, f := range []struct {
			key string
			dst *float64
		}{{"throttle", &c.Throttle}, {"steer", &c.Steer}, {"brake", &c.Brake}, {"vertical", &c.Vertical}} {
			if x, ok := get(f.key); ok {
				*f.dst = x
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

func finite(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}

// publishPoses publishes each vehicle's pose and the world's pose list, only where someone
// listens.
func (a *Adapter) publishPoses(w *world.World) {
	if a.infoTopic == "" || a.infoWorld != w.Name() {
		a.infoWorld, a.infoTopic = w.Name(), transport.PoseInfoTopic(w.Name())
	}
	infoTopic := a.infoTopic
	all := a.bus.HasSubscribers(infoTopic)
	// Stamped with the step's sim time, as gz-sim's pose publisher stamps its poses: a
	// recording's readers plot by it. One header, shared by the step's (read-only) messages.
	var header *msgs.Header
	var list *msgs.Pose_V
	if all {
		header = &msgs.Header{Stamp: msgs.NewTime(w.SimTime())}
		list = &msgs.Pose_V{Header: header, Pose: make([]*msgs.Pose, 0, len(w.Models()))}
	}
	for _, m := range w.Models() {
		topic, ok := a.poseTopics[m.Name]
		if !ok {
			if a.poseTopics == nil {
				a.poseTopics = map[string]string{}
			}
			topic = transport.PoseTopic(m.Name)
			a.poseTopics[m.Name] = topic
		}
		one := a.bus.HasSubscribers(topic)
		if !one && !all {
			continue
		}
		if header == nil {
			header = &msgs.Header{Stamp: msgs.NewTime(w.SimTime())}
		}
		pose, _ := w.Pose(m.Name)
		p := PoseMsg(m.Name, m.ID, pose)
		p.Header = header
		if one {
			a.bus.Publish(topic, p, w.SimTime())
		}
		if all {
			list.Pose = append(list.Pose, p)
		}
	}
	if all {
		// The pushable boxes too, as gz-sim lists every model: a recording and a live view
		// place them by their frames, stamped as the robots' are.
		for _, b := range w.Boxes() {
			p := PoseMsg(world.BoxPoseName(b.Name, b.ID), b.ID, world.BoxPose(b))
			p.Header = header
			list.Pose = append(list.Pose, p)
		}
		a.bus.Publish(infoTopic, list, w.SimTime())
	}
}

// PoseMsg converts a world pose to gz.msgs.Pose (yaw as a quaternion about z).
func PoseMsg(name string, id uint32, p world.Pose) *msgs.Pose {
	s, c := math.Sincos(p.Yaw / 2)
	return &msgs.Pose{
		Name: name, Id: id,
		Position:    &msgs.Vector3D{X: p.X, Y: p.Y, Z: p.Z},
		Orientation: &msgs.Quaternion{Z: s, W: c},
	}
}

// YawOf extracts the rotation about z from a quaternion (nil = 0).
func YawOf(q *msgs.Quaternion) float64 {
	if q == nil {
		return 0
	}
	return math.Atan2(2*(q.W*q.Z+q.X*q.Y), 1-2*(q.Y*q.Y+q.Z*q.Z))
}

// advertise offers the world's services on bus; the returned function withdraws them.
func advertise(bus *transport.Bus, name string, l *world.Loop) (func(), error) {
	stopControl, err := bus.Advertise(transport.ControlService(name), "gz.msgs.WorldControl", "gz.msgs.Boolean",
		func(ctx context.Context, req proto.Message) (proto.Message, error) {
			return &msgs.Boolean{Data: true}, control(ctx, l, req.(*msgs.WorldControl))
		})
	if err != nil {
		return nil, err
	}
	stopPose, err := bus.Advertise(transport.SetPoseService(name), "gz.msgs.Pose", "gz.msgs.Boolean",
		func(ctx context.Context, req proto.Message) (proto.Message, error) {
			p := req.(*msgs.Pose)
			pos := p.GetPosition()
			pose := world.Pose{X: pos.GetX(), Y: pos.GetY(), Z: pos.GetZ(), Yaw: YawOf(p.GetOrientation())}
			for _, x := range [4]float64{pose.X, pose.Y, pose.Z, pose.Yaw} {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					return &msgs.Boolean{}, errors.New("set_pose: the pose must be finite")
				}
			}
			err := l.Call(ctx, func(w *world.World) error { return w.SetPose(p.GetName(), pose) })
			return &msgs.Boolean{Data: err == nil}, err
		})
	if err != nil {
		stopControl()
		return nil, err
	}
	return func() { stopControl(); stopPose() }, nil
}

func control(ctx context.Context, l *world.Loop, req *msgs.WorldControl) error {
	if req.GetReset_() != nil {
		seed := int64(req.GetSeed())
		if seed == 0 {
			seed = l.Snapshot().Seed
		}
		if err := l.Reset(ctx, seed); err != nil {
			return err
		}
	}
	var err error
	if req.GetPause() {
		err = l.Pause()
	} else {
		err = l.Resume()
	}
	if err != nil {
		return err
	}
	n := int(req.GetMultiStep())
	if n == 0 && req.GetStep() {
		n = 1
	}
	if n > world.MaxStepRequest {
		return fmt.Errorf("multi_step %d is over the limit of %d steps a request", n, world.MaxStepRequest)
	}
	if n > 0 {
		if _, err := l.Step(ctx, n); err != nil {
			return err
		}
	}
	if t := req.GetRunToSimTime(); t != nil {
		target := t.AsDuration()
		cur := l.Snapshot()
		if target > cur.SimTime {
			steps := math.Ceil(float64(target-cur.SimTime) / float64(time.Duration(cur.StepSize*1e9)))
			if steps > world.MaxStepRequest {
				return fmt.Errorf("run_to_sim_time %v is %.0f steps ahead, over the limit of %d a request", target, steps, world.MaxStepRequest)
			}
			if _, err := l.Step(ctx, int(steps)); err != nil {
				return err
			}
		}
	}
	return nil
}

var (
	_ world.Initer     = (*Adapter)(nil)
	_ world.Resetter   = (*Adapter)(nil)
	_ world.Shutdowner = (*Adapter)(nil)
)
