package sensors

import (
	"fmt"
	"slices"
	"testing"

	"simgui/app/world"
	"simgui/physics/drive"
	"simgui/plugins"
	"simgui/render"
)

// sharedViewWorld is a world of n sensorless KS0223s in a row on an open floor, with a
// sensors system (HidePeers as given), stepped once.
func sharedViewWorld(t *testing.T, n int, hidePeers bool) (*world.World, *System) {
	t.Helper()
	v, err := plugins.Builtin().Vehicle("vehicle.ks0223.v1")
	if err != nil {
		t.Fatal(err)
	}
	v = v.Clone()
	c := *v.Contract
	c.Sensors, v.Sensors = nil, nil
	v.Contract = &c
	var agents []world.AgentSpec
	for i := range n {
		agents = append(agents, world.AgentSpec{Name: fmt.Sprintf("r%d", i), Vehicle: v, Spawn: &world.Pose{X: float64(i)}})
	}
	layout := &plugins.Layout{Floor: plugins.Floor{Length: 20, Width: 20, Texture: "plywood"}}
	w, err := world.New(world.Config{Track: &plugins.TrackDescriptor{ID: "track.sharedview.v1"}, Seed: 1, Agents: agents,
		BuildLayout: func(*plugins.TrackDescriptor, map[string]any, int64) (*plugins.Layout, error) { return layout, nil }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	s := New(Options{HidePeers: hidePeers})
	if err := w.AddSystem(s, world.SystemOptions{Name: "sensors"}); err != nil {
		t.Fatal(err)
	}
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	w.Step()
	return w, s
}

// The cameras of one step share one copy of the step's scene (a copy each made a fleet's
// queued shots hold N objects apiece, N² in all), which holds what each camera's own copy
// did, cannot be appended to in place, and keeps the poses of its step while the world
// moves on.
func TestShotsOfAStepShareItsScene(t *testing.T) {
	w, s := sharedViewWorld(t, 3, false)
	ctx := func(name string) *Context { return &Context{World: w, Model: w.Model(name), sys: s} }
	a, err := ctx("r0").SharedViewIn(nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ctx("r2").SharedViewIn(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Objects) != 3 || &a.Objects[0] != &b.Objects[0] {
		t.Fatalf("two cameras' shots of one step: %d objects at %p and %p, want the 3 robots in one slice",
			len(a.Objects), &a.Objects[0], &b.Objects[0])
	}
	if cap(a.Objects) != len(a.Objects) {
		t.Fatalf("the shared objects have room for %d more: an append would write into the next shot's", cap(a.Objects)-len(a.Objects))
	}
	own, err := ctx("r0").ViewIn(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(own.Objects, a.Objects) {
		t.Fatalf("shared %+v, a camera's own view %+v", a.Objects, own.Objects)
	}
	before := slices.Clone(a.Objects)
	for _, m := range w.Models() {
		if err := w.SetCommand(m.Name, drive.Command{Throttle: 1, Steer: 0.5}); err != nil {
			t.Fatal(err)
		}
	}
	for range 40 {
		w.Step()
		if _, err := ctx("r1").SharedViewIn(nil); err != nil { // later shots, as a fleet's cameras take them
			t.Fatal(err)
		}
	}
	if !slices.Equal(a.Objects, before) {
		t.Fatalf("an earlier step's shot changed as the world moved on: %+v, taken as %+v", a.Objects, before)
	}
	c, err := ctx("r0").SharedViewIn(nil)
	if err != nil {
		t.Fatal(err)
	}
	if &c.Objects[0] == &a.Objects[0] || c.Objects[0].Pose == a.Objects[0].Pose {
		t.Fatalf("a shot 40 steps later has r0 at %+v, in the slice of the first (%v)", c.Objects[0].Pose, &c.Objects[0] == &a.Objects[0])
	}
}

// A camera that does not see the other vehicles gets its own vehicle only.
func TestSharedViewWithoutPeers(t *testing.T) {
	w, s := sharedViewWorld(t, 3, true)
	v, err := (&Context{World: w, Model: w.Model("r1"), sys: s}).SharedViewIn(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := render.Pose{X: 1}
	if len(v.Objects) != 1 || v.Objects[0].X != want.X {
		t.Fatalf("r1's camera without peers sees %+v, want r1 alone", v.Objects)
	}
}
