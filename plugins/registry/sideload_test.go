package registry

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"simgui/app"
	"simgui/app/scenario"
	"simgui/physics/drive"
	"simgui/plugins"
)

// A registry sees what another process (here: another Registry on the same home) installs
// and removes, and Version tells a spawn list when to refresh.
func TestSideLoading(t *testing.T) {
	sim := newRegistry(t)              // the running simulation's view
	cli := Open(sim.Home(), Options{}) // `simgui plugin` in another process
	v0 := sim.Version()
	if v0 != sim.Version() {
		t.Fatal("Version changed with nothing installed")
	}
	if _, err := sim.Vehicle("vehicle.acme.rover.v1"); !errors.Is(err, plugins.ErrUnknownPlugin) {
		t.Fatalf("before install: %v", err)
	}
	mustInstall(t, cli, projectZip(t, plugins.TypeVehicle, "vehicle.acme.rover.v1"), InstallOptions{})
	v1 := sim.Version()
	if v1 == v0 {
		t.Error("Version did not change after an install")
	}
	if _, err := sim.Vehicle("vehicle.acme.rover.v1"); err != nil {
		t.Fatalf("after install: %v", err)
	}
	if _, err := cli.Remove("vehicle.acme.rover.v1"); err != nil {
		t.Fatal(err)
	}
	if sim.Version() == v1 {
		t.Error("Version did not change after a remove")
	}
	if _, err := sim.Vehicle("vehicle.acme.rover.v1"); !errors.Is(err, plugins.ErrUnknownPlugin) {
		t.Errorf("after remove: %v", err)
	}
}

// A scenario resolves an installed vehicle and track; the simulation keeps running after
// they are removed, and its next reset fails naming the plugin, leaving the world as it was;
// once reinstalled, reset works again.
func TestRemovedPluginRunsUntilReset(t *testing.T) {
	reg := newRegistry(t)
	cli := Open(reg.Home(), Options{})
	mustInstall(t, cli, projectZip(t, plugins.TypeVehicle, "vehicle.acme.rover.v1"), InstallOptions{})
	trackZip := projectZip(t, plugins.TypeTrack, "track.yard.v1")
	mustInstall(t, cli, trackZip, InstallOptions{})

	sc, err := scenario.Parse([]byte("world: {trackId: track.yard.v1}\nvehicle: {vehicleId: vehicle.acme.rover.v1}\n"), "sideload.yaml")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := scenario.Resolve(sc, reg)
	if err != nil {
		t.Fatal(err)
	}
	s, err := app.Build(plan, app.BuildOptions{Plugins: reg, Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	w := s.World
	w.SetCommand("ego", drive.Command{Throttle: 0.5})
	for range 200 {
		w.Step()
	}
	if _, err := cli.Remove("track.yard.v1"); err != nil {
		t.Fatal(err)
	}
	for range 200 {
		w.Step() // still running
	}
	m := w.Model("ego")
	y := m.Body.Pose().Y
	if y < -2.2+0.3 {
		t.Fatalf("the rover did not drive: y=%.3f", y)
	}
	err = w.Reset(1)
	if err == nil || err.Error() != "reset: plugin track.yard.v1 is no longer installed: reinstall it (simgui plugin install) or load another scenario" {
		t.Fatalf("reset after remove: %v", err)
	}
	if w.StepCount() != 400 || w.Model("ego").Body.Pose().Y != y {
		t.Error("the failed reset changed the world")
	}
	mustInstall(t, cli, trackZip, InstallOptions{})
	if err := w.Reset(1); err != nil || w.StepCount() != 0 {
		t.Fatalf("reset after reinstall: %v (step %d)", err, w.StepCount())
	}
}

// Lookups from many goroutines while another registry installs and removes: no races, no
// torn reads.
func TestConcurrentLookupsDuringChanges(t *testing.T) {
	reg := newRegistry(t)
	cli := Open(reg.Home(), Options{})
	zip := projectZip(t, plugins.TypeVehicle, "vehicle.acme.rover.v1")
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				v, err := reg.Vehicle("vehicle.acme.rover.v1")
				if err != nil && !errors.Is(err, plugins.ErrUnknownPlugin) && !strings.Contains(err.Error(), "read the installed files") {
					t.Error(err)
					return
				}
				if err == nil && v.ID != "vehicle.acme.rover.v1" {
					t.Errorf("got %s", v.ID)
				}
				reg.Version()
			}
		})
	}
	for range 10 {
		mustInstall(t, cli, zip, InstallOptions{})
		if _, err := cli.Remove("vehicle.acme.rover.v1"); err != nil {
			t.Error(err)
		}
	}
	close(stop)
	wg.Wait()
}
