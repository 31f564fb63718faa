package bridge

import (
	"math"
	"sync"
	"time"

	"google.golang.org/protobuf/proto"

	"simgui/app/transport/msgs"
	"simgui/app/world"
	"simgui/physics/drive"
	"simgui/plugins"
)

// micomParts is the micom's parts name: CLOiSim's default plugin name.
const micomParts = "Micom"

// Frames the micom names (REP-105 as cloisim_ros uses them).
const (
	baseFootprint = "base_footprint"
	baseLink      = "base_link"
)

// micom is a model's CLOiSim micom: Rx takes Twist commands onto the model's cmd_vel topic,
// Tx sends Micom odometry, Tf the wheel links, Info answers static transforms, ros2 and
// reset_odometry.
type micom struct {
	b      *Bridge
	model  string
	mounts []plugins.SensorMount
	// track is the wheel separation (body width) in metres; wheels is false for flyers.
	track  float64
	wheels bool

	mu       sync.Mutex
	origin   world.Pose // odometry frame: the pose at start, reset or reset_odometry
	last     time.Duration
	haveLast bool
	angle    [2]float64 // left and right wheel angles, rad
}

// openMicom opens a model's micom node.
func (b *Bridge) openMicom(m world.ModelState) (*node, error) {
	mc := &micom{b: b, model: m.Name, origin: m.Pose, wheels: true}
	if v := m.Vehicle; v != nil {
		mc.mounts = v.Sensors
		if body := v.Body; body != nil {
			mc.track = body.Width
			if body.Shape == "circle" {
				mc.track = 2 * body.Radius
			}
		}
		if v.Drive != nil {
			if dm, err := drive.New(v.Drive.Model, v.Drive.Params); err == nil {
				_, flyer := dm.(drive.Flyer)
				mc.wheels = !flyer
			}
		}
	}
	n, err := b.openNode(DeviceMicom, m.Name, micomParts,
		channel{key: "Info", kind: kindRep, h: handlers{onRequest: serveInfo(mc.info)}},
		channel{key: "Rx", kind: kindSub, h: handlers{onMessage: mc.command}},
		channel{key: "Tx", kind: kindPub},
		channel{key: "Tf", kind: kindPub})
	if err != nil {
		return nil, err
	}
	n.run(func() { mc.run(n) })
	return n, nil
}

// command publishes an Rx payload on the model's cmd_vel topic. CLOiSim tries Twist, then
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
		mc.b.log.Debug("bridge: micom Rx: command refused", "model", mc.model, "err", err)
		return
	}
	stamp := mc.b.src.Snapshot().SimTime
	if err := mc.b.bus.Publish(world.CmdVelTopic(mc.model), tw, stamp); err != nil {
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
		return ros2Reply("", baseFootprint)
	case reqTransform:
		for _, m := range mc.mounts {
			if req.value == m.ID || req.value == partsName(m.ID) {
				return transformReply(mountPose(partsName(m.ID), m.Pose), baseLink)
			}
		}
		return transformReply(identityPose(baseLink), baseFootprint)
	case reqResetOdometry:
		s := mc.b.src.Snapshot()
		mc.mu.Lock()
		if ms, ok := s.Model(mc.model); ok {
			mc.origin = ms.Pose
		}
		mc.angle = [2]float64{}
		mc.mu.Unlock()
		return param(reqResetOdometry, anyBool(true))
	}
	return nil
}

func identityPose(name string) *msgs.Pose {
	return &msgs.Pose{Name: name, Position: &msgs.Vector3D{}, Orientation: &msgs.Quaternion{W: 1}}
}

// run sends Tx and Tf at the odometry rate while either has a subscriber.
func (mc *micom) run(n *node) {
	tx, tf := n.socks["Tx"], n.socks["Tf"]
	period := time.Duration(float64(time.Second) / mc.b.opts.OdometryRate)
	var ticker *time.Ticker
	var tick <-chan time.Time
	defer func() {
		if ticker != nil {
			ticker.Stop()
		}
	}()
	for {
		select {
		case <-n.done:
			return
		case <-tx.Demand():
		case <-tf.Demand():
		case <-tick:
			mc.publish(tx, tf)
			continue
		}
		switch want := tx.Subscribed() || tf.Subscribed(); {
		case want && ticker == nil:
			ticker = time.NewTicker(period)
			tick = ticker.C
		case !want && ticker != nil:
			ticker.Stop()
			ticker, tick = nil, nil
		}
	}
}

// publish sends one Micom on Tx and the wheel links on Tf from the latest snapshot, unless sim
// time has not moved since the last one. Odometry is the model's true motion in the frame of
// its pose at start (or at the last reset or reset_odometry); wheel speeds follow from the
// forward speed and yaw rate of a differential base with the body's width as track.
func (mc *micom) publish(tx, tf *socket) {
	snap := mc.b.src.Snapshot()
	ms, ok := snap.Model(mc.model)
	if !ok {
		return
	}
	mc.mu.Lock()
	if mc.haveLast && snap.SimTime == mc.last {
		mc.mu.Unlock()
		return
	}
	dt := 0.0
	if mc.haveLast {
		if snap.SimTime < mc.last { // the world was reset: odometry starts again
			mc.origin = ms.Pose
			mc.angle = [2]float64{}
		} else {
			dt = (snap.SimTime - mc.last).Seconds()
		}
	}
	mc.last, mc.haveLast = snap.SimTime, true

	v, w := ms.Forward, ms.YawRate
	var left, right float64 // wheel surface speeds, m/s
	if mc.wheels {
		left, right = v-w*mc.track/2, v+w*mc.track/2
	}
	r := mc.b.opts.WheelRadius
	mc.angle[0] += left / r * dt
	mc.angle[1] += right / r * dt
	angle := mc.angle
	o := mc.origin
	mc.mu.Unlock()

	dx, dy := ms.Pose.X-o.X, ms.Pose.Y-o.Y
	s, c := math.Sincos(o.Yaw)
	yaw := math.Remainder(ms.Pose.Yaw-o.Yaw, 2*math.Pi)
	stamp := msgs.NewTime(snap.SimTime)
	if tx.Subscribed() {
		m := &msgs.Micom{
			Time: stamp,
			Odom: &msgs.Micom_Odometry{
				AngularVelocity: &msgs.Micom_Wheel{Left: left / r, Right: right / r},
				LinearVelocity:  &msgs.Micom_Wheel{Left: left, Right: right},
				Pose:            &msgs.Vector3D{X: c*dx + s*dy, Y: -s*dx + c*dy, Z: yaw},
				Twist:           &msgs.Twist{Linear: &msgs.Vector3D{X: v}, Angular: &msgs.Vector3D{Z: w}},
			},
		}
		if frame, err := tx.frameOf(m); err == nil {
			tx.Publish(frame)
		}
	}
	if tf.Subscribed() && mc.wheels {
		names := [2]string{"wheel_left_link", "wheel_right_link"}
		for i, name := range names {
			side := 1.0 - 2*float64(i) // left +y, right -y
			p := &msgs.Pose{
				Header: &msgs.Header{Stamp: stamp, Data: []*msgs.Header_Map{{Key: "parent_frame_id", Value: []string{baseLink}}}},
				Name:   name,
				// The wheel turns about its axle (y); positive pitch rolls it forward.
				Position:    &msgs.Vector3D{Y: side * mc.track / 2, Z: r},
				Orientation: quatRPY(0, angle[i], 0),
			}
			if frame, err := tf.frameOf(p); err == nil {
				tf.Publish(frame)
			}
		}
	}
}
