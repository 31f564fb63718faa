package registry

import (
	"testing"

	"simgui/plugins"
)

// BenchmarkVersion is what a spawn list pays to poll for changes: one stat.
func BenchmarkVersion(b *testing.B) {
	r := Open(b.TempDir(), Options{})
	mustInstall(b, r, projectZip(b, plugins.TypeVehicle, "vehicle.acme.rover.v1"), InstallOptions{})
	r.Version()
	for b.Loop() {
		r.Version()
	}
}

// BenchmarkVehicleLookup resolves an installed vehicle (loaded once, then a stat and a copy
// per lookup) — what every scenario resolution and world reset does per vehicle id.
func BenchmarkVehicleLookup(b *testing.B) {
	r := Open(b.TempDir(), Options{})
	mustInstall(b, r, projectZip(b, plugins.TypeVehicle, "vehicle.acme.rover.v1"), InstallOptions{})
	for b.Loop() {
		if _, err := r.Vehicle("vehicle.acme.rover.v1"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkInstall is one install: read, validate, lock, unpack, rename, write the registry.
func BenchmarkInstall(b *testing.B) {
	r := Open(b.TempDir(), Options{})
	zip := projectZip(b, plugins.TypeVehicle, "vehicle.acme.rover.v1")
	for b.Loop() {
		mustInstall(b, r, zip, InstallOptions{})
	}
}
