package plugins

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// ParamSpec declares one number of the data model: a parameter of a drive model or a sensor
// kind (its name as it appears in Drive.Params or SensorMount.Params), or a field of a body,
// a contract or a track (ranges.go). Unit, Default and the accepted range [Min, Max] are
// stated here once; validation, the runtime, the editor, the window and docs/PLUGINS.md
// read them from these tables.
type ParamSpec struct {
	Name    string
	Unit    string
	Default float64
	Min     float64
	Max     float64
	// Integer is set for counts and pixel sizes.
	Integer bool
	// ZeroOff is set when 0 is accepted too, below Min (it means off, or a default rule).
	ZeroOff bool
	Doc     string
}

// check reports whether x is acceptable for p. NaN is outside every range.
func (p ParamSpec) check(x float64) error {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return fmt.Errorf("%s is not a finite number", fmtNum(x))
	}
	if !(x >= p.Min && x <= p.Max) && !(p.ZeroOff && x == 0) {
		return fmt.Errorf("%s is outside the range %s", fmtNum(x), p.Range())
	}
	if p.Integer && x != math.Trunc(x) {
		return fmt.Errorf("%s is not a whole number", fmtNum(x))
	}
	return nil
}

// Range returns "min..max unit" ("0 or min..max unit" with ZeroOff), as messages and docs
// write a range.
func (p ParamSpec) Range() string {
	r := fmtNum(p.Min) + ".." + fmtNum(p.Max) + unitSuffix(p.Unit)
	if p.ZeroOff {
		r = "0 or " + r
	}
	return r
}

// Accepts reports whether x is a value the parameter takes.
func (p ParamSpec) Accepts(x float64) bool { return p.check(x) == nil }

func unitSuffix(u string) string {
	if u == "" {
		return ""
	}
	return " " + u
}

// Order is a rule between two parameters of one table: Lo ≤ Hi, or Lo < Hi when Strict
// (a camera's near clip below its far clip; a drone's minAltitude ≤ startAltitude).
type Order struct {
	Lo, Hi string
	Strict bool
}

func (o Order) String() string {
	if o.Strict {
		return o.Lo + " < " + o.Hi
	}
	return o.Lo + " ≤ " + o.Hi
}

// resolve completes given with the defaults of specs and checks every given value and then
// the orders, reporting each problem at path.<name> (orders at path). owner names the model
// or kind in messages. The result holds every parameter of specs.
func (ps *Problems) resolve(path, owner string, specs []ParamSpec, orders []Order, given map[string]float64) map[string]float64 {
	out := make(map[string]float64, len(specs))
	for _, s := range specs {
		out[s.Name] = s.Default
	}
	n := len(*ps)
	for _, name := range sortedKeys(given) {
		spec, ok := FindSpec(specs, name)
		if !ok {
			known := "it takes none"
			if len(specs) > 0 {
				known = "known: " + strings.Join(specNames(specs), ", ")
			}
			ps.add(path+"."+name, "%s has no parameter %q (%s)", owner, name, known)
			continue
		}
		if err := spec.check(given[name]); err != nil {
			ps.add(path+"."+name, "%v", err)
			continue
		}
		out[name] = given[name]
	}
	if len(*ps) > n {
		return out
	}
	for _, o := range orders {
		lo, hi := out[o.Lo], out[o.Hi]
		if o.Strict && !(lo < hi) || !o.Strict && !(lo <= hi) {
			ps.add(path, "need %s, got %s = %s and %s = %s", o, o.Lo, fmtNum(lo), o.Hi, fmtNum(hi))
		}
	}
	return out
}

// FindSpec returns the spec called name in specs (one of the package's tables).
func FindSpec(specs []ParamSpec, name string) (ParamSpec, bool) {
	for _, s := range specs {
		if s.Name == name {
			return s, true
		}
	}
	return ParamSpec{}, false
}

// mustSpec returns the spec called name; the tables are fixed, so a missing name is a
// programming error.
func mustSpec(specs []ParamSpec, name string) ParamSpec {
	s, ok := FindSpec(specs, name)
	if !ok {
		panic("plugins: no parameter spec " + name)
	}
	return s
}

func specNames(specs []ParamSpec) []string {
	out := make([]string, len(specs))
	for i, s := range specs {
		out[i] = s.Name
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
