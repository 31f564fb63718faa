package trackgen

import (
	"fmt"
	"math"
	"math/rand/v2"

	"simgui/plugins"
)

// obstacleStream is the PCG stream of obstacle placement, apart from the generators' streams.
const obstacleStream = 0x6f627374 // "obst"

// Obstacle geometry: a static box whose side is a quarter of the corridor width within these
// bounds, kept this far from the route's start and goal.
const (
	obstacleMinSide  = 0.1 // m
	obstacleMaxSide  = 0.5 // m
	obstacleClearEnd = 1.0 // m along the route from the spawn and from the goal
	obstacleColor    = "#e0702a"
	// defaultCorridor is the corridor width obstacles are placed in when the scenario gives
	// none: rusim's A-to-B environment's default.
	defaultCorridor = 1.2 // m
)

// applyRouteMeta applies the route metadata parameters every track takes: corridor.width_m
// and goal.radius_m onto the route, controller.profile and waypoint.graph as the route's
// controller, and obstacle.count boxes placed along the route from seed.
func applyRouteMeta(l *plugins.Layout, p Params, seed int64) error {
	r := p.Reader()
	route := func() *plugins.Route {
		if l.Route == nil {
			l.Route = &plugins.Route{}
		}
		return l.Route
	}
	if p.Has("corridor.width_m") {
		route().CorridorWidth = r.Float("corridor.width_m", 0)
	}
	if p.Has("goal.radius_m") {
		route().GoalRadius = r.Float("goal.radius_m", 0)
	}
	if p.Has("controller.profile") {
		route().Controller = r.String("controller.profile", "")
	}
	if p.Has("waypoint.graph") {
		route().Graph = r.String("waypoint.graph", "")
	}
	n := r.Int("obstacle.count", 0)
	if err := r.Err(); err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	if l.Route == nil || len(l.Route.Waypoints) == 0 {
		return &plugins.ParamError{Prefix: "world.params", Key: "obstacle.count",
			Problem: fmt.Sprintf("%d obstacles need a route to be placed along: give route.waypoints", n)}
	}
	obs, err := placeObstacles(l, n, seed)
	if err != nil {
		return &plugins.ParamError{Prefix: "world.params", Key: "obstacle.count", Problem: err.Error()}
	}
	l.Elements = append(l.Elements, obs...)
	return nil
}

// placeObstacles spreads n boxes along the route from the spawn point through every waypoint:
// box i near arc length (i+1)/(n+1) of the part that leaves obstacleClearEnd free at both ends,
// moved along and across the route by seeded amounts that keep it inside the corridor.
func placeObstacles(l *plugins.Layout, n int, seed int64) ([]plugins.Element, error) {
	line := l.Route.Waypoints
	if len(l.SpawnPoints) > 0 {
		sp := l.SpawnPoints[0]
		line = append([][2]float64{{sp.X, sp.Y}}, line...)
	}
	cum := make([]float64, len(line))
	for i := 1; i < len(line); i++ {
		cum[i] = cum[i-1] + math.Hypot(line[i][0]-line[i-1][0], line[i][1]-line[i-1][1])
	}
	total := cum[len(cum)-1]
	usable := total - 2*obstacleClearEnd
	if usable <= 0 {
		return nil, fmt.Errorf("the route is %.2f m long: too short for obstacles %g m clear of both ends", total, obstacleClearEnd)
	}
	w := l.Route.CorridorWidth
	if w <= 0 {
		w = defaultCorridor
	}
	side := math.Max(obstacleMinSide, math.Min(obstacleMaxSide, w/4))
	rng := rand.New(rand.NewPCG(uint64(seed), obstacleStream))
	gap := usable / float64(n+1)
	out := make([]plugins.Element, 0, n)
	for i := range n {
		s := obstacleClearEnd + gap*(float64(i+1)+(rng.Float64()-0.5)*0.5)
		k := 1
		for k < len(cum)-1 && cum[k] < s {
			k++
		}
		a, b := line[k-1], line[k]
		seg := cum[k] - cum[k-1]
		t := 0.0
		if seg > 0 {
			t = (s - cum[k-1]) / seg
		}
		dx, dy := b[0]-a[0], b[1]-a[1]
		yaw := math.Atan2(dy, dx)
		lateral := (rng.Float64()*2 - 1) * (w/2 - side/2) * 0.8
		out = append(out, plugins.Element{Kind: plugins.ElementBox, Name: fmt.Sprintf("obstacle.%d", i),
			X: a[0] + t*dx - lateral*math.Sin(yaw), Y: a[1] + t*dy + lateral*math.Cos(yaw),
			Length: side, Width: side, Height: side, YawDeg: yaw * 180 / math.Pi, Color: obstacleColor})
	}
	return out, nil
}
