package bridge

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"google.golang.org/protobuf/proto"

	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/app/world"
	"simgui/plugins"
)

// micomParts is the micom's parts name: CLOiSim's default plugin name.
const micomParts = "Micom"

// odometryQueue is how many odometry messages wait for the forwarder: small messages, sent at
// 50 Hz of sim time, so at high time scales several arrive between two forwards.
const odometryQueue = 64

// Frames the micom names (REP-105 as cloisim_ros uses them).
const (
	baseFootprint = "base_footprint"
	baseLink      = "base_link"
)

// micom is a model's CLOiSim micom: Rx takes Twist commands onto the model's cmd_vel topic,
// Tx forwards the model's odometry (gz.msgs.Micom from the world's odometry system, on sim
// time), Tf its wheel links, Info answers static transforms, ros2 and reset_odometry.
type micom struct {
	b      *Bridge
	bus    *transport.Bus
	model  string
	mounts []plugins.SensorMount
	// uss are the model's ultrasonic sensors, whose latest readings each Tx message carries
	// in Micom.uss (for micom clients), in mount order.
	uss []*ussReading
	// battery is the model's powertrain estimate (nil without one), whose latest battery
	// voltage each Tx message carries in Micom.battery.
	battery *batteryReading
	// refused is set once a command was refused (and logged).
	refused atomic.Bool
}

// batteryReading is the latest battery voltage of a powertrain sensor.
type batteryReading struct {
	mount  plugins.SensorMount
	latest atomic.Pointer[msgs.Battery]
}

// powertrainKind is the sensor kind whose first value is the battery voltage in volts.
const powertrainKind = "powertrain"

// ussReading is the latest reading of one ultrasonic sensor.
type ussReading struct {
	dev    *sensorDevice
	latest atomic.Pointer[msgs.Sonar]
}

// openMicom opens a model's micom node.
func (b *Bridge) openMicom(m world.ModelState) (*node, error) {
	mc := &micom{b: b, bus: b.busNow(), model: m.Name}
	if v := m.Vehicle; v != nil {
		mc.mounts = v.Sensors
		for _, mount := range v.Sensors {
			switch mount.Kind {
			case ultrasonicKind:
				mc.uss = append(mc.uss, &ussReading{dev: &sensorDevice{b: b, kind: sensorKinds[ultrasonicKind], model: m.Name,
					parts: partsName(mount.ID), mount: mount}})
			case powertrainKind:
				if mc.battery == nil {
					mc.battery = &batteryReading{mount: mount}
				}
			}
		}
	}
	n, err := b.openNode(DeviceMicom, rosName(m.Name), micomParts,
		channel{key: "Info", kind: kindRep, h: handlers{onRequest: serveInfo(mc.info)}},
		channel{key: "Rx", kind: kindSub, h: handlers{onMessage: mc.command}},
		channel{key: "Tx", kind: kindPub},
		channel{key: "Tf", kind: kindPub})
	if err != nil {
		return nil, err
	}
	tx, tf := n.socks["Tx"], n.socks["Tf"]
	for _, u := range mc.uss {
		n.run(func() { mc.followUSS(n, u) })
	}
	if mc.battery != nil {
		n.run(func() { mc.followBattery(n) })
	}
	n.run(func() {
		b.forward(n, tx, transport.OdometryTopic(m.Name), odometryQueue, func(msg transport.Message, emit func([]byte)) error {
			out := msg.Msg
			if mm, ok := out.(*msgs.Micom); ok && (len(mc.uss) > 0 || mc.battery != nil) {
				out = mc.withReadings(mm)
			}
			frame, err := tx.frameOf(out)
			if err == nil {
				emit(frame)
			}
			return err
		})
	})
	n.run(func() {
		// One link per wheels message, in turn: CLOiSim sends its links' transforms at about
		// 50 Hz in all, not 50 Hz each.
		next := 0
		b.forwardOr(n, tf, transport.WheelsTopic(m.Name), odometryQueue, func(msg transport.Message, emit func([]byte)) error {
			v, ok := msg.Msg.(*msgs.Pose_V)
			if !ok {
				return fmt.Errorf("%w %s on a wheels topic", errWrongType, msg.Type)
			}
			poses := v.GetPose()
			if len(poses) == 0 {
				return nil
			}
			next %= len(poses)
			frame, err := tf.frameOf(poses[next])
			next++
			if err != nil {
				return err
			}
			emit(frame)
			return nil
		}, func() ([]byte, error) { return tf.frameOf(emptyTransform(b.source().Snapshot().SimTime)) })
	})
	return n, nil
}

// emptyTransform is what a micom's Tf port sends while its model has no links to send (a
// drone has no wheels), as CLOiSim's does: a pose without a name or parent frame, which
// cloisim_ros's micom node reads and drops, where silence made it warn of a receive timeout
// every few seconds.
func emptyTransform(simTime time.Duration) *msgs.Pose {
	return &msgs.Pose{
		Header:      &msgs.Header{Stamp: msgs.NewTime(simTime), Data: []*msgs.Header_Map{{Key: "parent_frame_id"}}},
		Position:    &msgs.Vector3D{},
		Orientation: &msgs.Quaternion{},
	}
}

// followUSS keeps the latest reading of one ultrasonic sensor for Tx.
func (mc *micom) followUSS(n *node, u *ussReading) {
	sub := n.bus.Subscribe(SensorTopic(mc.model, u.dev.mount.ID, "scalar"), transport.WithQueueLen(1))
	defer sub.Close()
	for {
		select {
		case <-n.done:
			return
		case m, ok := <-sub.C():
			if !ok {
				return
			}
			if sn, err := u.dev.sonar(m); err == nil {
				u.latest.Store(sn)
			}
		}
	}
}

// followBattery keeps the latest battery voltage of the powertrain sensor for Tx.
func (mc *micom) followBattery(n *node) {
	sub := n.bus.Subscribe(SensorTopic(mc.model, mc.battery.mount.ID, "scalar"), transport.WithQueueLen(1))
	defer sub.Close()
	for {
		select {
		case <-n.done:
			return
		case m, ok := <-sub.C():
			if !ok {
				return
			}
			if v, ok := m.Msg.(*msgs.Float_V); ok && len(v.GetData()) > 0 {
				mc.battery.latest.Store(&msgs.Battery{Header: v.GetHeader(), Name: "battery", Voltage: float64(v.GetData()[0])})
			}
		}
	}
}

// withReadings returns m with the ultrasonic readings in uss (distance and the Sonar state)
// and the battery, as CLOiSim's micom fills them.
func (mc *micom) withReadings(m *msgs.Micom) *msgs.Micom {
	out := proto.Clone(m).(*msgs.Micom)
	if mc.battery != nil {
		out.Battery = mc.battery.latest.Load()
	}
	for _, u := range mc.uss {
		sn := u.latest.Load()
		if sn == nil {
			continue
		}
		out.Uss = append(out.Uss, &msgs.Micom_USS{Distance: sn.GetRange(), State: sn})
	}
	return out
}

// command publishes an Rx payload on the model's cmd_vel topic; a Twist with a number that is
// not finite or beyond MaxTwist stops the robot. CLOiSim tries Twist, then
// Joystick (the same field numbers, so it decodes as a Twist), then Param; since almost any
// bytes decode as a Twist, a Param is recognised first by its keys (the mowing-robot blade
// settings, which simgui has no use for) and ignored.
func (mc *micom) command(payload []byte) {
	var p msgs.Param
	if proto.Unmarshal(payload, &p) == nil {
		for k := range p.GetParams() {
			if k == "mowing_blade_height" || k == "mowing_blade_rev_speed" {
				return
			}
		}
	}
	tw := &msgs.Twist{}
	if err := proto.Unmarshal(payload, tw); err != nil {
		mc.b.log.Debug("bridge: micom Rx: not a Twist", "model", mc.model, "err", err)
		return
	}
	if err := checkTwist(tw); err != nil {
		// A controller that sends NaN has lost its state: the robot stops rather than drive
		// on at the last good command. Said once per model; a flood would fill the log.
		if !mc.refused.Swap(true) {
			mc.b.log.Warn("bridge: micom Rx: command refused; the robot stops (said once for this robot)", "model", mc.model, "err", err)
		}
		tw = &msgs.Twist{}
	}
	stamp := mc.b.source().Snapshot().SimTime
	if err := mc.bus.Publish(transport.CmdVelTopic(mc.model), tw, stamp); err != nil {
		mc.b.log.Debug("bridge: micom Rx", "model", mc.model, "err", err)
	}
}

// info answers the micom's Info requests.
func (mc *micom) info(req infoRequest) proto.Message {
	switch req.name {
	case reqStaticTransforms:
		// base_link sits on base_footprint: the vehicle frame's origin is its centre on the
		// ground, and sensor mounts are given in it.
		return staticTransformsReply([]link{{parent: baseFootprint, pose: identityPose(baseLink)}})
	case reqROS2:
		// cloisim_ros's micom names its base link after this frame and adds the static
		// transform base_footprint → it, so it must not be base_footprint itself.
		return ros2Reply("", baseLink)
	case reqTransform:
		for _, m := range mc.mounts {
			if req.value == m.ID || req.value == partsName(m.ID) {
				return transformReply(mountPose(partsName(m.ID), m.Pose), baseLink)
			}
		}
		return transformReply(identityPose(baseLink), baseFootprint)
	case reqResetOdometry:
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_, err := mc.bus.Call(ctx, transport.ResetOdometryService(mc.model), &msgs.Empty{}, 2*time.Second)
		if err != nil {
			mc.b.log.Debug("bridge: reset_odometry", "model", mc.model, "err", err)
		}
		return param(reqResetOdometry, anyBool(err == nil))
	}
	return nil
}

func identityPose(name string) *msgs.Pose {
	return &msgs.Pose{Name: name, Position: &msgs.Vector3D{}, Orientation: &msgs.Quaternion{W: 1}}
}
