package window

import (
	"math"
	"testing"

	"simgui/app/world"
)

// The heading wedge of a robot is the last triangle drawRobot adds; on a round body (the
// drone) it must point plainly one way: four times as long as wide, its tip out past the rim
// along the heading, so that 151.5° cannot be read as south-east. A rectangular body's wedge
// stays inside its nose.
func TestHeadingWedgeIsUnmistakable(t *testing.T) {
	for _, c := range []struct {
		id                string
		minRatio, minTipR float64 // tip's distance from the centre, in body radii
	}{
		{"vehicle.drone.simple.v1", 3.5, 1.2},
		{"vehicle.ks0223.v1", 1.5, 0},
	} {
		v := builtinVehicle(t, c.id)
		hl, hw, round := footprint(v)
		yaw := 151.5 * math.Pi / 180
		m := &world.ModelState{Vehicle: v, Pose: world.Pose{X: 2, Y: -1, Yaw: yaw}}
		vw := &view{CX: 2, CY: -1, Scale: 200, W: 800, H: 600}
		var b batch
		drawRobot(vw, &b, m, false)
		tri := b.vs[len(b.vs)-3:]
		pts := make([][2]float64, 3)
		for i, vx := range tri {
			pts[i][0], pts[i][1] = vw.toWorld(float64(vx.DstX), float64(vx.DstY))
			pts[i][0], pts[i][1] = pts[i][0]-2, pts[i][1]+1 // from the robot's centre
		}
		tip, l, r := pts[0], pts[1], pts[2]
		dir := math.Atan2(tip[1], tip[0]) * 180 / math.Pi
		if math.Abs(dir-151.5) > 0.01 {
			t.Errorf("%s: wedge points at %.2f°, want 151.5°", c.id, dir)
		}
		base := [2]float64{(l[0] + r[0]) / 2, (l[1] + r[1]) / 2}
		length := math.Hypot(tip[0]-base[0], tip[1]-base[1])
		width := math.Hypot(l[0]-r[0], l[1]-r[1])
		if length < c.minRatio*width {
			t.Errorf("%s: wedge %.3f m long and %.3f m wide, want it at least %g times as long", c.id, length, width, c.minRatio)
		}
		if tipR := math.Hypot(tip[0], tip[1]) / math.Max(hl, hw); round && tipR < c.minTipR {
			t.Errorf("%s: wedge's tip %.2f radii from the centre, want past the rim (%g)", c.id, tipR, c.minTipR)
		} else if !round && math.Abs(tipR*math.Max(hl, hw)-hl) > 1e-3 {
			t.Errorf("%s: wedge's tip %.3f m ahead, want at the nose (%.3f m)", c.id, tipR*math.Max(hl, hw), hl)
		}
	}
}
