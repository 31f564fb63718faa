// Package worldbench holds the core's benchmarks for `simgui bench` and `go test -bench`: a
// world step with N KS0223 robots driving in a walled arena (contacts between robots and with
// the walls), measured against peers of the same scene in the same run.
//
// Dynamic (cp/v2) worlds are measured against a bare cp/v2 step of the same bodies — boxes of
// the same size and mass, the same walls, velocities set the same way — which is the
// framework's overhead, and against Chipmunk 7's C library stepping the same scene
// (cpeer/chipmunk_peer.c, built at bench time against Debian's libchipmunk-dev; skipped where that
// cannot be built or loaded, as in the static headless build). Kinematic worlds
// (physics.Kinematic) are measured against the kinematic floor: the same drive law integrated
// with no contacts at all.
package worldbench

import (
	"fmt"
	"math"

	"github.com/jakecoffman/cp/v2"

	"simgui/app/bench"
	"simgui/app/world"
	"simgui/physics"
	"simgui/physics/drive"
	"simgui/plugins"
)

func init() {
	for _, n := range []int{1, 100, 1000} {
		bare := fmt.Sprintf("physics/bare-cp/%d", n)
		bench.Register(bench.Case{Name: bare, Doc: fmt.Sprintf("bare cp/v2 step of %d boxes in the arena", n),
			F: func(b bench.B) { benchBareCP(b, n) }})
		bench.Register(bench.Case{Name: fmt.Sprintf("world/step/ks0223/%d", n), Baseline: bare,
			Doc: fmt.Sprintf("World.Step with %d KS0223 robots driving in a walled arena", n),
			F:   func(b bench.B) { benchStep(b, n, physics.Dynamic) }})
		if n == 1 {
			continue
		}
		chipmunk := fmt.Sprintf("physics/chipmunk-c/%d", n)
		bench.Register(bench.Case{Name: chipmunk, Doc: fmt.Sprintf("Chipmunk 7 C (Debian libchipmunk) step of the bare cp scene, %d robots", n),
			F: func(b bench.B) { benchChipmunkC(b, n) }})
		bench.Register(bench.Case{Name: fmt.Sprintf("world/step/dynamic-vs-c/%d", n), Baseline: chipmunk,
			Doc: fmt.Sprintf("World.Step with %d KS0223 robots (cp/v2 dynamics) against Chipmunk's C step of the same scene", n),
			F:   func(b bench.B) { benchStep(b, n, physics.Dynamic) }})
		bench.Register(bench.Case{Name: bare + "-vs-c", Baseline: chipmunk,
			Doc: fmt.Sprintf("bare cp/v2 step of %d boxes against Chipmunk's C step of the same scene", n),
			F:   func(b bench.B) { benchBareCP(b, n) }})
	}
	registerKinematic()
}

// benchKS0223 is the KS0223's simulation data (vehicle.ks0223.v1), repeated here so the core
// benchmark does not depend on the catalog.
var benchKS0223 = &plugins.VehicleDescriptor{
	ID: "vehicle.ks0223.v1", DisplayName: "KS0223", Version: plugins.ContractVersion{Major: 1},
	Body:  &plugins.Body{Shape: "box", Length: 0.25, Width: 0.15, Height: 0.12, Mass: 1, Friction: 0.9, LinearDamping: 0.2, AngularDamping: 1.5},
	Drive: &plugins.Drive{Model: "differential"},
}

// The scene's constants: the step, the KS0223's differential drive defaults (plugins' drive
// table) that the bare peers write inline, and the physics settings physics.NewSpace uses.
const (
	benchDt          = world.DefaultStepSize
	ks0223MaxSpeed   = 0.73
	ks0223Accel      = 4.0
	ks0223MaxYaw     = 380 * math.Pi / 180
	ks0223YawAcc     = 1900 * math.Pi / 180
	ks0223Grip       = 0.9 * physics.Gravity
	wallFriction     = 0.7
	collisionSlop    = 0.001
	solverIterations = 10
	// settleSteps run before measuring, into steady driving and contact.
	settleSteps = 200
)

// scene is n robots in a walled arena with their commands.
type scene struct {
	poses []world.Pose
	walls []plugins.Element
	// targets are the forward speed (m/s) and yaw rate (rad/s) each robot's command asks the
	// differential drive for, for the bare peers.
	targets [][2]float64
}

// newScene puts n robots on a 0.5 m grid inside a square of walls.
func newScene(n int) scene {
	side := int(math.Ceil(math.Sqrt(float64(n))))
	half := float64(side)*0.25 + 1
	var sc scene
	for i := 0; i < n; i++ {
		sc.poses = append(sc.poses, world.Pose{X: -half + 1 + float64(i%side)*0.5, Y: -half + 1 + float64(i/side)*0.5, Yaw: float64(i%8) * math.Pi / 4})
		c := benchCommand(i)
		l, r := c.Throttle-c.Steer, c.Throttle+c.Steer
		sc.targets = append(sc.targets, [2]float64{
			math.Max(-1, math.Min(1, (l+r)/2)) * ks0223MaxSpeed,
			math.Max(-1, math.Min(1, (r-l)/2)) * ks0223MaxYaw,
		})
	}
	sc.walls = []plugins.Element{
		{Kind: "wall", Name: "s", Y: -half, Length: 2 * half, Width: 0.02, Height: 0.25},
		{Kind: "wall", Name: "n", Y: half, Length: 2 * half, Width: 0.02, Height: 0.25},
		{Kind: "wall", Name: "w", X: -half, Length: 0.02, Width: 2 * half, Height: 0.25},
		{Kind: "wall", Name: "e", X: half, Length: 0.02, Width: 2 * half, Height: 0.25},
	}
	return sc
}

func benchCommand(i int) drive.Command {
	return drive.Command{Throttle: 0.6 + 0.4*float64((i*37)%10)/10, Steer: float64((i*13)%21-10) / 20}
}

// newWorld builds the scene as a world in the given physics mode, commands set.
func newWorld(b bench.TB, n int, mode physics.Mode) *world.World {
	sc := newScene(n)
	track := &plugins.TrackDescriptor{ID: "track.bench_arena.v1", Elements: sc.walls}
	cfg := world.Config{Track: track, VehicleCollisions: true, Physics: mode,
		BuildLayout: func(t *plugins.TrackDescriptor, _ map[string]any, _ int64) (*plugins.Layout, error) {
			return &plugins.Layout{Elements: t.Elements}, nil
		}}
	for i := range sc.poses {
		cfg.Agents = append(cfg.Agents, world.AgentSpec{Name: fmt.Sprintf("r%d", i), Vehicle: benchKS0223, Spawn: &sc.poses[i]})
	}
	w, err := world.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	for i, m := range w.Models() {
		m.Command = benchCommand(i)
	}
	return w
}

// benchStep measures World.Step with n KS0223 robots.
func benchStep(b bench.B, n int, mode physics.Mode) {
	w := newWorld(b, n, mode)
	defer w.Close()
	for i := 0; i < settleSteps; i++ {
		w.Step()
	}
	b.ReportAllocs()
	ops := 0
	for b.Loop() {
		w.Step()
		ops++
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(ops)/1e6, "ms/step")
	var speed float64
	for _, m := range w.Models() {
		vx, vy := m.Body.Velocity()
		speed += math.Hypot(vx, vy)
	}
	b.ReportMetric(speed/float64(n), "m/s-mean")
	b.ReportMetric(float64(w.Space().TouchingPairs()), "contacts")
	if mode == physics.Kinematic && n == 10000 {
		b.ReportMetric(kinematicBudget, "ms/step-budget")
	}
}

// bareScene is the scene's bodies in plain cp/v2 with the same control law inline.
type bareScene struct {
	space   *cp.Space
	bodies  []*cp.Body
	targets [][2]float64
}

func newBareScene(n int) *bareScene {
	sc := newScene(n)
	s := cp.NewSpace()
	s.SetCollisionSlop(collisionSlop)
	s.Iterations = solverIterations
	for _, e := range sc.walls {
		body := cp.NewStaticBody()
		body.SetPosition(cp.Vector{X: e.X, Y: e.Y})
		sh := cp.NewBox(body, e.Length, e.Width, 0)
		sh.SetFriction(wallFriction)
		s.AddShape(sh)
	}
	bd := benchKS0223.Body
	bs := &bareScene{space: s, targets: sc.targets}
	for _, p := range sc.poses {
		body := s.AddBody(cp.NewBody(bd.Mass, cp.MomentForBox(bd.Mass, bd.Length, bd.Width)))
		body.SetPosition(cp.Vector{X: p.X, Y: p.Y})
		body.SetAngle(p.Yaw)
		sh := s.AddShape(cp.NewBox(body, bd.Length, bd.Width, 0))
		sh.SetFriction(bd.Friction)
		bs.bodies = append(bs.bodies, body)
	}
	return bs
}

// step runs the KS0223 control law of physics/drive, written inline (what the world does per
// robot, minus the framework around it), and a cp step.
func (bs *bareScene) step() {
	for i, body := range bs.bodies {
		vT, wT := bs.targets[i][0], bs.targets[i][1]
		rot, v := body.Rotation(), body.Velocity()
		fwd, lat := v.Dot(rot), v.Cross(rot)*-1
		fwd, lat = approach(fwd, vT, ks0223Accel*benchDt), approach(lat, 0, ks0223Grip*benchDt)
		body.SetVelocity(fwd*rot.X-lat*rot.Y, fwd*rot.Y+lat*rot.X)
		body.SetAngularVelocity(approach(body.AngularVelocity(), wT, ks0223YawAcc*benchDt))
	}
	bs.space.Step(benchDt)
}

// stats returns the robots' mean planar speed and body-arbiter links, as peer_stats counts them.
func (bs *bareScene) stats() (speed float64, links int) {
	for _, body := range bs.bodies {
		speed += body.Velocity().Length()
		body.EachArbiter(func(*cp.Arbiter) { links++ })
	}
	return speed / float64(len(bs.bodies)), links
}

// benchBareCP steps the same bodies in plain cp/v2 with the same control law inline, so the
// ratio against it is the framework's overhead, not a different amount of contact work.
func benchBareCP(b bench.B, n int) {
	bs := newBareScene(n)
	for range settleSteps {
		bs.step()
	}
	b.ReportAllocs()
	ops := 0
	for b.Loop() {
		bs.step()
		ops++
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(ops)/1e6, "ms/step")
	speed, links := bs.stats()
	b.ReportMetric(speed, "m/s-mean")
	b.ReportMetric(float64(links), "arbiter-links")
}

// approach moves v toward target by at most step, as physics/drive does.
func approach(v, target, step float64) float64 {
	if v < target {
		return math.Min(v+step, target)
	}
	return math.Max(v-step, target)
}
