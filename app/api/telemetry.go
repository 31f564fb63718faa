package api

import (
	"fmt"

	"simgui/app/sensors"
	"simgui/app/transport/msgs"
	"simgui/plugins"
)

// Telemetry keys, in the order rusim's KS0223 reports them.
const (
	telLeftPWM  = "drive.left_pwm_norm"
	telRightPWM = "drive.right_pwm_norm"
	telSpeed    = "sensor.speedometer.mps"
	telSonar    = "sensor.ultrasonic.front.m"
	telVoltage  = "power.battery.voltage_v"
	telCurrent  = "power.battery.current_a"
	telMotorW   = "power.motor.estimated_w"
)

// lineKey is the key of line-tracker probe i (0-based): sensor.line_tracker.s<i+1>_norm.
func lineKey(i int) string { return fmt.Sprintf("sensor.line_tracker.s%d_norm", i+1) }

// sensorRig names the vehicle's sensors telemetry reports: the first mount of each kind.
type sensorRig struct {
	speedometer, ultrasonic, lineTracker, powertrain string
}

func newSensorRig(v *plugins.VehicleDescriptor) sensorRig {
	var r sensorRig
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
	}
	return r
}

// read returns rusim's telemetry of agent: the motor command echo (rusim's naming), then the
// latest reading of each sensor the vehicle has (at its contract rate, with its noise): the
// speedometer (forward speed, m/s), the ultrasonic range (rangeMax when nothing echoes), the
// line-tracker probes (s1 leftmost) and the powertrain estimate (battery V, A, motor W). A
// sensor without a reading yet (at reset) is fired once. Values have at most three decimals.
// Loop goroutine only.
func (r *sensorRig) read(sys *sensors.System, agent string, echo motorEcho) ([]KV, error) {
	kv := make([]KV, 0, 12)
	kv = append(kv, KV{telLeftPWM, KVValue(fmt3(echo.left))}, KV{telRightPWM, KVValue(fmt3(echo.right))})
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
		vals, err := latest(sys, agent, s.id)
		if err != nil {
			return nil, err
		}
		if s.id == r.powertrain {
			vals = vals[:min(len(vals), 3)]
		}
		for i, x := range vals {
			kv = append(kv, KV{s.keys(i), KVValue(fmt3(float64(x)))})
		}
	}
	return kv, nil
}

// latest returns a scalar sensor's latest values, firing it first when it has none.
func latest(sys *sensors.System, agent, id string) ([]float32, error) {
	rd, ok := sys.Latest(agent, id)
	if !ok {
		if err := sys.FireNow(agent, id); err != nil {
			return nil, err
		}
		if rd, ok = sys.Latest(agent, id); !ok {
			return nil, fmt.Errorf("sensor %s of %s gave no reading", id, agent)
		}
	}
	v, ok := rd.Msg.(*msgs.Float_V)
	if !ok {
		return nil, fmt.Errorf("sensor %s of %s reads %T, not scalars", id, agent, rd.Msg)
	}
	return v.Data, nil
}
