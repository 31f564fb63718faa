package sensors

import (
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
