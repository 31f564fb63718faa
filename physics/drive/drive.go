package drive

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"simgui/physics"
	"simgui/plugins"
)

// Command is what a vehicle is told to do. Normalised fields follow rusim's ControlCommand;
// when Twist is set, the velocity fields (as on /model/<name>/cmd_vel) are used instead.
//
// The fields a drive reads first (the two switches, then the normalised commands) lead, so
// that with the vehicle's Model they share a cache line.
type Command struct {
	// Twist selects velocity targets: Linear in m/s in the body frame (x forward, y left,
	// z up) and Angular in rad/s counter-clockwise.
	Twist bool
	// Wheels, when set, gives the left and right motor commands (-1..1) directly, overriding
	// Throttle and Steer on differential drives (rusim's drive.left_pwm_norm/right_pwm_norm).
	Wheels bool

	Throttle float64 // -1..1, forward positive
	Steer    float64 // -1..1, positive turns left (counter-clockwise)
	Brake    float64 // 0..1
	Vertical float64 // -1..1, climb positive (flying vehicles)

	Left, Right float64 // with Wheels

	Linear  [3]float64 // with Twist
	Angular float64
}

// Model is a drive model instance bound to one vehicle.
type Model interface {
	// Update moves the body's velocity toward cmd over dt seconds. It does not keep or
	// change cmd (a pointer because the world updates thousands of vehicles a step).
	Update(b *physics.Body, cmd *Command, dt float64)
	// Reset clears internal state (steering angle, altitude target, ...).
	Reset()
}

// Flyer is implemented by models whose bodies leave the ground: StartAltitude is the base's
// height at spawn, ClimbRate how fast the base rises (m/s, negative descending). Land tells
// the model that its body came down onto something (the world set its base on a roof it was
// over): it stops descending.
type Flyer interface {
	StartAltitude() float64
	ClimbRate() float64
	Land()
}

// Factory builds a model from complete parameters: every parameter of the model's table in
// plugins (plugins.LookupDriveModel), each in its range, the table's orders holding.
type Factory func(p Params) (Model, error)

// Params are a model's parameters by name.
type Params map[string]float64

var (
	regMu    sync.RWMutex
	registry = map[string]Factory{}
)

// Register adds the implementation of the drive model called name. The model's parameters —
// names, units, defaults, ranges — are declared once, in plugins' drive table, which
// descriptors are validated against; Register panics when that table has no such model, on
// an empty name, a nil factory or a duplicate.
func Register(name string, f Factory) {
	if name == "" || f == nil {
		panic("drive: Register needs a name and a factory")
	}
	if _, err := plugins.LookupDriveModel(name); err != nil {
		panic("drive: " + err.Error() + ": declare its parameters in plugins first")
	}
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := registry[name]; dup {
		panic("drive: duplicate model " + name)
	}
	registry[name] = f
}

// Names returns the registered model names, sorted.
func Names() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	return slices.Sorted(maps.Keys(registry))
}

// New builds a model from its name and the parameters that differ from its defaults, checked
// by plugins.ResolveDriveParams — the check plugin validation applies — so that an unknown
// parameter, a value out of range or a broken order is an error naming it.
func New(name string, overrides map[string]float64) (Model, error) {
	regMu.RLock()
	f, ok := registry[name]
	regMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("unknown drive model %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	p, err := plugins.ResolveDriveParams(name, overrides)
	if err != nil {
		return nil, fmt.Errorf("drive %s: %w", name, err)
	}
	m, err := f(p)
	if err != nil {
		return nil, fmt.Errorf("drive %s: %w", name, err)
	}
	if l := newLatency(p["latency"]); l != nil {
		d := &delayed{Model: m, l: l}
		if f, ok := m.(Flyer); ok {
			return delayedFlyer{d, f}, nil
		}
		return d, nil
	}
	return m, nil
}

// delayed gives a model the latency every model's table has: commands reach it that much
// later. Kept out of the models, so that one without latency (the usual) carries nothing for
// it: a fleet's drives are read every step.
type delayed struct {
	Model
	l *latency
}

func (d *delayed) Update(b *physics.Body, cmd *Command, dt float64) {
	d.Model.Update(b, d.l.delay(cmd, dt), dt)
}

func (d *delayed) Reset() {
	d.l.reset()
	d.Model.Reset()
}

// delayedFlyer is a delayed model that flies.
type delayedFlyer struct {
	*delayed
	Flyer
}

// approach moves v toward target by at most step.
func approach(v, target, step float64) float64 {
	// Compared, not min and max: their NaN and signed-zero fixups are a chain the usual
	// step need not wait for. v+step is the larger of the two unless NaN, as min has it;
	// reaching the target exactly returns the target, as min and max do but for the sign
	// of a zero target reached by a step from the other side.
	switch {
	case v < target:
		if u := v + step; u < target || u != u {
			return u
		}
		return target
	case v > target:
		if u := v - step; u > target || u != u {
			return u
		}
		return target
	}
	return v
}

// clamp bounds v to [lo, hi]. The builtins min and max treat NaN and signed zeros as math.Min
// and math.Max do, and compile inline: drive models run for every vehicle at every step. A v
// strictly inside is what they return, and is returned at once: their careful sequence is a
// chain of a dozen dependent instructions, which the usual command need not wait for.
func clamp(v, lo, hi float64) float64 {
	if lo < v && v < hi {
		return v
	}
	return max(lo, min(hi, v))
}

// braking returns the command's brake, clamped to 0..1, and whether it brakes at all:
// clamp(cmd.Brake, 0, 1) > 0 without clamping the usual zero (a NaN brake does not brake,
// as there), which every vehicle's drive asks at every step.
func braking(cmd *Command) (float64, bool) {
	if cmd.Brake > 0 {
		return min(cmd.Brake, 1), true
	}
	return 0, false
}

// lateralGrip removes up to mu·g·dt of the body's sideways speed: tyres resist sliding
// sideways with Coulomb friction, so a vehicle does not drift but can still be shoved.
func lateralGrip(lateral, mu, dt float64) float64 {
	return approach(lateral, 0, mu*physics.Gravity*dt)
}
