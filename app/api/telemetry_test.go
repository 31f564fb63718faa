package api

import (
	"slices"
	"strconv"
	"testing"

	"simgui/plugins"
)

// The rig's keys come from the contract's ids; a mount whose key would be one of rusim's is
// left out rather than shadow it, and only actuators the contract lists are echoed.
func TestSensorRigKeys(t *testing.T) {
	v := &plugins.VehicleDescriptor{
		Sensors: []plugins.SensorMount{
			{ID: "ultrasonic.front", Kind: "ultrasonic"},
			{ID: "ultrasonic.front", Kind: "altimeter"}, // sensor.ultrasonic.front.m: rusim's sonar
			{ID: "baro", Kind: "altimeter"},
			{ID: "lidar.top", Kind: "lidar"},
			{ID: "imu.tail", Kind: "imu"},
		},
		Contract: &plugins.DeviceContract{Actuators: []plugins.ActuatorDescriptor{
			{ID: "drive.left_pwm_norm"}, {ID: "control.vertical_norm"}, // one PWM side only
		}},
	}
	r := newSensorRig(v)
	if r.pwm || !r.vertical || r.ultrasonic != "ultrasonic.front" {
		t.Errorf("pwm %v vertical %v ultrasonic %q", r.pwm, r.vertical, r.ultrasonic)
	}
	var got []string
	for _, s := range r.others {
		got = append(got, s.keys...)
	}
	want := []string{"sensor.baro.m", "sensor.imu.tail.ax_mps2", "sensor.imu.tail.ay_mps2", "sensor.imu.tail.az_mps2",
		"sensor.imu.tail.wx_radps", "sensor.imu.tail.wy_radps", "sensor.imu.tail.wz_radps"}
	if !slices.Equal(got, want) {
		t.Errorf("keys %v, want %v", got, want)
	}
	if r := newSensorRig(&plugins.VehicleDescriptor{}); r.pwm || r.vertical {
		t.Errorf("no contract: pwm %v vertical %v, want no echo", r.pwm, r.vertical)
	}
}

// A draw's value reads back as the number drawn, and a whole one (a seed) as an integer too.
func TestFmtExact(t *testing.T) {
	for x, want := range map[float64]string{
		1816941748: "1816941748", -3: "-3", 0: "0", 0.1: "0.1", 1.0 / 3: "0.3333333333333333", 1e-7: "1e-07", 1e300: "1e+300",
	} {
		got := fmtExact(x)
		back, err := strconv.ParseFloat(got, 64)
		if got != want || err != nil || back != x {
			t.Errorf("fmtExact(%v) = %q (reads back %v, %v), want %q", x, got, back, err, want)
		}
	}
}
