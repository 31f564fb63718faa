package trackgen

import (
	"errors"
	"fmt"
	"math"

	"simgui/plugins"
)

// Build makes the layout of one episode of track t: it resolves params against the track's
// schema (coercing strings, adding defaults), runs the track's generator with the seed and
// applies the common spawn and route parameters, then checks the layout's numbers
// (plugins.CheckLayout). Parameter problems come back as
// plugins.ParamErrors, unwrapped, so a scenario loader can print them after its file name.
// The same t, params and seed give the same Layout.
func Build(t *plugins.TrackDescriptor, params map[string]any, seed int64) (*plugins.Layout, error) {
	if t == nil {
		return nil, errors.New("build track: no descriptor")
	}
	resolved, err := plugins.ResolveTrackParams(t, params)
	if err != nil {
		return nil, err
	}
	name := t.Generator
	if name == "" {
		name = plugins.StaticGenerator
	}
	g, err := Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("build %s: %w", t.ID, err)
	}
	p := Params(resolved)
	l, err := g.Generate(t, p, seed)
	if err != nil {
		var pe plugins.ParamErrors
		var one *plugins.ParamError
		if errors.As(err, &pe) || errors.As(err, &one) {
			return nil, err
		}
		return nil, fmt.Errorf("build %s: %s: %w", t.ID, name, err)
	}
	if err := applyCommon(l, p); err != nil {
		return nil, err
	}
	if l.Materials == nil {
		l.Materials = t.Materials // the track's own materials, for renderers
	}
	if err := applyRouteMeta(l, p, seed); err != nil {
		return nil, err
	}
	// The generator's output is checked as a static track's geometry is, so that parameters a
	// track's schema lets through (a corridor 1e300 m long) cannot make a world the physics
	// cannot hold.
	if err := plugins.CheckLayout(l); err != nil {
		return nil, &plugins.ParamError{Prefix: "world.params", Problem: "the parameters make a layout out of range: " + err.Error()}
	}
	return l, nil
}

// applyCommon applies the parameters every track takes to l.
func applyCommon(l *plugins.Layout, p Params) error {
	r := p.Reader()
	var waypoints [][2]float64
	if s := r.String("route.waypoints", ""); p.Has("route.waypoints") {
		wps, err := parseWaypoints(s)
		if err != nil {
			return &plugins.ParamError{Prefix: "world.params", Key: "route.waypoints", Problem: err.Error()}
		}
		waypoints = wps
	}
	route := func() *plugins.Route {
		if l.Route == nil {
			l.Route = &plugins.Route{}
		}
		return l.Route
	}
	if g := r.String("waypoint.graph", ""); waypoints != nil && p.Has("waypoint.graph") && l.Route != nil && l.Route.Graph != "" && g == l.Route.Graph {
		// Waypoints given with waypoint.graph naming the track's own route are rusim's
		// fallback for a scene without that graph (showcase-city.yaml's list crosses a
		// city block): the track has it, so its route stands.
		waypoints = nil
	}
	if waypoints != nil {
		// Waypoints given make a route of their own, as rusim configures one at every reset:
		// reached within 1 m (route.reach_distance_m's default) and not looping unless the
		// parameters say so; the track's reach, loop, goal radius and corridor were for its
		// own waypoints. How agents are driven along a route stays the track's.
		r := &plugins.Route{Waypoints: waypoints}
		if old := l.Route; old != nil {
			r.Controller, r.Graph = old.Controller, old.Graph
		}
		l.Route = r
	}
	if p.Has("route.loop") {
		route().Loop = r.Bool("route.loop", false)
	}
	if p.Has("route.reach_distance_m") {
		route().ReachDistance = r.Float("route.reach_distance_m", 1)
	}

	spawn := func() *plugins.SpawnPoint {
		if len(l.SpawnPoints) == 0 {
			l.SpawnPoints = []plugins.SpawnPoint{{Name: "start"}}
		}
		return &l.SpawnPoints[0]
	}
	switch {
	case p.Has("spawn.position"):
		at, err := parsePoint(r.String("spawn.position", ""))
		if err != nil {
			return &plugins.ParamError{Prefix: "world.params", Key: "spawn.position", Problem: err.Error()}
		}
		s := spawn()
		s.X, s.Y = at[0], at[1]
	case len(waypoints) > 0:
		// rusim: given waypoints, the robot spawns at the first, facing the second.
		s := spawn()
		s.X, s.Y = waypoints[0][0], waypoints[0][1]
		if len(waypoints) > 1 {
			s.YawDeg = headingDeg(waypoints[0], waypoints[1])
		}
	}
	if p.Has("spawn.yaw_deg") {
		spawn().YawDeg = r.Float("spawn.yaw_deg", 0)
	}
	return r.Err()
}

// headingDeg is the yaw in degrees (counter-clockwise from east) looking from a to b.
func headingDeg(a, b [2]float64) float64 {
	return math.Atan2(b[1]-a[1], b[0]-a[0]) * 180 / math.Pi
}
