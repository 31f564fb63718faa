package world

import (
	"context"
	"math"
	"time"

	"google.golang.org/protobuf/proto"

	"simgui/app/transport"
	"simgui/app/transport/msgs"
)

// ControlService and SetPoseService name the world's services on the bus.
func ControlService(world string) string { return "/world/" + world + "/control" }
func SetPoseService(world string) string { return "/world/" + world + "/set_pose" }

// Advertise offers the world's services on bus, as gz-sim does:
//
//   - /world/<name>/control (gz.msgs.WorldControl → gz.msgs.Boolean): reset (with seed when
//     given, else the current seed), then pause = the request's pause field, then step or
//     multi_step steps (also while paused), then run_to_sim_time.
//   - /world/<name>/set_pose (gz.msgs.Pose → gz.msgs.Boolean): teleport the named model.
//
// Handlers work through the loop's queue; they must not be called synchronously from the loop
// goroutine itself (systems call services from their own goroutines). The returned function
// withdraws the services.
func (l *Loop) Advertise(bus *transport.Bus) (func(), error) {
	name := l.w.cfg.Name
	stopControl, err := bus.Advertise(ControlService(name), "gz.msgs.WorldControl", "gz.msgs.Boolean",
		func(ctx context.Context, req proto.Message) (proto.Message, error) {
			return &msgs.Boolean{Data: true}, l.control(ctx, req.(*msgs.WorldControl))
		})
	if err != nil {
		return nil, err
	}
	stopPose, err := bus.Advertise(SetPoseService(name), "gz.msgs.Pose", "gz.msgs.Boolean",
		func(ctx context.Context, req proto.Message) (proto.Message, error) {
			p := req.(*msgs.Pose)
			pose := Pose{X: p.GetPosition().GetX(), Y: p.GetPosition().GetY(), Z: p.GetPosition().GetZ(), Yaw: yawOf(p.GetOrientation())}
			err := l.Call(ctx, func(w *World) error { return w.SetPose(p.GetName(), pose) })
			return &msgs.Boolean{Data: err == nil}, err
		})
	if err != nil {
		stopControl()
		return nil, err
	}
	return func() { stopControl(); stopPose() }, nil
}

func (l *Loop) control(ctx context.Context, req *msgs.WorldControl) error {
	if req.GetReset_() != nil {
		err := l.Call(ctx, func(w *World) error {
			seed := int64(req.GetSeed())
			if seed == 0 {
				seed = w.seed
			}
			err := w.Reset(seed)
			l.reanchor()
			l.publish()
			return err
		})
		if err != nil {
			return err
		}
	}
	if err := l.setPaused(req.GetPause()); err != nil {
		return err
	}
	n := int(req.GetMultiStep())
	if n == 0 && req.GetStep() {
		n = 1
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
			steps := int(math.Ceil(float64(target-cur.SimTime) / float64(time.Duration(cur.StepSize*1e9))))
			if _, err := l.Step(ctx, steps); err != nil {
				return err
			}
		}
	}
	return nil
}

// yawOf extracts the rotation about z from a quaternion (nil = 0).
func yawOf(q *msgs.Quaternion) float64 {
	if q == nil {
		return 0
	}
	return math.Atan2(2*(q.W*q.Z+q.X*q.Y), 1-2*(q.Y*q.Y+q.Z*q.Z))
}

// publishClock publishes /clock (gz.msgs.Clock) and /world/<name>/stats
// (gz.msgs.WorldStatistics) from a snapshot, where someone listens.
func publishClock(bus *transport.Bus, s *Snapshot) {
	if bus == nil {
		return
	}
	if bus.HasSubscribers(ClockTopic) {
		bus.Publish(ClockTopic, &msgs.Clock{Sim: msgs.NewTime(s.SimTime), Real: msgs.NewTime(s.RealTime)}, s.SimTime)
	}
	if topic := StatsTopic(s.World); bus.HasSubscribers(topic) {
		bus.Publish(topic, &msgs.WorldStatistics{
			SimTime:        msgs.NewTime(s.SimTime),
			RealTime:       msgs.NewTime(s.RealTime),
			Paused:         s.Paused,
			Iterations:     s.Step,
			ModelCount:     int32(len(s.Models)),
			RealTimeFactor: s.RealTimeFactor,
			StepSize:       msgs.NewTime(time.Duration(math.Round(s.StepSize * 1e9))),
			Stepping:       s.Lockstep,
		}, s.SimTime)
	}
}

// Bus returns the world's transport bus, or nil.
func (w *World) Bus() *transport.Bus {
	if w.link == nil {
		return nil
	}
	return w.link.bus
}
