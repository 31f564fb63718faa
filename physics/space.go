package physics

import (
	"fmt"
	"math"

	"github.com/jakecoffman/cp/v2"

	"simgui/plugins"
)

// Gravity is standard gravity in m/s², used for ground friction.
const Gravity = 9.80665

// Options configures a Space. The zero value is usable.
type Options struct {
	// Iterations of the contact solver per step; 0 means 10 (cp's default).
	Iterations int
	// VehicleCollisions, when false, lets vehicles pass through each other (they still collide
	// with the track and with boxes).
	VehicleCollisions bool
}

// Space is a physics world. See the package doc for determinism and concurrency.
type Space struct {
	cp     *cp.Space
	opts   Options
	nextID uint32
	// bodies in insertion (ID) order: the order every iteration uses.
	bodies []*Body
	boxes  []*Body

	contacts contactLog
}

// vehicleGroup is the cp group shared by all vehicles when vehicle collisions are off.
const vehicleGroup = 1

// NewSpace returns an empty space.
func NewSpace(opts Options) *Space {
	s := &Space{cp: cp.NewSpace(), opts: opts}
	// cp's defaults suit pixel units; in metres a 0.1 slop would let a car sink 10 cm into a wall.
	s.cp.SetCollisionSlop(0.001)
	if opts.Iterations > 0 {
		s.cp.Iterations = uint(opts.Iterations)
	}
	s.contacts.install(s)
	return s
}

// Bodies returns every body in ID order. The slice is the space's own; do not modify it.
func (s *Space) Bodies() []*Body { return s.bodies }

// Body returns the body with the given ID, or nil.
func (s *Space) Body(id uint32) *Body {
	// IDs are dense and increasing, but removal leaves gaps: binary search.
	lo, hi := 0, len(s.bodies)
	for lo < hi {
		m := (lo + hi) / 2
		switch b := s.bodies[m]; {
		case b.ID == id:
			return b
		case b.ID < id:
			lo = m + 1
		default:
			hi = m
		}
	}
	return nil
}

func (s *Space) newBody(name string, kind Kind, body *cp.Body) *Body {
	s.nextID++
	b := &Body{ID: s.nextID, Name: name, Kind: kind, cp: body, space: s}
	body.UserData = b
	s.bodies = append(s.bodies, b)
	return b
}

func (s *Space) addShape(b *Body, sh *cp.Shape, friction float64) {
	sh.UserData = b
	sh.SetFriction(friction)
	sh.SetElasticity(0)
	s.cp.AddShape(sh)
	b.shapes = append(b.shapes, sh)
}

// AddElement adds a track element. Elements with no height (roads, markers, lines) are visual
// only and return nil. Movable boxes become dynamic bodies that slide with ground friction.
func (s *Space) AddElement(e plugins.Element) (*Body, error) {
	if e.Height <= 0 {
		return nil, nil
	}
	friction := e.Friction
	if friction == 0 {
		friction = 0.7
	}
	yaw := e.YawDeg * math.Pi / 180
	switch e.Kind {
	case plugins.ElementWall, plugins.ElementBox:
		if e.Length <= 0 || e.Width <= 0 {
			return nil, fmt.Errorf("%s %q: length and width must be positive", e.Kind, e.Name)
		}
		if e.Kind == plugins.ElementBox && e.Movable {
			mass := e.Mass
			if mass <= 0 {
				mass = 1
			}
			body := s.cp.AddBody(cp.NewBody(mass, cp.MomentForBox(mass, e.Length, e.Width)))
			body.SetPosition(cp.Vector{X: e.X, Y: e.Y})
			body.SetAngle(yaw)
			b := s.newBody(e.Name, KindBox, body)
			b.Base, b.Height = e.Z, e.Height
			s.addShape(b, cp.NewBox(body, e.Length, e.Width, 0), friction)
			s.boxes = append(s.boxes, b)
			return b, nil
		}
		return s.addStatic(e, friction, func(body *cp.Body) []*cp.Shape {
			return []*cp.Shape{cp.NewBox(body, e.Length, e.Width, 0)}
		}, yaw), nil
	case plugins.ElementCylinder:
		if e.Radius <= 0 {
			return nil, fmt.Errorf("cylinder %q: radius must be positive", e.Name)
		}
		return s.addStatic(e, friction, func(body *cp.Body) []*cp.Shape {
			return []*cp.Shape{cp.NewCircle(body, e.Radius, cp.Vector{})}
		}, 0), nil
	case plugins.ElementPolygon:
		if len(e.Points) < 3 {
			return nil, fmt.Errorf("polygon %q: needs at least 3 points", e.Name)
		}
		// Outline segments: correct for concave polygons, which cp's convex shapes are not.
		return s.addStatic(plugins.Element{Name: e.Name, Z: e.Z, Height: e.Height}, friction,
			func(body *cp.Body) []*cp.Shape {
				var out []*cp.Shape
				for i, p := range e.Points {
					q := e.Points[(i+1)%len(e.Points)]
					out = append(out, cp.NewSegment(body, cp.Vector{X: p[0], Y: p[1]}, cp.Vector{X: q[0], Y: q[1]}, 0.005))
				}
				return out
			}, 0), nil
	default:
		// Visual kinds with a height (a raised marker, say) do not collide.
		return nil, nil
	}
}

func (s *Space) addStatic(e plugins.Element, friction float64, shapes func(*cp.Body) []*cp.Shape, yaw float64) *Body {
	body := cp.NewStaticBody()
	body.SetPosition(cp.Vector{X: e.X, Y: e.Y})
	body.SetAngle(yaw)
	b := s.newBody(e.Name, KindStatic, body)
	b.Base, b.Height = e.Z, e.Height
	for _, sh := range shapes(body) {
		s.addShape(b, sh, friction)
	}
	return b
}

// VehicleSpec describes a vehicle body to add.
type VehicleSpec struct {
	Name   string
	Body   plugins.Body
	Pose   Pose
	Base   float64 // initial altitude of the body's base
	Flying bool
}

// AddVehicle adds a dynamic vehicle body.
func (s *Space) AddVehicle(v VehicleSpec) (*Body, error) {
	bd := v.Body
	// The body is checked as plugin validation checks it (plugins.Body.Check), and the pose
	// must be finite and within the world: one NaN in the solver spreads to every body.
	if err := bd.Check(); err != nil {
		return nil, fmt.Errorf("vehicle %s: %w", v.Name, err)
	}
	for _, c := range []struct {
		name string
		x    float64
	}{{"x", v.Pose.X}, {"y", v.Pose.Y}, {"z", v.Base}, {"yaw", v.Pose.Yaw}} {
		if math.IsNaN(c.x) || math.IsInf(c.x, 0) || math.Abs(c.x) > plugins.WorldExtent {
			return nil, fmt.Errorf("vehicle %s: pose %s = %g is not a finite number within ±%d", v.Name, c.name, c.x, plugins.WorldExtent)
		}
	}
	var moment float64
	var shape func(*cp.Body) *cp.Shape
	if bd.Shape == "circle" {
		moment = cp.MomentForCircle(bd.Mass, 0, bd.Radius, cp.Vector{})
		shape = func(b *cp.Body) *cp.Shape { return cp.NewCircle(b, bd.Radius, cp.Vector{}) }
	} else {
		moment = cp.MomentForBox(bd.Mass, bd.Length, bd.Width)
		shape = func(b *cp.Body) *cp.Shape { return cp.NewBox(b, bd.Length, bd.Width, 0) }
	}
	body := s.cp.AddBody(cp.NewBody(bd.Mass, moment))
	body.SetPosition(cp.Vector{X: v.Pose.X, Y: v.Pose.Y})
	body.SetAngle(v.Pose.Yaw)
	b := s.newBody(v.Name, KindVehicle, body)
	b.Base, b.Height, b.Flying = v.Base, bd.Height, v.Flying
	friction := bd.Friction
	if friction == 0 {
		friction = 0.7
	}
	sh := shape(body)
	if !s.opts.VehicleCollisions {
		sh.SetFilter(cp.NewShapeFilter(vehicleGroup, cp.ALL_CATEGORIES, cp.ALL_CATEGORIES))
	}
	s.addShape(b, sh, friction)
	return b, nil
}

// Remove takes a body out of the space. Contacts it had end (reported by the next Contacts).
func (s *Space) Remove(b *Body) {
	if b == nil || b.space != s {
		return
	}
	for _, sh := range b.shapes {
		s.cp.RemoveShape(sh)
	}
	if b.cp.GetType() != cp.BODY_STATIC {
		s.cp.RemoveBody(b.cp)
	}
	b.space = nil
	for i, x := range s.bodies {
		if x == b {
			s.bodies = append(s.bodies[:i:i], s.bodies[i+1:]...)
			break
		}
	}
	for i, x := range s.boxes {
		if x == b {
			s.boxes = append(s.boxes[:i:i], s.boxes[i+1:]...)
			break
		}
	}
}

// Step advances the space by dt seconds: ground friction on pushable boxes, then cp's step.
func (s *Space) Step(dt float64) {
	for _, b := range s.boxes {
		groundFriction(b, 0.5, dt)
	}
	s.cp.Step(dt)
}

// groundFriction slows a sliding body by Coulomb friction mu·g against the floor, on its
// linear and angular velocity, without reversing them.
func groundFriction(b *Body, mu, dt float64) {
	dv := mu * Gravity * dt
	vx, vy := b.Velocity()
	if sp := math.Hypot(vx, vy); sp <= dv {
		b.SetVelocity(0, 0)
	} else {
		k := (sp - dv) / sp
		b.SetVelocity(vx*k, vy*k)
	}
	w := b.AngularVelocity()
	// Angular friction of a sliding plate ~ linear friction over its radius of gyration; use
	// a fixed 0.2 m so boxes stop spinning in about the time they stop sliding.
	dw := dv / 0.2
	if math.Abs(w) <= dw {
		b.SetAngularVelocity(0)
	} else {
		b.SetAngularVelocity(w - math.Copysign(dw, w))
	}
}
