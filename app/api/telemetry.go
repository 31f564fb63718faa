package api

import (
	"fmt"
	"slices"
	"strings"

	"simgui/app/sensors"
	"simgui/app/transport/msgs"
	"simgui/plugins"
)

// Telemetry keys, in the order rusim's KS0223 reports them. The PWM echo's keys are the
// extensions' (extLeftPWM, extRightPWM): the command echoed under its own name.
const (
	telSpeed    = "sensor.speedometer.mps"
	telSonar    = "sensor.ultrasonic.front.m"
	telVoltage  = "power.battery.voltage_v"
	telCurrent  = "power.battery.current_a"
	telMotorW   = "power.motor.estimated_w"
	telLinePfx  = "sensor.line_tracker.s"
	telLineSufx = "_norm"
)

// lineKey is the key of line-tracker probe i (0-based): sensor.line_tracker.s<i+1>_norm.
func lineKey(i int) string { return fmt.Sprintf("%s%d%s", telLinePfx, i+1, telLineSufx) }

// sensorFields names the values of the sensor kinds rusim has no keys for, in the order of
// their contract's values; each mount of such a kind reports sensor.<id>.<field>, id being
// its contract sensor id, as rusim's sensor.ultrasonic.front.m is the contract's
// ultrasonic.front. Units follow rusim's suffixes (mps for m/s). Array sensors (camera, depth,
// lidar) are not telemetry: a map of strings is no place for hundreds of values.
var sensorFields = map[string][]string{
	"imu":       {"ax_mps2", "ay_mps2", "az_mps2", "wx_radps", "wy_radps", "wz_radps"},
	"altimeter": {"m"},
	"odometry":  {"left_m", "right_m"},
}

// sensorRig names the vehicle's sensors telemetry reports: the first mount of each kind rusim
// reports, under rusim's keys, then every mount of the kinds of sensorFields, and which
// commands its contract's actuators say to echo.
type sensorRig struct {
	speedometer, ultrasonic, lineTracker, powertrain string
	// pwm echoes drive.left/right_pwm_norm (the contract has both actuators); vertical echoes
	// control.vertical_norm (the contract has it): a quadcopter has no motors to echo.
	pwm, vertical bool
	others        []telSensor
}

// telSensor is a mount reported under sensor.<id>.<field>: keys, one per value.
type telSensor struct {
	id   string
	keys []string
}

func newSensorRig(v *plugins.VehicleDescriptor) sensorRig {
	var r sensorRig
	if c := v.Contract; c != nil {
		has := func(id string) bool {
			return slices.ContainsFunc(c.Actuators, func(a plugins.ActuatorDescriptor) bool { return a.ID == id })
		}
		r.pwm = has(extLeftPWM) && has(extRightPWM)
		r.vertical = has(extVertical)
	}
	for _, m := range v.Sensors {
		var dst *string
		switch m.Kind {
		case "speedometer":
			dst = &r.speedometer
		case "ultrasonic":
			dst = &r.ultrasonic
		case "line_tracker":
			dst = &r.lineTracker
		case "powertrain":
			dst = &r.powertrain
		}
		if dst != nil && *dst == "" {
			*dst = m.ID
		}
		if fields := sensorFields[m.Kind]; fields != nil {
			s := telSensor{id: m.ID}
			for _, f := range fields {
				s.keys = append(s.keys, "sensor."+m.ID+"."+f)
			}
			// A plugin's ids are its author's: an altimeter called ultrasonic.front would
			// shadow rusim's sonar key in a client's map. rusim's keys win; the mount is left out.
			if !slices.ContainsFunc(s.keys, isRusimKey) {
				r.others = append(r.others, s)
			}
		}
	}
	return r
}

// isRusimKey reports whether key is one of rusim's telemetry keys.
func isRusimKey(key string) bool {
	switch key {
	case extLeftPWM, extRightPWM, extVertical, telSpeed, telSonar, telVoltage, telCurrent, telMotorW:
		return true
	}
	return strings.HasPrefix(key, telLinePfx) && strings.HasSuffix(key, telLineSufx)
}

// read returns rusim's telemetry of agent: the command echo of the actuators the contract
// lists (drive.left_pwm_norm and drive.right_pwm_norm in rusim's naming; control.vertical_norm),
// then the latest reading of each sensor the vehicle has (at its contract rate, with its
// noise): the speedometer (forward speed, m/s), the ultrasonic range (rangeMax when nothing
// echoes), the line-tracker probes (s1 leftmost), the powertrain estimate (battery V, A, motor
// W), then the others' values (sensorFields). A sensor without a reading yet (at reset) is
// fired once. Values have at most three decimals. Loop goroutine only.
func (r *sensorRig) read(sys *sensors.System, agent string, echo motorEcho) ([]KV, error) {
	kv := make([]KV, 0, 16)
	buf := make([]float64, 0, 8) // each sensor's values in turn
	if r.pwm {
		kv = append(kv, KV{extLeftPWM, KVValue(fmt3(echo.left))}, KV{extRightPWM, KVValue(fmt3(echo.right))})
	}
	if r.vertical {
		kv = append(kv, KV{extVertical, KVValue(fmt3(echo.vertical))})
	}
	for _, s := range []struct {
		id   string
		keys func(i int) string
	}{
		{r.speedometer, func(int) string { return telSpeed }},
		{r.ultrasonic, func(int) string { return telSonar }},
		{r.lineTracker, lineKey},
		{r.powertrain, func(i int) string { return [...]string{telVoltage, telCurrent, telMotorW}[min(i, 2)] }},
	} {
		if s.id == "" {
			continue
		}
		vals, err := latest(sys, agent, s.id, buf[:0])
		if err != nil {
			return nil, err
		}
		if s.id == r.powertrain {
			vals = vals[:min(len(vals), 3)]
		}
		for i, x := range vals {
			kv = append(kv, KV{s.keys(i), KVValue(fmt3(x))})
		}
	}
	for _, s := range r.others {
		vals, err := latest(sys, agent, s.id, buf[:0])
		if err != nil {
			return nil, err
		}
		for i, x := range vals[:min(len(vals), len(s.keys))] {
			kv = append(kv, KV{s.keys[i], KVValue(fmt3(x))})
		}
	}
	return kv, nil
}

// latest appends a sensor's latest values to buf, firing it first when it has none: a scalar
// sensor's numbers, or an IMU's ax, ay, az, wx, wy, wz (its contract's six values; the
// orientation is not among them).
func latest(sys *sensors.System, agent, id string, buf []float64) ([]float64, error) {
	rd, ok := sys.Latest(agent, id)
	if !ok {
		if err := sys.FireNow(agent, id); err != nil {
			return nil, err
		}
		if rd, ok = sys.Latest(agent, id); !ok {
			return nil, fmt.Errorf("sensor %s of %s gave no reading", id, agent)
		}
	}
	switch m := rd.Msg.(type) {
	case *msgs.Float_V:
		for _, x := range m.Data {
			buf = append(buf, float64(x))
		}
		return buf, nil
	case *msgs.IMU:
		a, w := m.GetLinearAcceleration(), m.GetAngularVelocity()
		return append(buf, a.GetX(), a.GetY(), a.GetZ(), w.GetX(), w.GetY(), w.GetZ()), nil
	}
	return nil, fmt.Errorf("sensor %s of %s reads %T, not scalars", id, agent, rd.Msg)
}
