package physics

import (
	"fmt"
	"math"
	"sync"

	"github.com/jakecoffman/cp/v2"

	"simgui/plugins"
)

// Gravity is standard gravity in m/s², used for ground friction.
const Gravity = 9.80665

// Mode says how a Space moves its bodies.
type Mode uint8

// Physics modes.
const (
	// Dynamic is rigid-body dynamics (cp/v2): masses, impulses, friction, pushing.
	Dynamic Mode = iota
	// Kinematic moves bodies exactly as their velocities say and resolves contacts
	// geometrically (see the package doc).
	Kinematic
)

func (m Mode) String() string {
	switch m {
	case Dynamic:
		return "dynamic"
	case Kinematic:
		return "kinematic"
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// ParseMode returns the mode called name ("dynamic" or "kinematic"; "" is dynamic).
func ParseMode(name string) (Mode, error) {
	switch name {
	case "", "dynamic":
		return Dynamic, nil
	case "kinematic":
		return Kinematic, nil
	}
	return 0, fmt.Errorf("physics mode %q is not dynamic or kinematic", name)
}

// Options configures a Space. The zero value is usable.
type Options struct {
	// Mode is the physics mode; the zero value is Dynamic.
	Mode Mode
	// Iterations of the contact solver per step; 0 means 10 (cp's default). Dynamic mode only.
	Iterations int
	// VehicleCollisions, when false, lets vehicles pass through each other (they still collide
	// with the track and with boxes).
	VehicleCollisions bool
}

// Space is a physics world. See the package doc for determinism and concurrency.
type Space struct {
	opts   Options
	nextID uint32
	// bodies in insertion (ID) order: the order every iteration uses.
	bodies []*Body
	boxes  []*Body

	// Dynamic mode.
	cp       *cp.Space
	contacts contactLog
	thinnest [2]float64 // the smallest half thickness of a static and of a moving shape (0 before any), m

	// Kinematic mode.
	kin *kinematic
}

// vehicleGroup is the cp group shared by all vehicles when vehicle collisions are off.
const vehicleGroup = 1

// cpBodies serializes cp's body constructors: cp numbers bodies from one global counter
// (cp/v2 body.go), so worlds built or reset on different goroutines at once would race on it.
// The number is only used to print a body; each space's own state is untouched.
var cpBodies sync.Mutex

// newCP runs a cp constructor that makes bodies.
func newCP[T any](f func() T) T {
	cpBodies.Lock()
	defer cpBodies.Unlock()
	return f()
}

// Release drops everything the space holds at once; neither the space nor its bodies may be
// used afterwards. cp keeps object pools inside each space (sync.Pools, which the runtime
// tracks until the second collection after their last use, and with them the whole space), so
// a world reset again and again would keep its old spaces alive, and the heap, its collection
// target and the number of spaces kept grew together without bound.
func (s *Space) Release() {
	if s.cp != nil {
		*s.cp = cp.Space{}
		s.cp = nil
	}
	s.kin = nil // a kinematic space keeps no pools, but its lists go with it
	s.bodies, s.boxes = nil, nil
	s.contacts = contactLog{}
}

// NewSpace returns an empty space.
func NewSpace(opts Options) *Space {
	s := &Space{opts: opts}
	if opts.Mode == Kinematic {
		s.kin = newKinematic(s)
		return s
	}
	s.cp = newCP(cp.NewSpace)
	// cp's defaults suit pixel units; in metres a 0.1 slop would let a car sink 10 cm into a wall.
	s.cp.SetCollisionSlop(0.001)
	if opts.Iterations > 0 {
		s.cp.Iterations = uint(opts.Iterations)
	}
	s.contacts.install(s)
	return s
}

// Mode returns the space's physics mode.
func (s *Space) Mode() Mode { return s.opts.Mode }

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

func (s *Space) newBody(name string, kind Kind) *Body {
	s.nextID++
	b := &Body{ID: s.nextID, Name: name, Kind: kind, space: s, k: -1}
	s.bodies = append(s.bodies, b)
	return b
}

// AddElement adds a track element. Elements with no height (roads, markers, lines) are visual
// only and return nil. Movable boxes become bodies that slide with ground friction.
func (s *Space) AddElement(e plugins.Element) (*Body, error) {
	eb, ok, err := elementShapes(e)
	if err != nil || !ok {
		return nil, err
	}
	b := s.newBody(e.Name, eb.kind)
	b.Base, b.Height = e.Z, e.Height
	if s.kin != nil {
		s.kin.addBody(b, eb.pose, eb.mass, eb.shapes)
	} else {
		s.addCP(b, eb.pose, eb.mass, eb.friction, eb.shapes, false)
	}
	if b.Kind == KindBox {
		s.boxes = append(s.boxes, b)
	}
	return b, nil
}

// VehicleSpec describes a vehicle body to add.
type VehicleSpec struct {
	Name   string
	Body   plugins.Body
	Pose   Pose
	Base   float64 // initial altitude of the body's base
	Flying bool
}

// AddVehicle adds a vehicle body.
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
	b := s.newBody(v.Name, KindVehicle)
	b.Base, b.Height, b.Flying = v.Base, bd.Height, v.Flying
	shape := []shapeSpec{vehicleShape(bd)}
	if s.kin != nil {
		s.kin.addBody(b, v.Pose, bd.Mass, shape)
		return b, nil
	}
	friction := bd.Friction
	if friction == 0 {
		friction = defaultFriction
	}
	s.addCP(b, v.Pose, bd.Mass, friction, shape, !s.opts.VehicleCollisions)
	return b, nil
}

// Remove takes a body out of the space. Contacts it had end (reported by the next Contacts).
// The body keeps its last state for readers that still hold it.
func (s *Space) Remove(b *Body) {
	if b == nil || b.space != s {
		return
	}
	if s.kin != nil {
		s.kin.remove(b)
	} else {
		for _, sh := range b.shapes {
			s.cp.RemoveShape(sh)
		}
		if b.cp.GetType() != cp.BODY_STATIC {
			s.cp.RemoveBody(b.cp)
		}
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

// EachVehicle calls fn for every vehicle. In a kinematic fleet large enough to be cut into
// sides (see the package doc) the sides' vehicles go on several cores at once, each on the
// core that moves them next; otherwise they go in ID order on the caller. fn may change only b
// and what belongs to b alone (its drive's state): then any order gives the same state.
func (s *Space) EachVehicle(fn func(b *Body)) {
	if k := s.kin; k != nil && k.splitValid() {
		k.team.run(kinSides, func(side int) {
			for _, i := range k.split.all[side] {
				if m := &k.movers[i]; m.vehicle {
					fn(m.body)
				}
			}
		})
		return
	}
	for _, b := range s.bodies {
		if b.Kind == KindVehicle {
			fn(b)
		}
	}
}

// Step advances the space by dt seconds: ground friction on pushable boxes, then the mode's
// step (cp's, or the kinematic one).
func (s *Space) Step(dt float64) {
	for _, b := range s.boxes {
		groundFriction(b, 0.5, dt)
	}
	if s.kin != nil {
		s.kin.step(dt)
		return
	}
	n := s.cpSubsteps(dt)
	for range n {
		s.cp.Step(dt / float64(n))
	}
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
