package standard

import (
	// Built-in systems, one per line, sorted.
	_ "simgui/app/systems/follower"
	_ "simgui/app/systems/timeline"
)
