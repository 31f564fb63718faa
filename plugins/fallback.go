package plugins

import (
	"slices"
	"strings"
)

// fallbackByDeviceType names the built-in whose simulation data stands in for descriptors of a
// device type that carry none (rusim Unity exports). Other device types use fallbackDefault.
var fallbackByDeviceType = map[string]string{
	"ground_robot_differential": "vehicle.ks0223.v1",
	"quadcopter":                "vehicle.drone.simple.v1",
}

const fallbackDefault = "vehicle.ks0223.v1"

// FallbackVehicle returns the simulation data simgui uses for a descriptor of deviceType that
// has none: a copy of the KS0223 for ground_robot_differential and unknown types, of the simple
// drone for quadcopter.
func FallbackVehicle(deviceType string) *VehicleDescriptor {
	id, ok := fallbackByDeviceType[deviceType]
	if !ok {
		id = fallbackDefault
	}
	v, err := Builtin().Vehicle(id)
	if err != nil {
		panic("plugins: fallback " + id + " is not built in") // the catalog tests keep it there
	}
	return v
}

// scalarKinds guesses the mount kind of a scalar contract sensor from words in its id, for
// contracts that come without mounts. Earlier entries win.
var scalarKinds = []struct{ word, kind string }{
	{"ultrasonic", "ultrasonic"}, {"sonar", "ultrasonic"}, {"range", "ultrasonic"},
	{"speed", "speedometer"}, {"velocity", "speedometer"},
	{"odom", "odometry"}, {"wheel", "odometry"},
	{"line", "line_tracker"},
	{"powertrain", "powertrain"},
	{"alti", "altimeter"}, {"height", "altimeter"},
	{"imu", "imu"}, {"gyro", "imu"}, {"accel", "imu"},
}

// colorWords gives rusim's colour variants their colour when a fallback draws them.
var colorWords = []struct{ word, color string }{
	{"green", "#2e9e48"}, {"blue", "#2a62c9"}, {"red", "#c8302c"}, {"gray", "#8a8d91"},
	{"grey", "#8a8d91"}, {"purple", "#7d3fb8"}, {"yellow", "#e8c22a"}, {"orange", "#ee7a1c"},
	{"white", "#e9e9e9"}, {"black", "#26282b"},
}

// WithFallback returns a copy of v with missing simulation data filled from
// FallbackVehicle(deviceType): body, drive and visual when nil, DeviceType from the contract,
// and a mount for each contract sensor without one. Mounts come from the fallback's sensor of
// the same id, else by type: cameras take the fallback camera's pose and parameters, depth,
// lidar and imu sensors a mount of that kind, scalar sensors a kind guessed from their id
// (speed → speedometer, ultrasonic/sonar/range → ultrasonic, odom → odometry, ...). A scalar
// sensor whose id gives no hint stays unmounted, so CheckSimulation reports it. The fallback's
// other sensors and actuators are added too (addFallbackDevices). A colour word in the id
// (green, red, ...) colours the fallback visual.
func (v *VehicleDescriptor) WithFallback() *VehicleDescriptor {
	out := v.Clone()
	if out.DeviceType == "" && out.Contract != nil {
		out.DeviceType = out.Contract.DeviceType
	}
	fb := FallbackVehicle(out.DeviceType)
	if out.Body == nil {
		out.Body = fb.Body
	}
	if out.Drive == nil {
		out.Drive = fb.Drive
	}
	if out.Visual == nil {
		out.Visual = fb.Visual
		for _, cw := range colorWords {
			if strings.Contains(out.ID, cw.word) {
				out.Visual.Color = cw.color
				break
			}
		}
	}
	if out.Contract == nil {
		return out
	}
	mounted := map[string]bool{}
	for _, m := range out.Sensors {
		mounted[m.ID] = true
	}
	for _, s := range out.Contract.Sensors {
		if mounted[s.ID] {
			continue
		}
		if m, ok := fallbackMount(fb, s); ok {
			out.Sensors = append(out.Sensors, m)
			mounted[s.ID] = true
		}
	}
	addFallbackDevices(out, fb)
	return out
}

// addFallbackDevices gives v the fallback's sensors of the kinds v mounts none of, with their
// contract entries, and the fallback's actuators v's contract lacks (by id): rusim runs a
// ground car it has no simulation data for on the KS0223's controller, sensors and telemetry
// whatever its exported contract lists (an SDK export's template has a camera and a
// speedometer), and its clients read the sonar, line tracker and power keys. An id v's
// contract has already is left to v.
func addFallbackDevices(v, fb *VehicleDescriptor) {
	kinds := map[string]bool{}
	for _, m := range v.Sensors {
		kinds[m.Kind] = true
	}
	for _, m := range fb.Sensors {
		if kinds[m.Kind] || v.Contract.sensor(m.ID) != nil {
			continue
		}
		s := fb.Contract.sensor(m.ID)
		if s == nil {
			continue
		}
		v.Contract.Sensors = append(v.Contract.Sensors, *s)
		v.Sensors = append(v.Sensors, m)
		kinds[m.Kind] = true
	}
	for _, a := range fb.Contract.Actuators {
		if !slices.ContainsFunc(v.Contract.Actuators, func(b ActuatorDescriptor) bool { return b.ID == a.ID }) {
			v.Contract.Actuators = append(v.Contract.Actuators, a)
		}
	}
}

// fallbackMount picks a mount for contract sensor s from fallback vehicle fb.
func fallbackMount(fb *VehicleDescriptor, s SensorDescriptor) (SensorMount, bool) {
	byKind := func(kind string) SensorMount {
		for _, m := range fb.Sensors {
			if m.Kind == kind {
				m.ID = s.ID
				return m
			}
		}
		return SensorMount{ID: s.ID, Kind: kind, Pose: Pose3{Z: fb.Body.Height}}
	}
	for _, m := range fb.Sensors {
		if m.ID == s.ID {
			return m, true
		}
	}
	switch s.SensorType {
	case SensorCamera, SensorDepth, SensorLidar, SensorIMU:
		return byKind(s.SensorType), true
	}
	id := strings.ToLower(s.ID)
	for _, sk := range scalarKinds {
		if strings.Contains(id, sk.word) {
			return byKind(sk.kind), true
		}
	}
	return SensorMount{}, false
}
