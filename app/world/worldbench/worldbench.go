// Package worldbench holds the core's benchmarks for `simgui bench` and `go test -bench`: a
// world step with N KS0223 robots driving in a walled arena (contacts between robots and with
// the walls, physics on), against a bare cp step of the same bodies — boxes of the same size
// and mass, the same walls, velocities set the same way — measured in the same run.
package worldbench

import (
	"fmt"
	"math"

	"github.com/jakecoffman/cp/v2"

	"simgui/app/bench"
	"simgui/app/world"
	"simgui/physics/drive"
	"simgui/plugins"
)

func init() {
	for _, n := range []int{1, 100, 1000} {
		n := n
		bare := fmt.Sprintf("physics/bare-cp/%d", n)
		bench.Register(bench.Case{Name: bare, Doc: fmt.Sprintf("bare cp/v2 step of %d boxes in the arena", n),
			F: func(b bench.B) { benchBareCP(b, n) }})
		bench.Register(bench.Case{Name: fmt.Sprintf("world/step/ks0223/%d", n), Baseline: bare,
			Doc: fmt.Sprintf("World.Step with %d KS0223 robots driving in a walled arena", n),
			F:   func(b bench.B) { benchStep(b, n) }})
	}
}

// benchKS0223 is the KS0223's simulation data (vehicle.ks0223.v1), repeated here so the core
// benchmark does not depend on the catalog.
var benchKS0223 = &plugins.VehicleDescriptor{
	ID: "vehicle.ks0223.v1", DisplayName: "KS0223", Version: plugins.ContractVersion{Major: 1},
	Body:  &plugins.Body{Shape: "box", Length: 0.25, Width: 0.15, Height: 0.12, Mass: 1, Friction: 0.9, LinearDamping: 0.2, AngularDamping: 1.5},
	Drive: &plugins.Drive{Model: "differential"},
}

// arena returns n robot poses on a 0.5 m grid and a square of walls around them.
func arena(n int) ([]world.Pose, []plugins.Element) {
	side := int(math.Ceil(math.Sqrt(float64(n))))
	half := float64(side)*0.25 + 1
	var poses []world.Pose
	for i := 0; i < n; i++ {
		poses = append(poses, world.Pose{X: -half + 1 + float64(i%side)*0.5, Y: -half + 1 + float64(i/side)*0.5, Yaw: float64(i%8) * math.Pi / 4})
	}
	walls := []plugins.Element{
		{Kind: "wall", Name: "s", Y: -half, Length: 2 * half, Width: 0.02, Height: 0.25},
		{Kind: "wall", Name: "n", Y: half, Length: 2 * half, Width: 0.02, Height: 0.25},
		{Kind: "wall", Name: "w", X: -half, Length: 0.02, Width: 2 * half, Height: 0.25},
		{Kind: "wall", Name: "e", X: half, Length: 0.02, Width: 2 * half, Height: 0.25},
	}
	return poses, walls
}

func benchCommand(i int) drive.Command {
	return drive.Command{Throttle: 0.6 + 0.4*float64((i*37)%10)/10, Steer: float64((i*13)%21-10) / 20}
}

// benchStep measures World.Step with n KS0223 robots.
func benchStep(b bench.B, n int) {
	poses, walls := arena(n)
	track := &plugins.TrackDescriptor{ID: "track.bench_arena.v1", Elements: walls}
	cfg := world.Config{Track: track, VehicleCollisions: true,
		BuildLayout: func(t *plugins.TrackDescriptor, _ map[string]any, _ int64) (*plugins.Layout, error) {
			return &plugins.Layout{Elements: t.Elements}, nil
		}}
	for i := range poses {
		cfg.Agents = append(cfg.Agents, world.AgentSpec{Name: fmt.Sprintf("r%d", i), Vehicle: benchKS0223, Spawn: &poses[i]})
	}
	w, err := world.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	for i, m := range w.Models() {
		m.Command = benchCommand(i)
	}
	for i := 0; i < 200; i++ { // settle into steady driving and contact
		w.Step()
	}
	b.ReportAllocs()
	ops := 0
	for b.Loop() {
		w.Step()
		ops++
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(ops)/1e6, "ms/step")
}

// benchBareCP steps the same bodies in plain cp/v2 with the same control law inline, so the
// ratio against it is the framework's overhead, not a different amount of contact work.
func benchBareCP(b bench.B, n int) {
	poses, walls := arena(n)
	s := cp.NewSpace()
	s.SetCollisionSlop(0.001)
	for _, e := range walls {
		body := cp.NewStaticBody()
		body.SetPosition(cp.Vector{X: e.X, Y: e.Y})
		sh := cp.NewBox(body, e.Length, e.Width, 0)
		sh.SetFriction(0.7)
		s.AddShape(sh)
	}
	bd := benchKS0223.Body
	var bodies []*cp.Body
	for _, p := range poses {
		body := s.AddBody(cp.NewBody(bd.Mass, cp.MomentForBox(bd.Mass, bd.Length, bd.Width)))
		body.SetPosition(cp.Vector{X: p.X, Y: p.Y})
		body.SetAngle(p.Yaw)
		sh := s.AddShape(cp.NewBox(body, bd.Length, bd.Width, 0))
		sh.SetFriction(bd.Friction)
		bodies = append(bodies, body)
	}
	// The KS0223 control law of physics/drive, written inline: what the world does per robot,
	// minus the framework around it.
	const dt, maxSpeed, accel, maxYaw, yawAcc, grip = 0.005, 0.73, 4.0, 380 * math.Pi / 180, 1900 * math.Pi / 180, 0.9 * 9.80665
	approach := func(v, target, step float64) float64 {
		if v < target {
			return math.Min(v+step, target)
		}
		return math.Max(v-step, target)
	}
	drive := func() {
		for i, body := range bodies {
			c := benchCommand(i)
			l, r := c.Throttle-c.Steer, c.Throttle+c.Steer
			vT := math.Max(-1, math.Min(1, (l+r)/2)) * maxSpeed
			wT := math.Max(-1, math.Min(1, (r-l)/2)) * maxYaw
			rot, v := body.Rotation(), body.Velocity()
			fwd, lat := v.Dot(rot), v.Cross(rot)*-1
			fwd, lat = approach(fwd, vT, accel*dt), approach(lat, 0, grip*dt)
			body.SetVelocity(fwd*rot.X-lat*rot.Y, fwd*rot.Y+lat*rot.X)
			body.SetAngularVelocity(approach(body.AngularVelocity(), wT, yawAcc*dt))
		}
		s.Step(dt)
	}
	for i := 0; i < 200; i++ {
		drive()
	}
	b.ReportAllocs()
	ops := 0
	for b.Loop() {
		drive()
		ops++
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(ops)/1e6, "ms/step")
}
