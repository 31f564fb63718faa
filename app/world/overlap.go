package world

import (
	"fmt"
	"math"

	"simgui/plugins"
)

// SpawnOverlapError is why a world could not be built: two agents' spawn poses put their
// bodies inside each other. Robots started in one another are never pushed apart by
// kinematic physics, and thousands stacked on one spot made every step compare every pair
// of them.
type SpawnOverlapError struct {
	A, B     string  // the agents' names
	X, Y     float64 // B's spawn position (world frame, m)
	Distance float64 // between the two, m
}

func (e *SpawnOverlapError) Error() string {
	return fmt.Sprintf("agents: %s's spawn pose (%.2f, %.2f) is %.2f m from %s's, inside its body: give each agent its own place "+
		"(agents.vehicles[].spawnPose, or spawn.position) or leave the pose out to have one chosen", e.B, e.X, e.Y, e.Distance, e.A)
}

// overlappingSpawns returns the first pair of agents (all with spawn poses) whose bodies
// would start inside each other: vehicles whose inscribed circles overlap (so the bodies surely
// do) and whose heights overlap too, each from its startBase, so drones may start one above
// another but not 2000 in one place.
func overlappingSpawns(agents []AgentSpec) error {
	type placed struct {
		i          int
		r, lo, top float64
	}
	var cellSize float64
	radius := make([]float64, len(agents))
	for i, a := range agents {
		v := a.Vehicle
		if v == nil || v.Body == nil {
			radius[i] = -1
			continue
		}
		radius[i] = innerRadius(v.Body)
		cellSize = math.Max(cellSize, 2*radius[i])
	}
	if cellSize <= 0 {
		return nil
	}
	cells := map[[2]int][]placed{}
	key := func(x, y float64) [2]int { return [2]int{int(math.Floor(x / cellSize)), int(math.Floor(y / cellSize))} }
	for i, a := range agents {
		r := radius[i]
		if r < 0 || a.Spawn == nil {
			continue
		}
		lo := startBase(a)
		p := placed{i, r, lo, lo + a.Vehicle.Body.Height}
		k := key(a.Spawn.X, a.Spawn.Y)
		for dx := -1; dx <= 1; dx++ {
			for dy := -1; dy <= 1; dy++ {
				for _, o := range cells[[2]int{k[0] + dx, k[1] + dy}] {
					b := agents[o.i].Spawn
					d := math.Hypot(b.X-a.Spawn.X, b.Y-a.Spawn.Y)
					// Bodies of no height overlap where they stand.
					if d < r+o.r && p.lo < o.top+1e-9 && o.lo < p.top+1e-9 {
						return &SpawnOverlapError{A: agents[o.i].Name, B: a.Name, X: a.Spawn.X, Y: a.Spawn.Y, Distance: d}
					}
				}
			}
		}
		cells[k] = append(cells[k], p)
	}
	return nil
}

// startBase is the height an agent's body starts at (spawning's and overlappingSpawns'):
// its spawn z; for a flying vehicle, its drive's start altitude when spawned at 0, and the
// spawn z within its drive's altitude limits otherwise: the drive would put it there in the
// first step (a drone spawned 50 m up under a 10 m ceiling jumped down 40 m, and two of them
// spawned 50 and 60 m up over one spot ended up inside each other).
func startBase(a AgentSpec) float64 {
	v := a.Vehicle
	if v.Drive == nil || !plugins.DriveFlies(v.Drive.Model) {
		return a.Spawn.Z
	}
	p, err := plugins.ResolveDriveParams(v.Drive.Model, v.Drive.Params)
	if err != nil {
		return a.Spawn.Z // spawning refuses the drive
	}
	if a.Spawn.Z == 0 {
		return p["startAltitude"]
	}
	if hi, ok := p["maxAltitude"]; ok {
		return max(p["minAltitude"], min(hi, a.Spawn.Z))
	}
	return a.Spawn.Z
}

// innerRadius is the radius of the largest circle inside a body's footprint.
func innerRadius(b *plugins.Body) float64 {
	if b.Shape == "circle" {
		return b.Radius
	}
	return math.Min(b.Length, b.Width) / 2
}
