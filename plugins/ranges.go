package plugins

import (
	"errors"
	"slices"
)

// The ranges of every other number a descriptor or a scenario holds. They keep the physics
// and the renderers in the sizes they work at (a body of 1e-300 m or a pose of 1e308 m makes
// NaN poses) and bound what one plugin can make the runtime allocate.

// WorldExtent bounds positions: every x and y of a track, a spawn pose or a route is within
// ±WorldExtent metres of the origin.
const WorldExtent = 10_000

// MaxFrameSide is the largest width or height of a camera or depth frame, in pixels (a
// 4096×4096 RGB frame is 48 MiB).
const MaxFrameSide = 4096

// MaxWaypoints is the most waypoints a route may have (a descriptor's, a scenario's or a
// reset's route.waypoints): agents follow and measure their route every step, and a reset's
// one string of 150,000 points made each agent's step 20 ms.
const MaxWaypoints = 2000

// MaxLensAngleDeg is how far off the optical axis a camera with lens distortion draws: its
// frame is resampled from a pinhole view, which cannot reach 90°.
const MaxLensAngleDeg = 75

// MaxPolygonPoints is the most points a polygon element's outline may have: it is cut into
// triangles by ear clipping, whose time grows with the cube of the points at worst.
// MaxRoadPoints is the most a road's centre line may have (the generated road systems' longest
// has a few hundred).
const (
	MaxPolygonPoints = 512
	MaxRoadPoints    = 4096
)

// maxShapeDim bounds each dimension of a contract shape that is not a frame.
const maxShapeDim = 100_000

// BodyParams returns the fields of Body with their units, ranges and meanings (a copy).
func BodyParams() []ParamSpec { return slices.Clone(bodyParams) }

// bodyParams are the fields of Body.
var bodyParams = []ParamSpec{
	{Name: "length", Unit: "m", Min: 0.01, Max: 50, Doc: "box: size along the vehicle's x"},
	{Name: "width", Unit: "m", Min: 0.01, Max: 50, Doc: "box: size across"},
	{Name: "radius", Unit: "m", Min: 0.005, Max: 25, Doc: "circle: radius"},
	{Name: "height", Unit: "m", Min: 0, Max: 50, Doc: "for renderers, sensors and flying vehicles' collisions"},
	{Name: "mass", Unit: "kg", Min: 0.01, Max: 10_000, Doc: "in contacts only; the drive's accel sets the acceleration"},
	{Name: "friction", Min: 0, Max: 2, Doc: "contact friction coefficient (0: the default 0.7)"},
	{Name: "linearDamping", Min: 0, Max: 100, Doc: "rusim's; kept and randomized, not applied by simgui's physics"},
	{Name: "angularDamping", Min: 0, Max: 100, Doc: "rusim's; kept and randomized, not applied by simgui's physics"},
}

// contractParams are the numbers of a device contract's sensors and actuators.
var contractParams = []ParamSpec{
	{Name: "rateHz", Unit: "Hz", Min: 0.01, Max: 1000, Doc: "readings per second of simulated time"},
	{Name: "noise.mean", Min: -1000, Max: 1000, Doc: "added to every value, in the sensor's unit (0..255 intensity for cameras)"},
	{Name: "noise.stddev", Min: 0, Max: 1000, Doc: "standard deviation of the Gaussian noise, same unit"},
	{Name: "actuator", Min: -1e6, Max: 1e6, Doc: "an actuator's min and max (min < max)"},
}

// GeometryParams are the ranges of a track's numbers — floor, elements, spawn points, route —
// by kind of number: "x" for positions, "z", "size", "height", "yawDeg", "mass", "friction",
// "reachDistance", "corridorWidth", "goalRadius".
var GeometryParams = []ParamSpec{
	{Name: "x", Unit: "m", Min: -WorldExtent, Max: WorldExtent, Doc: "positions (elements, points, spawn points, waypoints, floor centre)"},
	{Name: "z", Unit: "m", Min: -1000, Max: 1000, Doc: "an element's base above the floor"},
	{Name: "size", Unit: "m", Min: 0, Max: 2 * WorldExtent, Doc: "lengths, widths and radii (positive where the kind needs them)"},
	{Name: "height", Unit: "m", Min: 0, Max: 1000, Doc: "element height: positive for walls, boxes and cylinders; 0 lays a polygon flat on the floor, visual only; roads and markers are flat and visual only whatever it is"},
	{Name: "yawDeg", Unit: "deg", Min: -360, Max: 360, Doc: "element and spawn headings, counter-clockwise from +x"},
	{Name: "mass", Unit: "kg", Min: 0, Max: 10_000, Doc: "a movable box's mass (positive)"},
	{Name: "friction", Min: 0, Max: 2, Doc: "contact friction coefficient (0: the default 0.7)"},
	{Name: "reachDistance", Unit: "m", Min: 0, Max: 1000, Doc: "route: how close counts as reaching a waypoint"},
	{Name: "corridorWidth", Unit: "m", Min: 0, Max: 1000, Doc: "route: farther than half of it from the route is out of bounds (0: unbounded)"},
	{Name: "goalRadius", Unit: "m", Min: 0, Max: 1000, Doc: "route: how close to the last waypoint ends the episode (0: reachDistance)"},
}

// SpawnPoseParams are the ranges of a spawn pose (a scenario's spawnPose, a track's spawn
// point), which app/scenario and app/world check.
var SpawnPoseParams = []ParamSpec{
	{Name: "x", Unit: "m", Min: -WorldExtent, Max: WorldExtent, Doc: "east"},
	{Name: "y", Unit: "m", Min: -WorldExtent, Max: WorldExtent, Doc: "north"},
	{Name: "z", Unit: "m", Min: 0, Max: 1000, Doc: "altitude of the body's base (flying vehicles)"},
	{Name: "yawDeg", Unit: "deg", Min: -360, Max: 360, Doc: "heading, counter-clockwise from east"},
}

// CheckParam checks x against the spec called name in specs (one of the exported tables) and
// returns an error naming the value and the range.
func CheckParam(specs []ParamSpec, name string, x float64) error {
	return mustSpec(specs, name).check(x)
}

// body checks b's fields, reporting at path.<field>.
func (ps *Problems) body(path string, b *Body) {
	switch b.Shape {
	case "box":
		ps.num(path+".length", bodyParams, "length", b.Length)
		ps.num(path+".width", bodyParams, "width", b.Width)
	case "circle":
		ps.num(path+".radius", bodyParams, "radius", b.Radius)
	default:
		ps.add(path+".shape", "%q is not box or circle", b.Shape)
	}
	for _, f := range []struct {
		name string
		x    float64
	}{{"height", b.Height}, {"mass", b.Mass}, {"friction", b.Friction}, {"linearDamping", b.LinearDamping}, {"angularDamping", b.AngularDamping}} {
		ps.num(path+"."+f.name, bodyParams, f.name, f.x)
	}
}

// Check checks a body as ValidateVehicle does: a box or a circle with every field in range.
// physics adds only bodies that pass it.
func (b *Body) Check() error {
	var ps Problems
	ps.body("body", b)
	return ps.Err()
}

// num checks x against the spec called name, reporting at path.
func (ps *Problems) num(path string, specs []ParamSpec, name string, x float64) bool {
	if err := mustSpec(specs, name).check(x); err != nil {
		ps.add(path, "%v", err)
		return false
	}
	return true
}

// point checks a world position.
func (ps *Problems) point(path string, x, y float64) {
	ps.num(path+".x", GeometryParams, "x", x)
	ps.num(path+".y", GeometryParams, "x", y)
}

// points checks a polyline's points, reporting the first bad one.
func (ps *Problems) points(path string, pts [][2]float64) {
	for i, p := range pts {
		var one Problems
		one.point(index(path, i), p[0], p[1])
		if len(one) > 0 {
			*ps = append(*ps, one[0])
			return
		}
	}
}

// layout checks a track's geometry: floor (as much of it as use takes), elements, spawn
// points, route.
func (ps *Problems) layout(path string, floor *Floor, use FloorUse, elements []Element, spawns []SpawnPoint, route *Route) {
	if f := floor; f != nil && use != FloorNone {
		p := path + ".floor"
		// Each side named for its field, so that an editor frames the one at fault.
		for _, side := range []struct {
			name string
			v    float64
		}{{"length", f.Length}, {"width", f.Width}} {
			switch {
			case use == FloorLook:
			case !(side.v > 0):
				ps.add(p+"."+side.name, "%s is not positive", fmtNum(side.v))
			default:
				ps.num(p+"."+side.name, GeometryParams, "size", side.v)
			}
		}
		if use == FloorWhole {
			ps.point(p, f.X, f.Y)
		}
		if f.Color != "" && !colorPattern.MatchString(f.Color) {
			ps.add(p+".color", "%q is not #rrggbb", f.Color)
		}
	}
	for i, e := range elements {
		p := index(path+".elements", i)
		for _, pr := range elementProblems(e) {
			at, msg := p, pr.Message
			if pr.Path != "" {
				at += "." + pr.Path
			}
			if e.Name != "" {
				msg = e.Name + ": " + msg
			}
			ps.add(at, "%s", msg)
		}
	}
	for i, s := range spawns {
		p := index(path+".spawnPoints", i)
		ps.point(p, s.X, s.Y)
		ps.num(p+".yawDeg", GeometryParams, "yawDeg", s.YawDeg)
	}
	if r := route; r != nil {
		if len(r.Waypoints) > MaxWaypoints {
			ps.add(path+".route.waypoints", "%d waypoints; a route has at most %d", len(r.Waypoints), MaxWaypoints)
		}
		ps.points(path+".route.waypoints", r.Waypoints)
		ps.num(path+".route.reachDistance", GeometryParams, "reachDistance", r.ReachDistance)
		ps.num(path+".route.corridorWidth", GeometryParams, "corridorWidth", r.CorridorWidth)
		ps.num(path+".route.goalRadius", GeometryParams, "goalRadius", r.GoalRadius)
	}
}

// CheckLayout checks a layout a generator made as ValidateTrack checks a static track's
// geometry, so that track parameters cannot make a world the physics cannot hold (a corridor
// 1e300 m long). The error is a *ValidationError with paths "layout.<field>".
func CheckLayout(l *Layout) error {
	if l == nil {
		return errors.New("no layout")
	}
	var ps Problems
	ps.layout("layout", &l.Floor, FloorWhole, l.Elements, l.SpawnPoints, l.Route)
	return ps.Err()
}

// elementNumbers checks the numbers every element kind has, and its points: a problem for
// each number out of range (paths relative to the element), the first bad point.
func elementNumbers(e Element) Problems {
	var ps Problems
	for _, f := range []struct {
		field, spec string
		x           float64
	}{
		{"x", "x", e.X}, {"y", "x", e.Y}, {"z", "z", e.Z}, {"length", "size", e.Length}, {"width", "size", e.Width},
		{"height", "height", e.Height}, {"radius", "size", e.Radius}, {"yawDeg", "yawDeg", e.YawDeg},
		{"mass", "mass", e.Mass}, {"friction", "friction", e.Friction},
	} {
		if err := mustSpec(GeometryParams, f.spec).check(f.x); err != nil {
			ps.add(f.field, "%s", err.Error())
		}
	}
	ps.points("points", e.Points)
	return ps
}
