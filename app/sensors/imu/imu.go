package imu

import (
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"simgui/app/sensors"
	"simgui/app/transport/msgs"
	"simgui/physics"
	"simgui/physics/drive"
	"simgui/render"
)

func init() {
	sensors.Register(sensors.Kind{
		Name: "imu", Topic: sensors.TopicIMU, New: New,
		Doc: "specific force (m/s², +g on z at rest), angular velocity (rad/s) and orientation",
	})
}

// Gravity is standard gravity in m/s².
const Gravity = physics.Gravity

// IMU is one mounted inertial unit.
type IMU struct {
	spec  *sensors.Spec
	mount mgl64.Mat3 // the mount's rotation in the vehicle frame
	lever mgl64.Vec2 // the mount's position in the vehicle frame (x, y)

	started bool
	lastV   mgl64.Vec3
	lastT   time.Duration
}

// New builds an IMU from its spec.
func New(spec *sensors.Spec) (sensors.Sensor, error) {
	if err := sensors.CheckShape(spec.Contract, 6); err != nil {
		return nil, err
	}
	m := render.PoseFromPose3(spec.Mount.Pose)
	return &IMU{spec: spec, mount: m.Rotation(), lever: mgl64.Vec2{m.X, m.Y}}, nil
}

// velocity returns the world velocity of the mount point.
func (u *IMU) velocity(c *sensors.Context) mgl64.Vec3 {
	b := c.Model.Body
	vx, vy := b.Velocity()
	w := b.AngularVelocity()
	rx, ry := mgl64.Rotate2D(b.Pose().Yaw).Mul2x1(u.lever).Elem() // lever arm in the world
	// The drive's climb rate, not a difference of altitude, which missed the first step's
	// climb and would take a teleport for one.
	vz := 0.0
	if f, ok := c.Model.Drive.(drive.Flyer); ok {
		vz = f.ClimbRate()
	}
	return mgl64.Vec3{vx - w*ry, vy + w*rx, vz}
}

// Track takes the velocity at the first step as the one the first reading's acceleration is
// from.
func (u *IMU) Track(c *sensors.Context) {
	if !u.started {
		u.started = true
		u.lastV, u.lastT = u.velocity(c), c.Stamp
	}
}

// Fire emits the reading.
func (u *IMU) Fire(c *sensors.Context) {
	v := u.velocity(c)
	var a mgl64.Vec3
	if dt := (c.Stamp - u.lastT).Seconds(); dt > 0 {
		a = v.Sub(u.lastV).Mul(1 / dt)
	}
	u.lastV, u.lastT = v, c.Stamp
	rot := mgl64.Rotate3DZ(c.Model.Body.Pose().Yaw).Mul3(u.mount) // sensor frame → world
	inv := rot.Transpose()
	f := inv.Mul3x1(a.Add(mgl64.Vec3{0, 0, Gravity}))
	w := inv.Mul3x1(mgl64.Vec3{0, 0, c.Model.Body.AngularVelocity()})
	n := &u.spec.Noise
	for i := range 3 {
		f[i] = n.Add(f[i])
	}
	for i := range 3 {
		w[i] = n.Add(w[i])
	}
	q := mgl64.Mat4ToQuat(rot.Mat4()).Normalize()
	u.spec.Out.Emit(sensors.Reading{Step: c.Step, Stamp: c.Stamp, Msg: &msgs.IMU{
		Header: sensors.Header(c.Stamp), EntityName: u.spec.Name(),
		Orientation:        &msgs.Quaternion{X: q.V[0], Y: q.V[1], Z: q.V[2], W: q.W},
		AngularVelocity:    &msgs.Vector3D{X: w[0], Y: w[1], Z: w[2]},
		LinearAcceleration: &msgs.Vector3D{X: f[0], Y: f[1], Z: f[2]},
	}})
}
