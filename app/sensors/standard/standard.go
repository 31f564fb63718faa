package standard

import (
	// Built-in sensor kinds, one per line, sorted.
	_ "simgui/app/sensors/camera"
	_ "simgui/app/sensors/depth"
	_ "simgui/app/sensors/imu"
	_ "simgui/app/sensors/lidar"
	_ "simgui/app/sensors/scalar"
)
