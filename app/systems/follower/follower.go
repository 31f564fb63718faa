// Package follower is the systems.waypoint_follower system: it drives models along their
// track's route, as rusim's controller.profile: waypoint_follower drives the city's traffic.
// A scenario asks for it per agent (vehicle param controller.profile: waypoint_follower) or
// for every agent (route.params controller.profile); the scenario package adds the system.
package follower

import (
	"errors"
	"math"

	"simgui/app/route"
	"simgui/app/systems"
	"simgui/app/world"
	"simgui/physics/drive"
	"simgui/plugins"
)

// ID is the registry name.
const ID = "systems.waypoint_follower"

func init() {
	systems.Register(systems.Module{ID: ID, New: func() any { return &Follower{} },
		Doc: "drives models along the track's route (rusim's waypoint_follower controller)"})
}

// Defaults of Config.
const (
	DefaultThrottle = 0.5
	DefaultGain     = 1.5 // steer per radian of heading error
)

// Follower steers each of its models towards the next waypoint of the layout's route: steer
// proportional to the heading error, throttle reduced on sharp turns. A waypoint counts as
// reached as route.Progress counts it (within the route's reach distance); after the last one
// a looping route starts over, any other route (or its goal radius reached) leaves the model
// stopped. A model starts at the route's first waypoint, or,
// on a looping route, joins it where it is nearest (heading for that point, then on along the
// loop): fleets spawned round a city loop would otherwise all cut across the blocks to its
// first waypoint. Its state is per episode (Reset clears it).
type Follower struct {
	// Models are the names of the models to drive.
	Models []string `yaml:"models"`
	// Throttle is the normalised throttle on a straight (default 0.5).
	Throttle float64 `yaml:"throttle"`
	// Gain is the steer per radian of heading error (default 1.5).
	Gain float64 `yaml:"gain"`

	// progress is each model's along the route (its next waypoint, counted as the training
	// faces count it).
	progress map[string]*route.Progress
	// join is where a model joins a looping route, headed for before its next waypoint; gone
	// once reached.
	join map[string][2]float64
}

// Validate checks the config and fills defaults.
func (f *Follower) Validate() error {
	if len(f.Models) == 0 {
		return errors.New("models is empty: name the models to drive")
	}
	if f.Throttle == 0 {
		f.Throttle = DefaultThrottle
	}
	if f.Gain == 0 {
		f.Gain = DefaultGain
	}
	if !(f.Throttle > 0 && f.Throttle <= 1) || !(f.Gain > 0 && f.Gain <= 100) {
		return errors.New("throttle must be in (0, 1] and gain in (0, 100]")
	}
	return nil
}

// Reset starts every model over at the route's first waypoint.
func (f *Follower) Reset(*world.World) { f.progress, f.join = nil, nil }

// Step sets each model's command for the next step.
func (f *Follower) Step(w *world.World, _ float64) {
	l := w.Layout()
	if l == nil || l.Route == nil || len(l.Route.Waypoints) == 0 {
		return
	}
	if f.progress == nil {
		f.progress, f.join = map[string]*route.Progress{}, map[string][2]float64{}
	}
	for _, name := range f.Models {
		m := w.Model(name)
		if m == nil {
			continue
		}
		p := m.Body.Pose()
		pr, started := f.progress[name]
		if !started {
			pr = route.New(l)
			pr.Corridor = 0 // the follower steers by the waypoints: no lateral offset to measure
			if pr.Loop && len(pr.Waypoints) > 1 {
				q, k := nearestOnLoop(pr.Waypoints, p.X, p.Y)
				pr.Index = k
				if math.Hypot(q[0]-p.X, q[1]-p.Y) > pr.Reach {
					f.join[name] = q
				}
			}
			f.progress[name] = pr
		}
		if q, joining := f.join[name]; joining {
			if math.Hypot(q[0]-p.X, q[1]-p.Y) > pr.Reach {
				m.Command = f.towards(q, p.X, p.Y, p.Yaw)
				continue
			}
			delete(f.join, name)
		}
		pr.Update(p.X, p.Y)
		if pr.Completed {
			m.Command = drive.Command{Brake: 1}
			continue
		}
		m.Command = f.towards(pr.Waypoints[pr.Index], p.X, p.Y, p.Yaw)
	}
}

// towards is the command that steers a model at (x, y) heading yaw to the point to.
func (f *Follower) towards(to [2]float64, x, y, yaw float64) drive.Command {
	e := world.WrapAngle(math.Atan2(to[1]-y, to[0]-x) - yaw)
	return drive.Command{
		Throttle: f.Throttle * math.Max(0.2, math.Cos(e)),
		Steer:    math.Max(-1, math.Min(1, f.Gain*e)),
	}
}

// nearestOnLoop returns the point of the closed route wps nearest (x, y) and the waypoint
// that ends its leg (the first such leg on a tie).
func nearestOnLoop(wps [][2]float64, x, y float64) (q [2]float64, next int) {
	best := math.Inf(1)
	for k, a := range wps {
		p := plugins.NearestOnSegment(a, wps[(k+1)%len(wps)], [2]float64{x, y})
		if d := math.Hypot(x-p[0], y-p[1]); d < best {
			best, q, next = d, p, (k+1)%len(wps)
		}
	}
	return q, next
}

var (
	_ world.Stepper     = (*Follower)(nil)
	_ world.Resetter    = (*Follower)(nil)
	_ systems.Validator = (*Follower)(nil)
)
