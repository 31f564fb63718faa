package trackgen

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"simgui/plugins"
)

// Params are a track's parameters after plugins.ResolveTrackParams: coerced, validated and
// completed with the schema's defaults. Numbers are float64.
type Params map[string]any

// Has reports whether key is set.
func (p Params) Has(key string) bool {
	_, ok := p[key]
	return ok
}

// Reader returns a reader that collects the first conversion error, so a generator can read
// several values and check once.
func (p Params) Reader() *Reader { return &Reader{p: p} }

// Reader reads typed values from Params. Absent keys give the default passed in; a value of the
// wrong kind (possible only when a track's schema does not declare types) records an error
// naming the key, and later reads keep returning defaults.
type Reader struct {
	p   Params
	err error
}

// Err returns the first conversion error, or nil.
func (r *Reader) Err() error { return r.err }

func (r *Reader) fail(key string, v any, want string) {
	if r.err == nil {
		r.err = &plugins.ParamError{Prefix: "world.params", Key: key, Problem: fmt.Sprintf("%v is not %s", v, want)}
	}
}

// Float returns key as a number.
func (r *Reader) Float(key string, def float64) float64 {
	v, ok := r.p[key]
	if !ok {
		return def
	}
	var f float64
	ok = true
	switch x := v.(type) {
	case float64:
		f = x
	case int:
		f = float64(x)
	case int64:
		f = float64(x)
	case string:
		var err error
		f, err = strconv.ParseFloat(strings.TrimSpace(x), 64)
		ok = err == nil
	default:
		ok = false
	}
	if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
		r.fail(key, v, "a finite number")
		return def
	}
	return f
}

// Int returns key as a whole number.
func (r *Reader) Int(key string, def int) int {
	if _, ok := r.p[key]; !ok {
		return def
	}
	f := r.Float(key, float64(def))
	if f != float64(int64(f)) {
		r.fail(key, r.p[key], "a whole number")
		return def
	}
	return int(f)
}

// Bool returns key as a boolean.
func (r *Reader) Bool(key string, def bool) bool {
	v, ok := r.p[key]
	if !ok {
		return def
	}
	switch x := v.(type) {
	case bool:
		return x
	case string:
		if b, err := strconv.ParseBool(strings.TrimSpace(x)); err == nil {
			return b
		}
	}
	r.fail(key, v, "true or false")
	return def
}

// String returns key as a string.
func (r *Reader) String(key string, def string) string {
	v, ok := r.p[key]
	if !ok {
		return def
	}
	if s, ok := v.(string); ok {
		return s
	}
	r.fail(key, v, "a string")
	return def
}

// parsePoint parses "x,y" or "x,y,z" (world frame; z is dropped).
func parsePoint(s string) ([2]float64, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 2 && len(parts) != 3 {
		return [2]float64{}, fmt.Errorf("%q is not x,y or x,y,z", s)
	}
	var p [2]float64
	for i := range 2 {
		f, err := strconv.ParseFloat(strings.TrimSpace(parts[i]), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return [2]float64{}, fmt.Errorf("%q is not x,y or x,y,z with finite numbers", s)
		}
		p[i] = f
	}
	return p, nil
}

// parseWaypoints parses "x,y;x,y;..." (each point may carry a z, dropped; a trailing ";" is
// allowed).
func parseWaypoints(s string) ([][2]float64, error) {
	if n := strings.Count(strings.TrimSuffix(strings.TrimSpace(s), ";"), ";") + 1; n > plugins.MaxWaypoints {
		return nil, fmt.Errorf("%d waypoints; a route has at most %d", n, plugins.MaxWaypoints)
	}
	var out [][2]float64
	for part := range strings.SplitSeq(strings.TrimSuffix(strings.TrimSpace(s), ";"), ";") {
		p, err := parsePoint(part)
		if err != nil {
			return nil, fmt.Errorf("waypoint %d: %w", len(out)+1, err)
		}
		out = append(out, p)
	}
	return out, nil
}
