package drive

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	"simgui/physics"
)

// Command is what a vehicle is told to do. Normalised fields follow rusim's ControlCommand;
// when Twist is set, the velocity fields (as on /model/<name>/cmd_vel) are used instead.
type Command struct {
	Throttle float64 // -1..1, forward positive
	Steer    float64 // -1..1, positive turns left (counter-clockwise)
	Brake    float64 // 0..1
	Vertical float64 // -1..1, climb positive (flying vehicles)

	// Wheels, when set, gives the left and right motor commands (-1..1) directly, overriding
	// Throttle and Steer on differential drives (rusim's drive.left_pwm_norm/right_pwm_norm).
	Wheels      bool
	Left, Right float64

	// Twist selects velocity targets: Linear in m/s in the body frame (x forward, y left,
	// z up) and Angular in rad/s counter-clockwise.
	Twist   bool
	Linear  [3]float64
	Angular float64
}

// Model is a drive model instance bound to one vehicle.
type Model interface {
	// Update moves the body's velocity toward cmd over dt seconds.
	Update(b *physics.Body, cmd Command, dt float64)
	// Reset clears internal state (steering angle, altitude target, ...).
	Reset()
}

// Flyer is implemented by models whose bodies leave the ground; Altitude is the base's height
// at spawn.
type Flyer interface {
	StartAltitude() float64
}

// Factory builds a model from complete parameters (defaults merged with the descriptor's).
type Factory func(p Params) (Model, error)

// Params are a model's parameters by name.
type Params map[string]float64

type entry struct {
	defaults Params
	docs     map[string]string
	factory  Factory
}

var (
	regMu    sync.RWMutex
	registry = map[string]entry{}
)

// Param documents one parameter of a model.
type Param struct {
	Name    string
	Default float64
	Doc     string // meaning and unit
}

// Register adds a drive model. It panics on an empty or duplicate name.
func Register(name string, params []Param, f Factory) {
	if name == "" || f == nil {
		panic("drive: Register needs a name and a factory")
	}
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := registry[name]; dup {
		panic("drive: duplicate model " + name)
	}
	e := entry{defaults: Params{}, docs: map[string]string{}, factory: f}
	for _, p := range params {
		e.defaults[p.Name] = p.Default
		e.docs[p.Name] = p.Doc
	}
	registry[name] = e
}

// Names returns the registered model names, sorted.
func Names() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	return slices.Sorted(maps.Keys(registry))
}

// Defaults returns a copy of a model's default parameters.
func Defaults(name string) (Params, error) {
	regMu.RLock()
	e, ok := registry[name]
	regMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("unknown drive model %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	return maps.Clone(e.defaults), nil
}

// New builds a model from its name and the parameters that differ from its defaults. An
// unknown parameter or a non-finite value is an error naming it.
func New(name string, overrides map[string]float64) (Model, error) {
	p, err := Defaults(name)
	if err != nil {
		return nil, err
	}
	keys := slices.Sorted(maps.Keys(overrides))
	for _, k := range keys {
		v := overrides[k]
		if _, ok := p[k]; !ok {
			known := slices.Sorted(maps.Keys(p))
			return nil, fmt.Errorf("drive %s: unknown parameter %q (known: %s)", name, k, strings.Join(known, ", "))
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("drive %s: parameter %s is %v", name, k, v)
		}
		p[k] = v
	}
	regMu.RLock()
	f := registry[name].factory
	regMu.RUnlock()
	m, err := f(p)
	if err != nil {
		return nil, fmt.Errorf("drive %s: %w", name, err)
	}
	return m, nil
}

// Doc returns "name: doc (default d)" lines for a model's parameters, sorted.
func Doc(name string) []string {
	regMu.RLock()
	defer regMu.RUnlock()
	e := registry[name]
	var out []string
	for k, d := range e.docs {
		out = append(out, fmt.Sprintf("%s: %s (default %g)", k, d, e.defaults[k]))
	}
	sort.Strings(out)
	return out
}

// approach moves v toward target by at most step.
func approach(v, target, step float64) float64 {
	switch {
	case v < target:
		return math.Min(v+step, target)
	case v > target:
		return math.Max(v-step, target)
	}
	return v
}

func clamp(v, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, v)) }

// lateralGrip removes up to mu·g·dt of the body's sideways speed: tyres resist sliding
// sideways with Coulomb friction, so a vehicle does not drift but can still be shoved.
func lateralGrip(lateral, mu, dt float64) float64 {
	return approach(lateral, 0, mu*physics.Gravity*dt)
}

// positive returns an error when a parameter that must be positive is not.
func positive(p Params, names ...string) error {
	for _, n := range names {
		if p[n] <= 0 {
			return fmt.Errorf("parameter %s must be positive, got %g", n, p[n])
		}
	}
	return nil
}
