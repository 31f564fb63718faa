package scenario

import (
	"slices"

	"simgui/plugins"
)

// Mount kinds that the sensors block turns off.
const (
	kindCamera      = "camera"
	kindLineTracker = "line_tracker"
	kindUltrasonic  = "ultrasonic"
)

// telemetryProfile returns sensors.telemetry.profile, "" when absent.
func (s *Sensors) telemetryProfile() string {
	if s == nil || s.Telemetry == nil {
		return ""
	}
	return s.Telemetry.Profile
}

// cameraProfile returns sensors.camera.profile, "" when absent.
func (s *Sensors) cameraProfile() string {
	if s == nil || s.Camera == nil {
		return ""
	}
	return s.Camera.Profile
}

// off returns the mount kinds the block turns off (enabled: false).
func (s *Sensors) off() []string {
	if s == nil {
		return nil
	}
	var kinds []string
	if c := s.Camera; c != nil && c.Enabled != nil && !*c.Enabled {
		kinds = append(kinds, kindCamera)
	}
	if l := s.LineTracker; l != nil && l.Enabled != nil && !*l.Enabled {
		kinds = append(kinds, kindLineTracker)
	}
	if u := s.Ultrasonic; u != nil && u.Enabled != nil && !*u.Enabled {
		kinds = append(kinds, kindUltrasonic)
	}
	return kinds
}

// apply returns v without the sensors the block turns off: their mounts and their device
// contract entries, so they give no readings, no telemetry and no bridge device. A sensor the
// vehicle does not have is nothing to turn off; enabled: true keeps what the vehicle has.
func (s *Sensors) apply(v *plugins.VehicleDescriptor) *plugins.VehicleDescriptor {
	kinds := s.off()
	if len(kinds) == 0 || !slices.ContainsFunc(v.Sensors, func(m plugins.SensorMount) bool { return slices.Contains(kinds, m.Kind) }) {
		return v
	}
	out := v.Clone()
	var gone []string
	out.Sensors = slices.DeleteFunc(out.Sensors, func(m plugins.SensorMount) bool {
		if slices.Contains(kinds, m.Kind) {
			gone = append(gone, m.ID)
			return true
		}
		return false
	})
	if out.Contract != nil {
		out.Contract.Sensors = slices.DeleteFunc(out.Contract.Sensors, func(cs plugins.SensorDescriptor) bool {
			return slices.Contains(gone, cs.ID)
		})
	}
	return out
}
