package standard

import (
	// Built-in systems, one per line, sorted.
	_ "simgui/app/systems/clock"
	_ "simgui/app/systems/follower"
	_ "simgui/app/systems/gztopics"
	_ "simgui/app/systems/odometry"
	_ "simgui/app/systems/timeline"
)
