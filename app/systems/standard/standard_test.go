package standard

import (
	"slices"
	"testing"

	"simgui/app/systems"
)

// Importing the package registers every built-in system.
func TestBuiltinsRegistered(t *testing.T) {
	for _, id := range []string{"systems.gz_topics", "systems.odometry", "systems.timeline_publisher", "systems.world_clock"} {
		if !slices.Contains(systems.IDs(), id) {
			t.Errorf("%s is not registered (have %v)", id, systems.IDs())
		}
	}
}
