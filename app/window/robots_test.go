package window

import (
	"errors"
	"math"
	"testing"

	"simgui/app/world"
	"simgui/plugins"
	"simgui/plugins/trackgen"
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

// A movable box is drawn from above in its element's colour: it was always drawn in the
// default tan, whatever colour its track gave it (the template's
// "#d9a441" and a hobbyist's blue boxes alike), while the cameras drew it in its colour.
func TestMovableBoxKeepsItsColour(t *testing.T) {
	tr := &plugins.TrackDescriptor{ID: "track.boxcolour.v1", DisplayName: "Box colour", Version: plugins.ContractVersion{Major: 1},
		Floor: &plugins.Floor{Length: 4, Width: 4},
		Elements: []plugins.Element{
			{Kind: plugins.ElementBox, Name: "blue", X: 1, Y: 1, Length: 0.3, Width: 0.3, Height: 0.3, Movable: true, Mass: 0.4, Color: "#3060d0"},
			{Kind: plugins.ElementBox, Name: "plain", X: -1, Y: 1, Length: 0.3, Width: 0.3, Height: 0.3, Movable: true, Mass: 0.4},
		},
		SpawnPoints: []plugins.SpawnPoint{{Name: "start", X: 0, Y: -1}}}
	w, err := world.New(world.Config{Track: tr, BuildLayout: trackgen.Build, Seed: 1,
		Agents: []world.AgentSpec{{Name: "ego", Vehicle: builtinVehicle(t, "vehicle.ks0223.v1")}}})
	if err != nil {
		t.Fatal(err)
	}
	boxes := w.Snapshot().Boxes
	if len(boxes) != 2 {
		t.Fatalf("%d boxes in the snapshot, want 2", len(boxes))
	}
	vw := &view{Scale: 100, W: 800, H: 600}
	for i, want := range []rgba{parseColor("#3060d0", colorBoxDyn), colorBoxDyn} {
		var b batch
		drawBoxes(vw, &b, boxes[i:i+1])
		v := b.vs[0]
		got := rgba{v.ColorR, v.ColorG, v.ColorB, v.ColorA}
		if math.Abs(float64(got.R-want.R)) > 1e-3 || math.Abs(float64(got.G-want.G)) > 1e-3 || math.Abs(float64(got.B-want.B)) > 1e-3 {
			t.Errorf("box %s drawn in %+v, want %+v", boxes[i].Name, got, want)
		}
	}
}

// A failed reset's status says "reset: " once: the world's reset errors carry it already,
// and a plugin removed while in use read "reset: reset: plugin X is no longer installed".
func TestResetFailedSaysResetOnce(t *testing.T) {
	for _, c := range []struct{ err, want string }{
		{"reset: plugin vehicle.x.y.v1 is no longer installed", "reset: plugin vehicle.x.y.v1 is no longer installed"},
		{"context canceled", "reset: context canceled"},
	} {
		if got := resetFailed(errors.New(c.err)); got != c.want {
			t.Errorf("%q: status %q, want %q", c.err, got, c.want)
		}
	}
}
