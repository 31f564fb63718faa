// Package odometry is the systems.odometry system: every vehicle's wheel odometry, integrated
// on sim time after each step and published on the world's bus at a fixed rate of sim time,
// so it is the same at any time scale and for the same seed bit for bit:
//
//   - /model/<name>/micom (gz.msgs.Micom, CLOiSim's micom message): odom.pose is the model's
//     true motion (x, y in metres, z the yaw in radians) in the frame of its pose at spawn,
//     reset or the last reset_odometry; odom.twist its forward speed and yaw rate;
//     odom.linear_velocity and odom.angular_velocity the left and right wheel speeds (m/s,
//     rad/s) of a differential base whose track is the body's width;
//   - /model/<name>/wheels (gz.msgs.Pose_V): wheel_left_link and wheel_right_link on their
//     axles, turned by the integrated wheel angles, parent frame base_link.
//
// Service /model/<name>/reset_odometry (gz.msgs.Empty → gz.msgs.Boolean) restarts a model's
// odometry where it stands. Flying vehicles have no wheels: their wheel speeds are zero and
// they publish no wheel poses.
//
// Parameters:
//
//	rateHz       publications per second of sim time (default 50, as CLOiSim's micom)
//	wheelRadius  wheel radius in metres, for wheel rates and the axle height (default 0.0325,
//	             the KS0223's 65 mm wheels; vehicle descriptors do not give one)
//
// # Concurrency
//
// Everything but the service handler runs on the loop goroutine; the handler reaches the world
// through the loop.
package odometry

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
const ID = "systems.odometry"

// Defaults of the parameters.
const (
	DefaultRate        = 50     // Hz of sim time
	DefaultWheelRadius = 0.0325 // m
)

// Frame names of the wheel poses (REP-105 as cloisim_ros uses them).
const (
	BaseLink   = "base_link"
	LeftWheel  = "wheel_left_link"
	RightWheel = "wheel_right_link"
)

func init() {
	systems.Register(systems.Module{
		ID:  ID,
		New: func() any { return &Odometry{} },
		Doc: "wheel odometry of every vehicle on sim time (micom message and wheel poses)",
	})
}

// Odometry is the systems.odometry system.
type Odometry struct {
	RateHz      float64 `yaml:"rateHz"`
	WheelRadius float64 `yaml:"wheelRadius"`

	bus     *transport.Bus
	events  *events.Bus
	handles []events.Handle
	period  time.Duration
	next    time.Duration // sim time of the next publication
	models  map[string]*odom
}

// odom is one model's integration state.
type odom struct {
	name     string
	track    float64 // wheel separation, m
	wheels   bool
	origin   world.Pose
	angle    [2]float64 // left, right, rad
	services func()
	// The model's topics, named once: checking for subscribers every step must not build
	// strings.
	odomTopic, wheelsTopic string
}

// Validate checks the parameters.
func (o *Odometry) Validate() error {
	if !(o.RateHz >= 0 && o.RateHz <= 10000) {
		return fmt.Errorf("rateHz %g is outside 0..10000 (0 = %d)", o.RateHz, DefaultRate)
	}
	if !(o.WheelRadius >= 0 && o.WheelRadius <= 10) {
		return fmt.Errorf("wheelRadius %g m is outside 0..10 (0 = %g)", o.WheelRadius, DefaultWheelRadius)
	}
	return nil
}

// Init starts the odometry of every model.
func (o *Odometry) Init(w *world.World) error {
	if err := o.Validate(); err != nil {
		return err
	}
	o.bus = w.Bus()
	if o.bus == nil {
		return errors.New("the world has no transport bus (world.Config.Bus)")
	}
	if o.RateHz == 0 {
		o.RateHz = DefaultRate
	}
	if o.WheelRadius == 0 {
		o.WheelRadius = DefaultWheelRadius
	}
	o.period = time.Duration(math.Round(1e9 / o.RateHz))
	o.models = map[string]*odom{}
	o.Reset(w)
	o.events = w.Events()
	o.handles = append(o.handles,
		o.events.On(events.AgentSpawned, func(ev events.Event) {
			if m := w.Model(ev.Data.(events.Entity).Name); m != nil {
				o.add(w, m)
			}
		}, 0),
		o.events.On(events.AgentRemoved, func(ev events.Event) { o.remove(ev.Data.(events.Entity).Name) }, 0),
	)
	return nil
}

// Reset starts every model's odometry again at its new pose.
func (o *Odometry) Reset(w *world.World) {
	for name := range o.models {
		o.remove(name)
	}
	for _, m := range w.Models() {
		o.add(w, m)
	}
	o.next = (w.SimTime()/o.period + 1) * o.period
}

// Shutdown withdraws the services.
func (o *Odometry) Shutdown() error {
	for _, h := range o.handles {
		o.events.Off(h)
	}
	o.handles = nil
	for name := range o.models {
		o.remove(name)
	}
	return nil
}

func (o *Odometry) add(w *world.World, m *world.Model) {
	od := &odom{name: m.Name, wheels: true}
	od.origin, _ = w.Pose(m.Name)
	if v := m.Vehicle; v != nil && v.Body != nil {
		od.track = v.Body.Width
		if v.Body.Shape == "circle" {
			od.track = 2 * v.Body.Radius
		}
	}
	if _, flyer := m.Drive.(drive.Flyer); flyer {
		od.wheels = false
	}
	if l := w.Loop(); l != nil {
		name := m.Name
		stop, err := o.bus.Advertise(transport.ResetOdometryService(name), "gz.msgs.Empty", "gz.msgs.Boolean",
			func(ctx context.Context, _ proto.Message) (proto.Message, error) {
				err := l.Call(ctx, func(w *world.World) error { return o.restart(w, name) })
				return &msgs.Boolean{Data: err == nil}, err
			})
		if err != nil {
			w.Logger().Warn("odometry: reset_odometry not offered", "model", name, "err", err)
		} else {
			od.services = stop
		}
	}
	od.odomTopic, od.wheelsTopic = transport.OdometryTopic(m.Name), transport.WheelsTopic(m.Name)
	// Declared, so that the bus lists them before anyone subscribes (they are published only
	// while someone does).
	topics := []string{od.odomTopic}
	if od.wheels {
		topics = append(topics, od.wheelsTopic)
	}
	o.bus.DeclareBuiltin(topics...)
	o.models[m.Name] = od
}

func (o *Odometry) remove(name string) {
	if od := o.models[name]; od != nil && od.services != nil {
		od.services()
	}
	delete(o.models, name)
}

// restart puts a model's odometry origin where it stands and its wheel angles at zero.
func (o *Odometry) restart(w *world.World, name string) error {
	od := o.models[name]
	if od == nil {
		return fmt.Errorf("reset_odometry: no model %q", name)
	}
	od.origin, _ = w.Pose(name)
	od.angle = [2]float64{}
	return nil
}

// PostStep integrates the wheel angles over the step and publishes when a publication is due.
func (o *Odometry) PostStep(w *world.World) {
	dt := w.StepSize()
	now := w.SimTime()
	due := now >= o.next
	if due {
		// Publications fall on whole multiples of the period, whatever the step.
		o.next = (now/o.period + 1) * o.period
	}
	var stamp *msgs.Time // made for the first publication of a due step
	for _, m := range w.Models() {
		od := o.models[m.Name]
		if od == nil {
			continue
		}
		_, _, left, right := od.speeds(m)
		r := o.WheelRadius
		od.angle[0] += left / r * dt
		od.angle[1] += right / r * dt
		if !due {
			continue
		}
		odom, wheels := o.bus.HasSubscribers(od.odomTopic), od.wheels && o.bus.HasSubscribers(od.wheelsTopic)
		if (odom || wheels) && stamp == nil {
			stamp = msgs.NewTime(now)
		}
		o.publish(w, m, od, stamp, odom, wheels)
	}
}

// publish sends model m's odometry and wheel poses (each when asked) as they stand.
func (o *Odometry) publish(w *world.World, m *world.Model, od *odom, stamp *msgs.Time, sendOdom, sendWheels bool) {
	now := w.SimTime()
	v, yawRate, left, right := od.speeds(m)
	r := o.WheelRadius
	if topic := od.odomTopic; sendOdom {
		pose, _ := w.Pose(m.Name)
		dx, dy := pose.X-od.origin.X, pose.Y-od.origin.Y
		s, c := math.Sincos(od.origin.Yaw)
		yaw := math.Remainder(pose.Yaw-od.origin.Yaw, 2*math.Pi)
		o.bus.Publish(topic, &msgs.Micom{
			Time: stamp,
			Odom: &msgs.Micom_Odometry{
				AngularVelocity: &msgs.Micom_Wheel{Left: left / r, Right: right / r},
				LinearVelocity:  &msgs.Micom_Wheel{Left: left, Right: right},
				Pose:            &msgs.Vector3D{X: c*dx + s*dy, Y: -s*dx + c*dy, Z: yaw},
				Twist:           &msgs.Twist{Linear: &msgs.Vector3D{X: v}, Angular: &msgs.Vector3D{Z: yawRate}},
			},
		}, now)
	}
	if topic := od.wheelsTopic; sendWheels {
		o.bus.Publish(topic, &msgs.Pose_V{Pose: []*msgs.Pose{
			wheelPose(LeftWheel, stamp, od.track/2, r, od.angle[0]),
			wheelPose(RightWheel, stamp, -od.track/2, r, od.angle[1]),
		}}, now)
	}
}

// speeds returns m's forward speed (m/s), yaw rate (rad/s) and wheel surface speeds (m/s; 0
// without wheels).
func (od *odom) speeds(m *world.Model) (v, yawRate, left, right float64) {
	v, _ = m.Body.LocalVelocity()
	yawRate = m.Body.AngularVelocity()
	if od.wheels {
		left, right = v-yawRate*od.track/2, v+yawRate*od.track/2
	}
	return v, yawRate, left, right
}

// Republish publishes a model's odometry or wheel poses as they stand, without integrating a
// step (world.Republisher).
func (o *Odometry) Republish(w *world.World, topic string) bool {
	for _, m := range w.Models() {
		od := o.models[m.Name]
		if od == nil || topic != od.odomTopic && (topic != od.wheelsTopic || !od.wheels) {
			continue
		}
		o.publish(w, m, od, msgs.NewTime(w.SimTime()), topic == od.odomTopic, topic == od.wheelsTopic)
		return true
	}
	return false
}

// wheelPose is a wheel link on its axle (y offset side, at height r), turned by angle about
// the axle: positive pitch rolls it forward.
func wheelPose(name string, stamp *msgs.Time, side, r, angle float64) *msgs.Pose {
	s, c := math.Sincos(angle / 2)
	return &msgs.Pose{
		Header:      &msgs.Header{Stamp: stamp, Data: []*msgs.Header_Map{{Key: "parent_frame_id", Value: []string{BaseLink}}}},
		Name:        name,
		Position:    &msgs.Vector3D{Y: side, Z: r},
		Orientation: &msgs.Quaternion{W: c, Y: s},
	}
}

var (
	_ world.Initer      = (*Odometry)(nil)
	_ world.PostStepper = (*Odometry)(nil)
	_ world.Resetter    = (*Odometry)(nil)
	_ world.Shutdowner  = (*Odometry)(nil)
)
