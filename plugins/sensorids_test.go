package plugins

import (
	"strings"
	"testing"
)

// A sensor id given twice (in the contract and the mounts, as the editor's one row writes
// both) is reported where it is, without the shape mismatch of holding a mount against the
// other sensor of that id.
func TestSensorIDTwice(t *testing.T) {
	ks, err := Builtin().Vehicle("vehicle.ks0223.v1")
	if err != nil {
		t.Fatal(err)
	}
	v := ks.Clone()
	cam := -1
	for i, s := range v.Contract.Sensors {
		if s.SensorType == SensorCamera {
			cam = i
		}
	}
	other := (cam + 1) % len(v.Contract.Sensors)
	id := v.Contract.Sensors[cam].ID
	for i := range v.Sensors {
		if v.Sensors[i].ID == v.Contract.Sensors[other].ID {
			v.Sensors[i].ID = id
		}
	}
	v.Contract.Sensors[other].ID = id
	ps := ValidateVehicle(nil, v)
	var twice, mismatch bool
	for _, p := range ps.Errors() {
		twice = twice || strings.Contains(p.Message, "already the id of") || strings.Contains(p.Message, "mounted twice")
		mismatch = mismatch || strings.Contains(p.Message, "holds")
	}
	if !twice || mismatch {
		t.Errorf("sensor %q twice: %v", id, ps.Errors())
	}
}
