package trackgen

import (
	"fmt"
	"math"

	"simgui/plugins"
)

func init() { Register("cardboard_corridor", Func(corridor), plugins.FloorNone) }

// Cardboard geometry shared by the corridor and the maze (rusim's cardboard tracks).
const (
	cardboardThickness = 0.02 // m
	cardboardFriction  = 0.9
	cardboardColor     = "#b58b5a"
)

// floorColors are the colours drawn for each floor_texture.
var floorColors = map[string]string{
	"plywood": "#c9a56b",
	"carpet":  "#6d6f7a",
	"tile":    "#d9d6cf",
}

// Corridor proportions: leg A (north) gets 55 % of the centreline length, leg B (east) 45 %,
// which at length 2.0 is rusim's corridor (A from y = −1.10 to 0, B to x = 0.90). Each leg must
// leave this much free floor past the corner: room to spawn in A, to arrive in B.
const (
	corridorShareA   = 0.55
	corridorMinFreeA = 0.30 // m
	corridorMinFreeB = 0.15 // m
	corridorWallH    = 0.25 // m
	corridorSpawnIn  = 0.25 // m from leg A's end wall
	corridorMarker   = 0.10 // m, side of the ArUco marker
)

// corridor builds rusim's closed L corridor: leg A along +y from its end wall at y = −a to the
// corner at the origin, leg B along +x from the corner to its end wall at x = b, inner width w.
func corridor(td *plugins.TrackDescriptor, p Params, _ int64) (*plugins.Layout, error) {
	r := p.Reader()
	length := r.Float("length", 2.0)
	w := r.Float("width", 0.6)
	texture := r.String("floor_texture", "plywood")
	if err := r.Err(); err != nil {
		return nil, err
	}
	a, b, hw := corridorShareA*length, (1-corridorShareA)*length, w/2
	if a-hw < corridorMinFreeA || b-hw < corridorMinFreeB {
		need := math.Max((corridorMinFreeA+hw)/corridorShareA, (corridorMinFreeB+hw)/(1-corridorShareA))
		return nil, &plugins.ParamError{Prefix: "world.params", Key: "length", Problem: fmt.Sprintf(
			"%s is too short for width %s (leg A %s m, leg B %s m); use a length of at least %s",
			num(length), num(w), num(a), num(b), num(math.Ceil(need*100)/100))}
	}
	const t, h = cardboardThickness, corridorWallH
	wall := func(name string, x, y, length, yaw float64) plugins.Element {
		return plugins.Element{Kind: plugins.ElementWall, Name: name, X: x, Y: y, Length: length, Width: t,
			Height: h, YawDeg: yaw, Color: cardboardColor, Friction: cardboardFriction}
	}
	// Wall centres sit half a thickness outside the inner faces; walls run over the corner
	// squares so the box is closed.
	elements := []plugins.Element{
		wall("wall.a.west", -hw-t/2, (hw-a)/2, a+hw+2*t, 90),
		wall("wall.a.east", hw+t/2, (-a-t-hw)/2, a+t-hw, 90),
		wall("wall.b.north", (b-hw)/2, hw+t/2, b+hw+2*t, 0),
		wall("wall.b.south", (hw+b+t)/2, -hw-t/2, b+t-hw, 0),
		wall("wall.a.end", 0, -a-t/2, w+2*t, 0),
		wall("wall.b.end", b+t/2, 0, w+2*t, 90),
		{Kind: plugins.ElementMarker, Name: "aruco.0", X: b - 0.001, Y: 0, Z: h / 2,
			Length: math.Min(corridorMarker, 0.6*w), YawDeg: 180, Color: "#000000", ArucoID: new(0)},
	}
	const margin = 0.3
	minX, maxX := -hw-t-margin, b+t+margin
	minY, maxY := -a-t-margin, hw+t+margin
	return &plugins.Layout{
		Floor: plugins.Floor{X: (minX + maxX) / 2, Y: (minY + maxY) / 2, Length: maxX - minX, Width: maxY - minY,
			Texture: texture, Color: floorColors[texture]},
		Elements:    withOwn(elements, td),
		SpawnPoints: []plugins.SpawnPoint{{Name: "start", X: 0, Y: -a + corridorSpawnIn, YawDeg: 90}},
		Route: &plugins.Route{
			Waypoints:     [][2]float64{{0, -a / 2}, {0, -w / 4}, {0.3 * w, 0}, {b - hw, 0}},
			ReachDistance: 0.25,
		},
	}, nil
}

func num(x float64) string { return fmt.Sprint(math.Round(x*1000) / 1000) }
