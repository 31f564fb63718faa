package standard

import (
	"testing"

	"simgui/app/sensors"
	"simgui/plugins"
)

// Every mount kind of the plugins parameter table has an implementation, and no other kinds
// are registered.
func TestEveryMountKindRegistered(t *testing.T) {
	var have []string
	for _, k := range sensors.Kinds() {
		have = append(have, k.Name)
	}
	want := plugins.SensorKinds()
	if len(have) != len(want) {
		t.Fatalf("registered %v, plugins table %v", have, want)
	}
	for i := range want {
		if have[i] != want[i] {
			t.Fatalf("registered %v, plugins table %v", have, want)
		}
	}
}
