package world

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"simgui/plugins"
	"simgui/plugins/trackgen"
)

// builtinTrack and builtinVehicle return a built-in plugin's descriptor.
func builtinTrack(t *testing.T, id string) *plugins.TrackDescriptor {
	t.Helper()
	tr, err := plugins.Builtin().Track(id)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func builtinVehicle(t *testing.T, id string) *plugins.VehicleDescriptor {
	t.Helper()
	v, err := plugins.Builtin().Vehicle(id)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// builtinWorld builds a world on a built-in track with n KS0223s that have no spawn pose.
func builtinWorld(t *testing.T, track string, params map[string]any, n int) (*World, error) {
	t.Helper()
	tr, v := builtinTrack(t, track), builtinVehicle(t, "vehicle.ks0223.v1")
	cfg := Config{Track: tr, TrackParams: params, BuildLayout: trackgen.Build, Seed: 3}
	for i := range n {
		cfg.Agents = append(cfg.Agents, AgentSpec{Name: fmt.Sprintf("a%d", i), Vehicle: v})
	}
	return New(cfg)
}

// sized returns a copy of v with a body length by width metres.
func sized(v *plugins.VehicleDescriptor, length, width float64) *plugins.VehicleDescriptor {
	v = v.Clone()
	v.Body.Length, v.Body.Width = length, width
	return v
}

// checkPlacement fails unless every robot of the snapshot stands on the floor, clear of the
// track and of the other robots.
func checkPlacement(t *testing.T, w *World) {
	t.Helper()
	snap := w.Snapshot()
	f := snap.Layout.Floor
	for i, m := range snap.Models {
		r := footprintRadius(m.Vehicle)
		if f.Length > 0 && (math.Abs(m.Pose.X-f.X) > f.Length/2-r || math.Abs(m.Pose.Y-f.Y) > f.Width/2-r) {
			t.Errorf("%s at (%.2f, %.2f) is off the floor", m.Name, m.Pose.X, m.Pose.Y)
		}
		if !w.space.Clear(m.Pose.X, m.Pose.Y, r, 0, bodyHeight(m.Vehicle), onTrack) {
			t.Errorf("%s at (%.2f, %.2f) touches the track", m.Name, m.Pose.X, m.Pose.Y)
		}
		for _, o := range snap.Models[i+1:] {
			if d := math.Hypot(m.Pose.X-o.Pose.X, m.Pose.Y-o.Pose.Y); d < r+footprintRadius(o.Vehicle) {
				t.Errorf("%s and %s are %.3f m apart", m.Name, o.Name, d)
			}
		}
	}
}

// The basic arena's walls enclose x, y in ±(half their span); 100 robots stand inside them,
// on a grid behind and beside the spawn point, all facing its way.
func TestHundredAgentsInTheArena(t *testing.T) {
	w, err := builtinWorld(t, "track.basic_arena.v1", nil, 100)
	if err != nil {
		t.Fatal(err)
	}
	checkPlacement(t, w)
	snap := w.Snapshot()
	lo, hi := [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
	for _, e := range snap.Layout.Elements {
		if e.Kind == plugins.ElementWall {
			lo[0], lo[1] = math.Min(lo[0], e.X), math.Min(lo[1], e.Y)
			hi[0], hi[1] = math.Max(hi[0], e.X), math.Max(hi[1], e.Y)
		}
	}
	sp := snap.Layout.SpawnPoints[0]
	for _, m := range snap.Models {
		if m.Pose.X <= lo[0] || m.Pose.X >= hi[0] || m.Pose.Y <= lo[1] || m.Pose.Y >= hi[1] {
			t.Errorf("%s at (%.2f, %.2f) is outside the walls %v..%v", m.Name, m.Pose.X, m.Pose.Y, lo, hi)
		}
		if math.Abs(m.Pose.Yaw-sp.YawDeg*math.Pi/180) > 1e-9 {
			t.Errorf("%s faces %.1f°, the spawn point %.1f°", m.Name, m.Pose.Yaw*180/math.Pi, sp.YawDeg)
		}
	}
	if m := snap.Models[0]; m.Pose.X != sp.X || m.Pose.Y != sp.Y {
		t.Errorf("the first robot is at (%.2f, %.2f), not on the spawn point", m.Pose.X, m.Pose.Y)
	}
	// Compact: the crowd fits in a square not much larger than 10 by 10 cells.
	pitch := 2*footprintRadius(snap.Models[0].Vehicle) + placeGap
	for _, m := range snap.Models {
		if d := math.Max(math.Abs(m.Pose.X-sp.X), math.Abs(m.Pose.Y-sp.Y)); d > 8*pitch {
			t.Errorf("%s is %.1f cells from the spawn point", m.Name, d/pitch)
		}
	}
	// The same layout and agents place the robots the same way (a headless run included).
	w2, err := builtinWorld(t, "track.basic_arena.v1", nil, 100)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range w2.Snapshot().Models {
		if m.Pose != snap.Models[i].Pose {
			t.Fatalf("%s: %+v, then %+v", m.Name, snap.Models[i].Pose, m.Pose)
		}
	}
	// And a reset.
	if err := w.Reset(3); err != nil {
		t.Fatal(err)
	}
	for i, m := range w.Snapshot().Models {
		if m.Pose != snap.Models[i].Pose {
			t.Fatalf("after reset %s: %+v, before %+v", m.Name, m.Pose, snap.Models[i].Pose)
		}
	}
}

// In the cardboard corridor (0.6 m wide) robots queue behind the first; more than the
// corridor holds is an error that says how many of all the agents fit, the first on the
// spawn point included, and that many build.
func TestAgentsInTheCorridorAndTooMany(t *testing.T) {
	params := map[string]any{"length": 3.0, "width": 0.6}
	w, err := builtinWorld(t, "track.cardboard_corridor.v1", params, 4)
	if err != nil {
		t.Fatal(err)
	}
	checkPlacement(t, w)
	_, err = builtinWorld(t, "track.cardboard_corridor.v1", params, 60)
	var room *NoRoomError
	if !errors.As(err, &room) {
		t.Fatalf("60 robots in a 3 m corridor: %v, want a NoRoomError", err)
	}
	t.Log(err)
	fit := room.Total - room.Want + room.Fit
	if room.Total != 60 || fit < 2 || !strings.Contains(err.Error(), fmt.Sprintf("%d of the 60 fit", fit)) ||
		!strings.Contains(err.Error(), fmt.Sprintf("use at most %d,", fit)) {
		t.Fatalf("60 robots in a 3 m corridor: %v: want how many of the 60 fit (%d) and to use at most that many", err, fit)
	}
	if _, err := builtinWorld(t, "track.cardboard_corridor.v1", params, fit); err != nil {
		t.Fatalf("the %d robots the error says fit: %v", fit, err)
	}
	if _, err := builtinWorld(t, "track.cardboard_corridor.v1", params, fit+1); !errors.As(err, &room) {
		t.Fatalf("%d robots, one more than the error says fit: %v", fit+1, err)
	}
}

// In the default corridor the third robot stands in the corner, where the spawn point's
// heading (north) meets the wall: it turns along leg B. Each has half a metre of open floor
// ahead of it.
func TestPlacedRobotsDoNotFaceWalls(t *testing.T) {
	w, err := builtinWorld(t, "track.cardboard_corridor.v1", nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	checkPlacement(t, w)
	turned := 0
	for _, m := range w.Snapshot().Models {
		fy, fx := math.Sincos(m.Pose.Yaw)
		if !w.space.SweepClear(m.Pose.X, m.Pose.Y, m.Pose.X+0.5*fx, m.Pose.Y+0.5*fy, 0, 0, bodyHeight(m.Vehicle), onTrack) {
			t.Errorf("%s at (%.2f, %.2f) faces a wall within 0.5 m (yaw %.0f°)", m.Name, m.Pose.X, m.Pose.Y, m.Pose.Yaw*180/math.Pi)
		}
		if math.Abs(m.Pose.Yaw-math.Pi/2) > 1e-9 {
			turned++
		}
	}
	if turned == 0 {
		t.Error("no robot turned: the test does not reach the corner")
	}
}

// Spawn without a pose puts a robot where none stands now, even where earlier ones drove.
func TestSpawnFindsAFreePlace(t *testing.T) {
	w, err := builtinWorld(t, "track.basic_arena.v1", nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	v := w.Models()[0].Vehicle
	for i := range 20 {
		if _, err := w.Spawn(AgentSpec{Name: fmt.Sprintf("s%d", i), Vehicle: v}); err != nil {
			t.Fatal(err)
		}
	}
	checkPlacement(t, w)
	// Move the first robot onto the next free cell; the next spawn avoids it.
	w.SetPose("a0", Pose{X: w.Models()[1].Initial.X + 0.05, Y: w.Models()[1].Initial.Y})
	w.Remove("s0")
	if _, err := w.Spawn(AgentSpec{Name: "again", Vehicle: v}); err != nil {
		t.Fatal(err)
	}
	checkPlacement(t, w)
}

// A vehicle that fits nowhere is refused with ErrNoFreePlace, saying what room it takes: a
// 0.9 × 0.7 m car in the 0.6 m corridor, too wide for it even lengthwise.
func TestSpawnWithoutRoomSaysWhy(t *testing.T) {
	w, err := builtinWorld(t, "track.cardboard_corridor.v1", nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	v := sized(w.Models()[0].Vehicle, 0.9, 0.7)
	m, err := w.Spawn(AgentSpec{Name: "big", Vehicle: v})
	if err == nil {
		t.Fatalf("a 0.9 × 0.7 m car in the 0.6 m corridor was placed at %+v", bodyPose(m.Body))
	}
	if !errors.Is(err, ErrNoFreePlace) || !strings.Contains(err.Error(), "circle 1.14 m across") ||
		!strings.Contains(err.Error(), "a lane 0.74 m wide along the spawn point's heading") {
		t.Fatalf("a 0.9 × 0.7 m car in the corridor: %v", err)
	}
}

// A car whose circle fits no cell of the grid but whose body fits the corridor lengthwise is
// placed along the spawn point's heading, clear of the robots there: a 0.55 × 0.4 m car in the
// 0.6 m corridor was refused (its circle is 0.68 m across), though a click placed it. A
// scenario's agents are placed so too.
func TestSpawnLongCarLengthwise(t *testing.T) {
	w, err := builtinWorld(t, "track.cardboard_corridor.v1", map[string]any{"length": 3.0, "width": 0.6}, 1)
	if err != nil {
		t.Fatal(err)
	}
	v := sized(w.Models()[0].Vehicle, 0.55, 0.4)
	spawn := w.Models()[0].Initial
	for _, name := range []string{"long1", "long2"} {
		m, err := w.Spawn(AgentSpec{Name: name, Vehicle: v})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		p := bodyPose(m.Body)
		if math.Abs(p.Yaw-spawn.Yaw) > 1e-9 || math.Abs(p.X-spawn.X) > 1e-9 {
			t.Fatalf("%s at %+v: not on the spawn point's line %+v, facing its way", name, p, spawn)
		}
		w.Remove(name) // SpotFree checks the others: take this one out to check its own spot
		if err := w.SpotFree(v, p); err != nil {
			t.Fatalf("%s at %+v: %v", name, p, err)
		}
		if _, err := w.Spawn(AgentSpec{Name: name, Vehicle: v, Spawn: &p}); err != nil {
			t.Fatal(err)
		}
	}
	a, b := w.Models()[1].Initial, w.Models()[2].Initial
	if d := math.Abs(a.Y - b.Y); d < 0.55 {
		t.Fatalf("the two long cars stand %.2f m apart along the corridor (at %+v and %+v), less than a length", d, a, b)
	}
}

// SpotFree refuses a spot on a wall, on another robot and across a corridor too narrow for
// the body; it takes a long car lengthwise in a corridor its circle would not fit in, and the
// open ground past the floor.
func TestSpotFree(t *testing.T) {
	w, err := builtinWorld(t, "track.cardboard_corridor.v1", map[string]any{"length": 3.0, "width": 0.45}, 1)
	if err != nil {
		t.Fatal(err)
	}
	ks := w.Models()[0].Vehicle
	car, err := plugins.Builtin().Vehicle("vehicle.arcade.blue.v1")
	if err != nil {
		t.Fatal(err)
	}
	at := w.Models()[0].Initial
	fy, fx := math.Sincos(at.Yaw)
	ahead := Pose{X: at.X + 1.2*fx, Y: at.Y + 1.2*fy, Yaw: at.Yaw}
	var wall *plugins.Element
	for i, e := range w.layout.Elements {
		if e.Kind == plugins.ElementWall {
			wall = &w.layout.Elements[i]
			break
		}
	}
	if wall == nil {
		t.Fatal("the corridor has no wall")
	}
	wx, wy := wall.X, wall.Y
	if len(wall.Points) > 0 {
		wx, wy = (wall.Points[0][0]+wall.Points[1][0])/2, (wall.Points[0][1]+wall.Points[1][1])/2
	}
	for _, tc := range []struct {
		name string
		v    *plugins.VehicleDescriptor
		p    Pose
		want string // "" = free
	}{
		{"KS0223 ahead", ks, ahead, ""},
		{"car lengthwise ahead", car, ahead, ""},
		{"car across the corridor", car, Pose{X: ahead.X, Y: ahead.Y, Yaw: at.Yaw + math.Pi/2}, "would overlap"},
		{"on a wall", ks, Pose{X: wx, Y: wy}, "would overlap"},
		{"on the robot", ks, at, "would overlap"},
		{"on the ground past the floor", ks, Pose{X: at.X + 100, Y: at.Y}, ""},
	} {
		err := w.SpotFree(tc.v, tc.p)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s at %+v: %v, want %q", tc.name, tc.p, err, tc.want)
		}
	}
	if footprintRadius(car) <= 0.45/2 {
		t.Fatalf("the car's circle (%.2f m) fits the corridor: the lengthwise case proves nothing", footprintRadius(car))
	}
}

// A track without spawn points places its robots around the origin. An element over the
// origin (the editor's new element is a 1 m wall there; rusim's exports have no spawn points)
// blocked every cell: "0 of 1 vehicles ... fit on the free floor" on a 20 m floor. The grid
// now spreads out of what covers the origin and places the robot beside it.
func TestNoSpawnPointAndTheOriginCovered(t *testing.T) {
	v := builtinVehicle(t, "vehicle.ks0223.v1")
	for _, c := range []struct {
		name string
		e    plugins.Element
	}{
		{"a 1 m wall", plugins.Element{Kind: plugins.ElementWall, Name: "w1", Length: 1, Width: 0.1, Height: 0.3}},
		{"a 2.4 m box", plugins.Element{Kind: plugins.ElementBox, Name: "island", Length: 2.4, Width: 2.4, Height: 0.3}},
	} {
		tr := &plugins.TrackDescriptor{ID: "track.origin.v1", DisplayName: "Origin", Version: plugins.ContractVersion{Major: 1},
			Elements: []plugins.Element{c.e}}
		w, err := New(Config{Track: tr, BuildLayout: trackgen.Build, Seed: 1,
			Agents: []AgentSpec{{Name: "a0", Vehicle: v}, {Name: "a1", Vehicle: v}}})
		if err != nil {
			t.Errorf("%s over the origin: %v", c.name, err)
			continue
		}
		checkPlacement(t, w)
		if _, err := w.Spawn(AgentSpec{Name: "a2", Vehicle: v}); err != nil {
			t.Errorf("%s over the origin: spawn: %v", c.name, err)
		}
	}
}

// A scenario's KS0223 and an arcade car in the default corridor: the car's circle (0.6 m
// across) fits no cell of its 0.6 m leg, so it stands lengthwise ahead of the KS0223 on the
// spawn point's line, its outline clear of the walls and of the KS0223 ("0 of 1 vehicles fit"
// before). The short leg holds one car: for two, the error says so.
func TestScenarioCarsLengthwiseInTheCorridor(t *testing.T) {
	ks, car := builtinVehicle(t, "vehicle.ks0223.v1"), builtinVehicle(t, "vehicle.arcade.red.v1")
	build := func(cars int) (*World, error) {
		cfg := Config{Track: builtinTrack(t, "track.cardboard_corridor.v1"), BuildLayout: trackgen.Build, Seed: 3,
			Agents: []AgentSpec{{Name: "ego", Vehicle: ks}}}
		for i := range cars {
			cfg.Agents = append(cfg.Agents, AgentSpec{Name: fmt.Sprintf("car%d", i), Vehicle: car})
		}
		return New(cfg)
	}
	if 2*footprintRadius(car) < 0.6 {
		t.Fatalf("the car's circle (%.2f m) fits the corridor: the test proves nothing", 2*footprintRadius(car))
	}
	w, err := build(1)
	if err != nil {
		t.Fatal(err)
	}
	ego, c0 := w.Models()[0].Initial, w.Models()[1].Initial
	if math.Abs(c0.X-ego.X) > 1e-9 || c0.Yaw != ego.Yaw || c0.Y <= ego.Y {
		t.Fatalf("the car at %+v: want it ahead of the KS0223 at %+v, facing its way", c0, ego)
	}
	if err := w.SpotFree(car, c0); err == nil {
		t.Fatal("SpotFree takes a spot the car already stands on") // the check below proves nothing then
	}
	w.Remove("car0")
	if err := w.SpotFree(car, c0); err != nil {
		t.Fatalf("the car's spot %+v: %v", c0, err)
	}
	if _, err := build(2); err == nil || !strings.Contains(err.Error(), "2 of the 3 fit") {
		t.Fatalf("two cars in the corridor: %v", err)
	}
}
