package world

import (
	"testing"

	"simgui/physics"
	"simgui/physics/drive"
	"simgui/plugins"
)

// A drone coming down over a building lands on its roof and stops descending (it sank into
// the building to its minimum altitude: physics lets a flyer over anything lower than its
// base, then cannot push it out from the middle of a roof); one beside the building comes
// down to its minimum altitude; from the roof it flies off and down again. In both physics
// modes.
func TestFlyerLandsOnWhatItIsOver(t *testing.T) {
	track := &plugins.TrackDescriptor{ID: "track.test.roof.v1", Elements: []plugins.Element{
		{Kind: "box", Name: "building", Length: 4, Width: 4, Height: 3},
	}}
	layout := func(t *plugins.TrackDescriptor, _ map[string]any, _ int64) (*plugins.Layout, error) {
		return &plugins.Layout{Elements: t.Elements}, nil
	}
	drone := builtinVehicle(t, "vehicle.drone.simple.v1")
	for _, mode := range []physics.Mode{physics.Dynamic, physics.Kinematic} {
		t.Run(mode.String(), func(t *testing.T) {
			w, err := New(Config{Track: track, BuildLayout: layout, Seed: 1, Physics: mode, Agents: []AgentSpec{
				{Name: "over", Vehicle: drone, Spawn: &Pose{Z: 5}},
				{Name: "beside", Vehicle: drone, Spawn: &Pose{Y: 4, Z: 5}},
			}})
			if err != nil {
				t.Fatal(err)
			}
			down := drive.Command{Vertical: -1}
			w.SetCommand("over", down)
			w.SetCommand("beside", down)
			for range 800 { // 4 s: 2.5 m/s down is more than enough
				w.Step()
			}
			s := w.Snapshot()
			over, _ := s.Model("over")
			beside, _ := s.Model("beside")
			if over.Pose.Z != 3 || over.Climb != 0 {
				t.Errorf("over the building: altitude %.3f m, climb %.2f m/s; want on its roof (3 m), still", over.Pose.Z, over.Climb)
			}
			if beside.Pose.Z != 0.35 {
				t.Errorf("beside the building: altitude %.3f m, want the minimum 0.35 m", beside.Pose.Z)
			}
			// Off the roof (its edge 2 m away) and down to the minimum.
			w.SetCommand("over", drive.Command{Throttle: 1, Vertical: -1})
			for range 800 {
				w.Step()
			}
			if m, _ := w.Snapshot().Model("over"); m.Pose.X < 2.2 || m.Pose.Z != 0.35 {
				t.Errorf("flown off the roof: at x %.2f m, altitude %.3f m; want past its edge (2 m) at 0.35 m", m.Pose.X, m.Pose.Z)
			}
		})
	}
}
