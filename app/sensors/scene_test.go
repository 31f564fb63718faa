package sensors

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"simgui/plugins"
	"simgui/render"
)

// TestVehicleLookFallsBack gives vehicles looks the renderer cannot build: each must still be
// drawn, with as much of its look as builds (an unknown material leaves the shape), and one
// warning saying what was left out.
func TestVehicleLookFallsBack(t *testing.T) {
	for _, c := range []struct {
		visual plugins.Visual
		as     string
		shape  string
	}{
		{plugins.Visual{Shape: "ks0223", Material: "nope"}, "without its materials", "ks0223"},
		{plugins.Visual{Shape: "ks0223", AccentMaterial: "nope"}, "without its materials", "ks0223"},
		{plugins.Visual{Shape: "hovercraft"}, "as a box", "box"},
	} {
		var log bytes.Buffer
		s := New(Options{Logger: slog.New(slog.NewTextHandler(&log, nil))})
		v := &plugins.VehicleDescriptor{ID: "vehicle.test.look.v1", Visual: &c.visual}
		m := s.scene.vehicleMesh(v)
		if m == nil {
			t.Fatalf("%+v: no mesh: the vehicle is invisible", c.visual)
		}
		spec := render.VehicleSpecFor(v)
		spec.Material, spec.AccentMaterial, spec.Shape = "", "", c.shape
		want, err := render.NewVehicleMesh(spec)
		if err != nil {
			t.Fatal(err)
		}
		glo, ghi := m.Bounds()
		wlo, whi := want.Bounds()
		if glo != wlo || ghi != whi || m.Triangles() != want.Triangles() {
			t.Errorf("%+v: drawn as %d triangles in %v..%v, want the %s shape's %d in %v..%v",
				c.visual, m.Triangles(), glo, ghi, c.shape, want.Triangles(), wlo, whi)
		}
		if got := log.String(); strings.Count(got, "vehicle drawn") != 1 || !strings.Contains(got, c.as) {
			t.Errorf("%+v: warned %q, want one warning saying %q", c.visual, got, c.as)
		}
		s.scene.vehicles = nil
		s.scene.vehicleMesh(v)
		if got := log.String(); strings.Count(got, "vehicle drawn") != 1 {
			t.Errorf("%+v: warned again for the same vehicle: %q", c.visual, got)
		}
	}
}
