package api

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"simgui/app/world"
	"simgui/physics/drive"
	"simgui/plugins"
)

// Conversions at the API edge between rusim's Unity axes (y up, z forward = north, yaw
// clockwise from +z) and the world frame (x east, y north, z up, yaw counter-clockwise from
// +x): x = x_unity, y = z_unity, yaw = π/2 − yaw_unity (docs/ARCHITECTURE.md).

// unityPosition returns a world pose's position in Unity axes: y is the altitude of the base.
func unityPosition(p world.Pose) Vec3 { return Vec3{X: Float(p.X), Y: Float(p.Z), Z: Float(p.Y)} }

// unityRotation returns the rotation of a world yaw as a Unity quaternion: a turn of
// yaw_unity = π/2 − yaw about Unity's +y, with w ≥ 0. rusim's clients read the heading back as
// atan2(2(wy+xz), 1−2(y²+z²)) = yaw_unity.
func unityRotation(yaw float64) Quat {
	yu := world.WrapAngle(math.Pi/2 - yaw)
	s, c := math.Sincos(yu / 2)
	return Quat{Y: Float(s), W: Float(c)}
}

// unityVelocity returns a world velocity (vx east, vy north, climb) in Unity axes.
func unityVelocity(vx, vy, climb float64) Vec3 {
	return Vec3{X: Float(vx), Y: Float(climb), Z: Float(vy)}
}

// unityAngularVelocity returns a world yaw rate (rad/s, counter-clockwise) as Unity's angular
// velocity: +y turns clockwise seen from above, so y = −yawRate.
func unityAngularVelocity(yawRate float64) Vec3 { return Vec3{Y: Float(zeroSafe(-yawRate))} }

// zeroSafe turns −0 into 0 so that JSON never shows "-0".
func zeroSafe(x float64) float64 {
	if x == 0 {
		return 0
	}
	return x
}

// rusim's discrete actions (DirStop, ...) as rusim throttle and steer (steer > 0 turns right).
var discreteActions = map[string][2]float64{
	"DirStop":    {0, 0},
	"DirForward": {1, 0},
	"DirBack":    {-1, 0},
	"DirLeft":    {0.5, -1},
	"DirRight":   {0.5, 1},
}

// Extension keys of a step.
const (
	extLeftPWM  = "drive.left_pwm_norm"
	extRightPWM = "drive.right_pwm_norm"
	// extVertical is a simgui extension for flying vehicles: climb −1..1.
	extVertical = plugins.ActuatorVertical
)

// motorEcho is the command telemetry echoes, clamped as applied: drive.left_pwm_norm and
// drive.right_pwm_norm (the motor commands in rusim's naming) and control.vertical_norm.
type motorEcho struct{ left, right, vertical float64 }

// commandFrom turns a rusim ControlCommand into a drive command and the motor echo.
//
// rusim mixes left = throttle − steer, right = throttle + steer and turns RIGHT for steer > 0
// (and for right > left), the reverse of a real differential drive; simgui's drive models turn
// left for steer > 0 and right > left (drive.Command). So the sign of steer flips here, and
// rusim's left and right PWM values drive simgui's right and left motors: the same command
// turns the vehicle the same way in both simulators. Telemetry echoes the values in rusim's
// naming.
func commandFrom(throttle, steer, brake float64, discrete string, ext []KV) (drive.Command, motorEcho, error) {
	if discrete != "" && throttle == 0 && steer == 0 {
		// An unknown one is ignored, as Unity ignores every discreteAction: the agent gets 0/0.
		a := discreteActions[discrete]
		throttle, steer = a[0], a[1]
	}
	throttle, steer, brake = clamp(throttle, -1, 1), clamp(steer, -1, 1), clamp(brake, 0, 1)
	cmd := drive.Command{Throttle: throttle, Steer: -steer, Brake: brake}
	echo := motorEcho{left: clamp(throttle-steer, -1, 1), right: clamp(throttle+steer, -1, 1)}
	ls, okL := kvLookup(ext, extLeftPWM)
	rs, okR := kvLookup(ext, extRightPWM)
	if okL && okR {
		l, err := parseNorm(extLeftPWM, ls)
		if err != nil {
			return drive.Command{}, motorEcho{}, err
		}
		r, err := parseNorm(extRightPWM, rs)
		if err != nil {
			return drive.Command{}, motorEcho{}, err
		}
		cmd.Wheels, cmd.Left, cmd.Right = true, r, l
		// Drives without motors of their own (ackermann, quadcopter) take the mix instead.
		cmd.Throttle, cmd.Steer = (l+r)/2, (l-r)/2
		echo = motorEcho{left: l, right: r}
	}
	if vs, ok := kvLookup(ext, extVertical); ok {
		v, err := parseNorm(extVertical, vs)
		if err != nil {
			return drive.Command{}, motorEcho{}, err
		}
		cmd.Vertical, echo.vertical = v, v
	}
	return cmd, echo, nil
}

func parseNorm(key, s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	// Go reads hexadecimal floats ("0x1p-1"), which rusim's parser does not.
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || strings.ContainsAny(s, "xX") {
		//lint:ignore ST1005 rusim's own wording, which its clients and users know
		return 0, fmt.Errorf("Extension %s: '%s' is not a number.", key, s)
	}
	return clamp(v, -1, 1), nil
}

func clamp(v, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, v)) }
