package worldbench

import (
	"fmt"
	"math"

	"simgui/app/bench"
	"simgui/physics"
)

// kinematicBudget is the step time the kinematic mode is built for at 10,000 robots, in ms:
// reported beside the figure (a figure depends on the machine's load; it is not failed).
const kinematicBudget = 1.0

func registerKinematic() {
	for _, n := range []int{100, 1000, 10000} {
		floor := fmt.Sprintf("physics/kinematic-floor/%d", n)
		bench.Register(bench.Case{Name: floor, Doc: fmt.Sprintf("the KS0223 drive law integrated for %d robots in flat arrays, no contacts: the least a kinematic step costs", n),
			F: func(b bench.B) { benchKinematicFloor(b, n) }})
		bench.Register(bench.Case{Name: fmt.Sprintf("world/step/kinematic/%d", n), Baseline: floor,
			Doc: fmt.Sprintf("World.Step with %d KS0223 robots driving in a walled arena, kinematic physics (contacts resolved)", n),
			F:   func(b bench.B) { benchStep(b, n, physics.Kinematic) }})
	}
	bench.Register(bench.Case{Name: "world/step/kinematic-vs-dynamic/1000", Baseline: "world/step/ks0223/1000",
		Doc: "World.Step with 1000 KS0223 robots, kinematic physics, against the same world in dynamic physics",
		F:   func(b bench.B) { benchStep(b, 1000, physics.Kinematic) }})
}

// benchKinematicFloor integrates the scene's robots under the KS0223 drive law with nothing
// in the way: velocities ramp toward the commanded ones, poses advance, the rotation is
// refreshed (by math.Sincos of the yaw; the kinematic step turns its rotation by series, which
// is cheaper, so the floor is a plain integration rather than a tuned one). No broad phase, no
// contacts, no framework.
func benchKinematicFloor(b bench.B, n int) {
	sc := newScene(n)
	x, y, yaw := make([]float64, n), make([]float64, n), make([]float64, n)
	c, s := make([]float64, n), make([]float64, n)
	vx, vy, w := make([]float64, n), make([]float64, n), make([]float64, n)
	for i, p := range sc.poses {
		x[i], y[i], yaw[i] = p.X, p.Y, p.Yaw
		s[i], c[i] = math.Sincos(p.Yaw)
	}
	step := func() {
		for i := range x {
			fwd, lat := vx[i]*c[i]+vy[i]*s[i], -vx[i]*s[i]+vy[i]*c[i]
			fwd, lat = approach(fwd, sc.targets[i][0], ks0223Accel*benchDt), approach(lat, 0, ks0223Grip*benchDt)
			vx[i], vy[i] = fwd*c[i]-lat*s[i], fwd*s[i]+lat*c[i]
			w[i] = approach(w[i], sc.targets[i][1], ks0223YawAcc*benchDt)
			x[i] += vx[i] * benchDt
			y[i] += vy[i] * benchDt
			yaw[i] += w[i] * benchDt
			s[i], c[i] = math.Sincos(yaw[i])
		}
	}
	for range settleSteps {
		step()
	}
	ops := 0
	for b.Loop() {
		step()
		ops++
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(ops)/1e6, "ms/step")
}
