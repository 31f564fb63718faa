package sensors

import (
	"math"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"simgui/app/sensors/raycast"
	"simgui/app/world"
	"simgui/plugins"
	"simgui/render"
)

// Context is what a sensor sees when it fires: the world after this step's physics, the model
// carrying it, and the system's shared caches. It is valid only during the call it is passed
// to, on the loop goroutine.
type Context struct {
	World *world.World
	Model *world.Model
	// Step and Stamp are the step count and the sim time after the step: the reading's stamp.
	Step  uint64
	Stamp time.Duration

	sys *System
}

// BodyPose returns the model's pose: centre on the ground, base altitude, yaw.
func (c *Context) BodyPose() render.Pose { return BodyPose(c.Model) }

// MountPose returns the world pose of a frame mounted on the model at p (vehicle frame).
func (c *Context) MountPose(p plugins.Pose3) render.Pose {
	return BodyPose(c.Model).Compose(render.PoseFromPose3(p))
}

// MountBlocked reports whether an obstacle other than the model stands between the model's
// centre and the mount at mp (its world pose, from MountPose), at the mount's height. A sensor
// mounted beyond the body's outline (the KS0223's sonar is 0.23 m ahead of the centre of a
// 0.25 m body) reaches into or through a wall the body touches, and would read what lies behind
// it; a real one is pressed against the wall. The caster is Rays'.
func (c *Context) MountBlocked(caster *raycast.Caster, mp render.Pose) bool {
	_, blocked := c.reachable(caster, mp)
	return blocked
}

// reachable is how far along the line from the model's centre towards mp, at mp's height, the
// mount can be without passing through an obstacle other than the model: 1 (all of it) unless
// blocked, else the share before the obstacle.
func (c *Context) reachable(caster *raycast.Caster, mp render.Pose) (share float64, blocked bool) {
	body := c.BodyPose()
	dx, dy := mp.X-body.X, mp.Y-body.Y
	d := math.Hypot(dx, dy)
	if d == 0 {
		return 1, false
	}
	if t := caster.Cast(body.X, body.Y, mp.Z, math.Atan2(dy, dx), d, c.Model.ID); t <= d {
		return max(0, t-2*minNear) / d, true
	}
	return 1, false
}

// minNear is the nearest a camera's near plane is pulled in (ClearNear), metres.
const minNear = 0.001

// nearRays is how many rays across the horizontal field of view ClearNear casts.
const nearRays = 5

// ClearNear pulls cam's near plane (at its pose, the mount's) in front of an obstacle nearer
// than it, so that a camera whose body touches a wall shows the wall: a near clip of a few
// centimetres (the KS0223's is 3 cm, 5 mm behind its bumper) would cut the wall away and show
// what lies behind it. A real lens has no near clip. It casts a few rays across the horizontal
// field of view at the camera's height; without a ray scene the plane stays where it is. A
// camera the body has pushed into or past a wall is first moved back to the wall's face.
func (c *Context) ClearNear(cam *render.Camera) {
	if cam.Near <= minNear {
		return
	}
	caster, err := c.Rays()
	if err != nil {
		return
	}
	// A body pushed into a wall takes a camera near its bumper into the wall, where it sees
	// out through the wall's back; a real lens stays at the wall's face. The camera moves back
	// towards the body's centre to just before what stands between them.
	if share, blocked := c.reachable(caster, cam.Pose); blocked {
		body := c.BodyPose()
		cam.X, cam.Y = body.X+(cam.X-body.X)*share, body.Y+(cam.Y-body.Y)*share
	}
	// Half the horizontal field of view: the frame's edge over the focal length (from the
	// intrinsics when given, else from the vertical field of view and the aspect ratio) is
	// its tangent through a pinhole, and about the angle itself through a fisheye; a lens
	// that distorts is taken at the wider, and any to 80°.
	l := cam.Lens
	edge := math.Tan(cam.FovYDeg*math.Pi/360) * float64(cam.Width) / float64(cam.Height)
	if l.Fx > 0 {
		px := float64(cam.Width) / 2 // Cx 0 is the centre column
		if l.Cx != 0 {
			px = max(l.Cx+0.5, float64(cam.Width)-l.Cx-0.5)
		}
		edge = px / l.Fx
	}
	half := math.Atan(edge)
	if l.Model == render.Equidistant || l.K1 != 0 || l.K2 != 0 || l.K3 != 0 || l.K4 != 0 || l.P1 != 0 || l.P2 != 0 {
		half = edge
	}
	half = min(half, 80*math.Pi/180)
	closest := cam.Near
	for i := range nearRays {
		a := half * (2*float64(i)/(nearRays-1) - 1)
		cos := math.Cos(a)
		if t := caster.Cast(cam.X, cam.Y, cam.Z, cam.Yaw+a, cam.Near/cos, c.Model.ID); t*cos < closest {
			closest = t * cos
		}
	}
	if closest < cam.Near {
		if closest < 2*minNear {
			// Too close for a near plane before it: the lens steps back, so the wall is that
			// far ahead (a real one against the wall sees it, blurred and dark).
			back := 2*minNear - closest
			cam.X, cam.Y = cam.X-back*math.Cos(cam.Yaw), cam.Y-back*math.Sin(cam.Yaw)
			closest = 2 * minNear
		}
		// Half the distance: the wall may come nearer between the rays.
		cam.Near = max(minNear, closest/2)
	}
}

// Rays returns a ray caster over the world as it is after this step: the track's static
// geometry, every vehicle and every pushable box. Ignore the sensor's own body by its ID
// (c.Model.ID).
func (c *Context) Rays() (*raycast.Caster, error) { return c.sys.rays.get(c.World) }

// View captures what a camera on the model sees now — the static scene, its own vehicle, the
// other vehicles unless peers are hidden for it (System.SetPeerVisibility), pushable boxes and
// markers — appending the objects to dst[:0]. The View may be rendered on another goroutine.
func (c *Context) View(dst []render.Object) (View, error) {
	return c.sys.scene.view(c.World, c.Model, c.sys.PeersVisible(c.Model.Name), nil, dst)
}

// ViewIn is View with the static scene in env, the environment a camera's look parameters
// give (render.MountCamera); Statics are built once per environment and layout.
func (c *Context) ViewIn(env *render.Environment, dst []render.Object) (View, error) {
	return c.sys.scene.view(c.World, c.Model, c.sys.PeersVisible(c.Model.Name), env, dst)
}

// SharedViewIn is ViewIn for a shot rendered later on a worker: its Objects may be shared
// with every other shot of the step, so they must be neither modified nor appended to.
func (c *Context) SharedViewIn(env *render.Environment) (View, error) {
	return c.sys.scene.sharedView(c.World, c.Model, c.sys.PeersVisible(c.Model.Name), env)
}

// BaseEnvironment is the sky and ground cameras start their look from (Options.Environment).
func (c *Context) BaseEnvironment() *render.Environment { return c.sys.baseEnvironment() }

// MountMotion returns the velocity of a frame mounted on the model at p, in the world frame:
// the body's velocity plus its yaw rate's contribution at the mount, and the yaw rate.
func (c *Context) MountMotion(p plugins.Pose3) render.Motion {
	b := c.Model.Body
	vx, vy := b.Velocity()
	w := b.AngularVelocity()
	body := BodyPose(c.Model)
	m := c.MountPose(p)
	rx, ry := m.X-body.X, m.Y-body.Y
	return render.Motion{Linear: mgl64.Vec3{vx - w*ry, vy + w*rx, 0}, Angular: mgl64.Vec3{0, 0, w}}
}

// Renderer returns the renderer for frames drawn on the loop goroutine (Snapper).
func (c *Context) Renderer() *render.Renderer {
	s := c.sys
	if s.renderer == nil {
		s.renderer = render.NewRenderer(render.Options{})
	}
	return s.renderer
}
