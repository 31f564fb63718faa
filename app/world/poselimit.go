package world

import (
	"fmt"
	"math"
)

// MaxCoordinate bounds a pose set from outside (SetPose: /control teleport, the window), in
// metres from the origin along each axis, and MaxYaw its yaw in radians (any number of turns
// a client may have accumulated, but finite). Far beyond any track, they keep NaN, ±Inf and
// 1e308 out of the physics.
const (
	MaxCoordinate = 1e6
	MaxYaw        = 1e6
)

// CheckPose refuses a pose with a coordinate that is not a finite number within
// ±MaxCoordinate or a yaw not within ±MaxYaw.
func CheckPose(p Pose) error {
	for _, c := range [...]struct {
		name string
		v    float64
	}{{"x", p.X}, {"y", p.Y}, {"z", p.Z}} {
		if !(math.Abs(c.v) <= MaxCoordinate) {
			return fmt.Errorf("pose %s = %g m is not a number within ±%.0f m", c.name, c.v, float64(MaxCoordinate))
		}
	}
	if !(math.Abs(p.Yaw) <= MaxYaw) {
		return fmt.Errorf("pose yaw = %g rad is not a number within ±%.0f rad", p.Yaw, float64(MaxYaw))
	}
	return nil
}
