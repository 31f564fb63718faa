package api

import (
	"encoding/json"
	"fmt"
	"image"
	"log/slog"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"simgui/app/scenario"
	"simgui/app/sensors"
	"simgui/app/transport"
	"simgui/app/transport/msgs"
)

// rusimReset is the body rusim's single-agent Gymnasium env sends (its defaults), with fields
// rusim's server does not know, which must be ignored.
const rusimReset = `{"seed": 42, "timeScale": 2.0, "selectedTrackId": "track.basic_arena.v1",
 "selectedVehicleId": "vehicle.prometeo.sport.v1", "trackParams": [],
 "vehicleParams": [{"key": "camera.profile", "value": "high"}], "flags": [], "agents": [],
 "clientVersion": "9.9", "nested": {"unknown": [1, 2]}}`

// rusimStep is a KS0223 PWM command as rusim's client sends it: values as "%.6f" strings.
const rusimStep = `{"throttle": 0.0, "steer": 0.0, "brake": 0.0, "targetAgentId": "ego", "targetVehicleId": "",
 "timestamp": 0, "timeBase": "unix_ms",
 "extensions": [{"key": "drive.left_pwm_norm", "value": "0.500000"}, {"key": "drive.right_pwm_norm", "value": "0.300000"}],
 "futureField": true}`

// wantTelemetry is rusim's KS0223 telemetry, which a car reports first, unchanged; then its
// sensors rusim has no keys for (wantOdometry, wantIMU).
var wantTelemetry = []string{
	"drive.left_pwm_norm", "drive.right_pwm_norm", "sensor.speedometer.mps", "sensor.ultrasonic.front.m",
	"sensor.line_tracker.s1_norm", "sensor.line_tracker.s2_norm", "sensor.line_tracker.s3_norm",
	"sensor.line_tracker.s4_norm", "sensor.line_tracker.s5_norm",
	"power.battery.voltage_v", "power.battery.current_a", "power.motor.estimated_w",
}

var (
	wantOdometry = []string{"sensor.odometry.wheel.left_m", "sensor.odometry.wheel.right_m"}
	wantIMU      = []string{"sensor.imu.ax_mps2", "sensor.imu.ay_mps2", "sensor.imu.az_mps2",
		"sensor.imu.wx_radps", "sensor.imu.wy_radps", "sensor.imu.wz_radps"}
)

func TestErrorsAndStatusCodes(t *testing.T) {
	s := startServer(t, Options{})
	s.wantError(http.MethodPost, "/step", `{"throttle": 1}`, 500, "Active vehicle is not initialized. Call ResetSimulation first.")
	s.wantError(http.MethodGet, "/nope", "", 404, "not_found")
	s.wantError(http.MethodGet, "/step", "", 404, "not_found")
	s.wantError(http.MethodPost, "/health", "{}", 404, "not_found")
	s.wantError(http.MethodGet, "/api/models", "", 404, "not_found")
	s.wantError(http.MethodPost, "/reset", "", 400, "Request body is empty.")
	s.wantError(http.MethodPost, "/reset", `{"seed": 1, "selectedVehicleId": "x"}`, 400, "Unknown vehicle id: 'x'.")
	s.wantError(http.MethodPost, "/reset", `{"selectedTrackId": "track.nope.v1"}`, 400, "Unknown track id: 'track.nope.v1'.")
	s.wantError(http.MethodPost, "/reset", `{"agents": [{"agentId": "a", "vehicleId": "vehicle.nope.v1"}]}`, 500, "Unknown vehicle id: 'vehicle.nope.v1'.")
	// Agent ids name topics and, to ROS 2, the device bridge's robots: named in the request's
	// words.
	s.wantError(http.MethodPost, "/reset", `{"agents": [{}, {"agentId": "robot 2"}]}`, 400,
		`agents[1].agentId: "robot 2" must be 1 to 64 letters, digits, '_' or '-' (it names the robot's topics)`)
	s.wantError(http.MethodPost, "/reset", `{"agents": [{"agentId": "robot-2"}, {"agentId": "robot_2"}]}`, 400,
		`agents[1].agentId: "robot-2" and "robot_2" are one name to ROS 2, robot_2, by which the device bridge serves a robot's devices: name them apart`)

	// Malformed JSON and bad parameters are argument errors too; their text is ours.
	for _, body := range []string{`{"seed": `, `[1,2]`, `{"seed": "x"}`,
		`{"vehicleParams": [{"key": "mass", "value": "-3"}]}`,
		`{"vehicleParams": [{"key": "camera.width", "value": "8"}]}`,
		`{"trackParams": [{"key": "width", "value": "50"}]}`,
		`{"flags": [{"key": "agents.isolated", "value": "maybe"}]}`,
		`{"flags": [{"key": "randomization.vehicle.nope", "value": "0.1"}]}`,
	} {
		code, _, b := s.do(http.MethodPost, "/reset", body)
		var e map[string]string
		if code != 400 || json.Unmarshal(b, &e) != nil || e["error"] == "" || len(e) != 1 {
			t.Errorf("reset %s: %d %s, want 400 {\"error\": ...}", body, code, b)
		}
	}
	// A failed reset leaves no episode behind.
	s.wantError(http.MethodPost, "/step", `{}`, 500, "Active vehicle is not initialized. Call ResetSimulation first.")

	s.ok("/reset", `{"agents": [{"agentId": "a", "vehicleId": "vehicle.ks0223.v1"}, {"agentId": "b", "vehicleId": "vehicle.ks0223.v1"}]}`)
	s.wantError(http.MethodPost, "/step", `{"targetVehicleId": "vehicle.ks0223.v1"}`, 500,
		"Ambiguous targetVehicleId 'vehicle.ks0223.v1': 2 agents drive it; use targetAgentId.")
	// An unknown discreteAction is ignored, as rusim ignores them all: the agent gets 0/0.
	if res, _ := s.ok("/step", `{"discreteAction": "DirUp", "targetAgentId": "a"}`); kv(t, res.State.Telemetry, "drive.left_pwm_norm") != "0" ||
		kv(t, res.State.Telemetry, "drive.right_pwm_norm") != "0" {
		t.Errorf("DirUp: telemetry %v, want the PWM echo 0/0", res.State.Telemetry)
	}
	s.wantError(http.MethodPost, "/step", `{"extensions": [{"key": "drive.left_pwm_norm", "value": "fast"}, {"key": "drive.right_pwm_norm", "value": "0"}]}`, 400,
		"Extension drive.left_pwm_norm: 'fast' is not a number.")
}

func TestHealthAndContract(t *testing.T) {
	s := startServer(t, Options{})
	code, ct, b := s.do(http.MethodGet, "/health", "")
	if code != 200 || ct != "application/json; charset=utf-8" {
		t.Fatalf("health: %d %s", code, ct)
	}
	checkShape(t, b, healthShape)
	var h Health
	json.Unmarshal(b, &h)
	if h.Status != "ok" || h.ActiveAgentID != "" || h.ActiveVehicleCount != 0 || h.AvailableVehicles < 7 || h.AvailableTracks < 5 {
		t.Errorf("health before reset: %+v", h)
	}

	code, _, b = s.do(http.MethodGet, "/contract", "")
	if code != 200 {
		t.Fatalf("contract: %d", code)
	}
	checkShape(t, b, contractShape)
	var c Contract
	json.Unmarshal(b, &c)
	if c.SimulatorID == "" || c.SimulatorName == "" || !strings.HasPrefix(c.ContractVersion, "0.") {
		t.Errorf("contract head: %q %q %q (rusim's client needs major 0)", c.SimulatorID, c.SimulatorName, c.ContractVersion)
	}
	var ks *Device
	for i := range c.AvailableVehicles {
		if c.AvailableVehicles[i].DeviceID == "vehicle.ks0223.v1" {
			ks = &c.AvailableVehicles[i]
		}
	}
	if ks == nil || ks.DeviceType != "ground_robot_differential" {
		t.Fatalf("no KS0223 ground_robot_differential in %v", c.AvailableVehicles)
	}
	// rusim's camera.front.rgb: jpeg, [480, 640, 3], 15 Hz.
	if i := slices.IndexFunc(ks.Sensors, func(s Sensor) bool { return s.ID == "camera.front.rgb" }); i < 0 ||
		ks.Sensors[i].Format != "jpeg" || !slices.Equal(ks.Sensors[i].Shape, []int{480, 640, 3}) || ks.Sensors[i].RateHz != 15 {
		t.Errorf("KS0223 sensors %+v: want camera.front.rgb as jpeg, [480, 640, 3], 15 Hz", ks.Sensors)
	}
	var acts []string
	for _, a := range ks.Actuators {
		acts = append(acts, a.ID)
	}
	for _, want := range []string{"control.throttle_norm", "control.steer_norm", "control.brake_norm", "drive.left_pwm_norm", "drive.right_pwm_norm"} {
		if !slices.Contains(acts, want) {
			t.Errorf("KS0223 actuators %v lack %s", acts, want)
		}
	}
	tracks := map[string]string{}
	for _, tr := range c.AvailableTracks {
		tracks[tr.TrackID] = tr.ParametersSchemaJSON
	}
	if !strings.Contains(tracks["track.cardboard_corridor.v1"], `"width"`) {
		t.Errorf("corridor schema missing from %v", tracks)
	}

	s.ok("/reset", `{"seed": 1}`)
	_, _, b = s.do(http.MethodGet, "/health", "")
	checkShape(t, b, healthShape)
	json.Unmarshal(b, &h)
	if h.ActiveAgentID != "ego" || h.ActiveVehicleID != "vehicle.ks0223.v1" || h.ActiveTrackID != "track.cardboard_corridor.v1" ||
		h.ActiveVehicleCount != 1 || !slices.Equal(h.ActiveAgentIDs, []string{"ego"}) {
		t.Errorf("health after reset: %+v", h)
	}
}

func TestRusimResetAndStepShapes(t *testing.T) {
	s := startServer(t, Options{})
	res, b := s.ok("/reset", rusimReset)
	checkShape(t, b, stepResultShape)
	if res.ActiveAgentID != "ego" || res.ActiveVehicleID != "vehicle.prometeo.sport.v1" || res.Reward != 0 || res.Done {
		t.Errorf("reset head: %s %s reward %g done %v", res.ActiveAgentID, res.ActiveVehicleID, res.Reward, res.Done)
	}
	if got := kv(t, res.Info, "sim.action_period_s"); got != "0.05" { // the scenario leaves it out
		t.Errorf("reset's action period %q, want 0.05", got)
	}
	// basic_arena spawns at Unity (0, 0.2, -7.5) facing +z: world (0, -7.5), yaw 90°.
	p := res.State.Pose
	if p.Position.X != 0 || p.Position.Y != 0 || p.Position.Z != -7.5 || math.Abs(unityYaw(p.Rotation)) > 1e-9 || p.Rotation.W != 1 {
		t.Errorf("spawn pose %+v", p)
	}
	if res.State.TimeBase != "unix_ms" || res.State.Timestamp < 1.7e12 {
		t.Errorf("state time %d %s", res.State.Timestamp, res.State.TimeBase)
	}
	// The prometeo is rusim's: KS0223 physics and telemetry in a car body, with its odometry
	// and IMU after (its depth camera and lidar are arrays, not telemetry).
	if got, want := keys(res.State.Telemetry), slices.Concat(wantTelemetry, wantOdometry, wantIMU); !slices.Equal(got, want) {
		t.Errorf("telemetry keys %v, want %v", got, want)
	}
	f := res.Frame
	if f.FrameID != "camera/front/image_raw" || f.Format != "jpeg" || f.Encoding != "base64" || f.TimeBase != "unix_ms" ||
		f.Width != 1280 || f.Height != 720 || f.DataRef != "" || f.Timestamp != res.State.Timestamp {
		t.Errorf("frame head %+v", Frame{FrameID: f.FrameID, Width: f.Width, Height: f.Height, Format: f.Format, Encoding: f.Encoding, TimeBase: f.TimeBase})
	}
	decodeFrame(t, f)
	info := keys(res.Info)
	wantInfo := []string{"route.total_waypoints", "route.current_index", "route.remaining_waypoints", "route.reach_distance_m",
		"route.loop", "route.completed", "route.distance_to_target_m", "agent.id", "agent.vehicle_id", "agents.active_count"}
	if len(info) < len(wantInfo) || !slices.Equal(info[:len(wantInfo)], wantInfo) {
		t.Errorf("info keys %v, want %v first", info, wantInfo)
	}
	// The route's first waypoint is the spawn: reached at once.
	if kv(t, res.Info, "route.total_waypoints") != "4" || kv(t, res.Info, "route.current_index") != "1" ||
		kv(t, res.Info, "route.reach_distance_m") != "1.5" || kv(t, res.Info, "agents.active_count") != "1" {
		t.Errorf("route info %v", res.Info)
	}
	if len(res.Agents) != 1 || res.Agents[0].AgentID != "ego" || res.Agents[0].Frame != res.Frame {
		t.Errorf("agents %d, first %s, frame repeated %v", len(res.Agents), res.Agents[0].AgentID, res.Agents[0].Frame == res.Frame)
	}

	res, b = s.ok("/reset", strings.Replace(rusimReset, "vehicle.prometeo.sport.v1", "vehicle.ks0223.v1", 1))
	checkShape(t, b, stepResultShape)
	if got, want := keys(res.State.Telemetry), slices.Concat(wantTelemetry, wantOdometry); !slices.Equal(got, want) {
		t.Errorf("KS0223 telemetry keys %v, want %v", got, want)
	}
	if kv(t, res.State.Telemetry, "sensor.ultrasonic.front.m") != "3.5" {
		t.Errorf("open arena: sonar %s, want 3.5 (no echo)", kv(t, res.State.Telemetry, "sensor.ultrasonic.front.m"))
	}

	res, b = s.ok("/step", rusimStep)
	checkShape(t, b, stepResultShape)
	if kv(t, res.State.Telemetry, "drive.left_pwm_norm") != "0.5" || kv(t, res.State.Telemetry, "drive.right_pwm_norm") != "0.3" {
		t.Errorf("PWM echo %v", res.State.Telemetry)
	}
	for _, x := range res.State.Telemetry {
		if i := strings.IndexByte(string(x.Value), '.'); i >= 0 && len(x.Value)-i-1 > 3 {
			t.Errorf("telemetry %s = %q has more than three decimals", x.Key, x.Value)
		}
	}
	// rusim's left PWM above its right turns left: the vehicle's right wheel travels farther.
	left, _ := strconv.ParseFloat(kv(t, res.State.Telemetry, "sensor.odometry.wheel.left_m"), 64)
	right, _ := strconv.ParseFloat(kv(t, res.State.Telemetry, "sensor.odometry.wheel.right_m"), 64)
	if !(left > 0 && right > left) || res.State.AngularVelocity.Y >= 0 {
		t.Errorf("odometry left %.3f m, right %.3f m, angularVelocity.y %.3f: want a left turn", left, right, res.State.AngularVelocity.Y)
	}
	if res.State.Speed <= 0 || kv(t, res.Info, "sim.time_s") != "0.05" || kv(t, res.Info, "sim.step") != "10" {
		t.Errorf("after one step: speed %g, info %v", res.State.Speed, res.Info)
	}
	decodeFrame(t, res.Frame)
}

func TestSteerAndPWMTurnAsInRusim(t *testing.T) {
	s := startServer(t, Options{})
	reset := `{"seed": 3, "selectedTrackId": "track.basic_arena.v1", "vehicleParams": [{"key": "camera.width", "value": "32"}, {"key": "camera.height", "value": "32"}]}`
	for _, tc := range []struct {
		name  string
		step  string
		right bool
	}{
		{"steer>0", `{"throttle": 0.5, "steer": 0.6}`, true},
		{"steer<0", `{"throttle": 0.5, "steer": -0.6}`, false},
		{"pwm right>left", `{"extensions": [{"key": "drive.left_pwm_norm", "value": "0.1"}, {"key": "drive.right_pwm_norm", "value": "0.9"}]}`, true},
		{"pwm left>right", `{"extensions": [{"key": "drive.left_pwm_norm", "value": "0.9"}, {"key": "drive.right_pwm_norm", "value": "0.1"}]}`, false},
		{"DirRight", `{"discreteAction": "DirRight"}`, true},
		{"DirLeft", `{"discreteAction": "DirLeft"}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s.ok("/reset", reset)
			var res *StepResult
			for range 5 {
				res, _ = s.ok("/step", tc.step)
			}
			yaw := unityYaw(res.State.Pose.Rotation) // 0 at spawn (north), positive clockwise
			w := res.State.AngularVelocity.Y
			if tc.right != (yaw > 5) || tc.right != (w > 0) || !tc.right && (yaw > -5 || w >= 0) {
				t.Errorf("yaw %.1f°, angularVelocity.y %.3f: want a %s turn", yaw, w, map[bool]string{true: "right", false: "left"}[tc.right])
			}
			// Heading north and turning right moves the car east (+x).
			if x := res.State.Pose.Position.X; tc.right != (x > 0) {
				t.Errorf("x %.4f after the turn", x)
			}
		})
	}
}

// A drone's climb is its linearVelocity.y (Unity's up), and matches how fast its height grows.
// A reset giving the drone a range it cannot take (a car's motor gains) is refused, naming it.
func TestDroneRefusesCarRanges(t *testing.T) {
	s := startServer(t, Options{})
	s.wantError(http.MethodPost, "/reset", `{"seed": 1, "selectedTrackId": "track.basic_arena.v1", "selectedVehicleId": "vehicle.drone.simple.v1",
		"flags": [{"key": "randomization.enabled", "value": "true"}, {"key": "randomization.vehicle.motor_gain_left", "value": "0.3"}]}`,
		http.StatusBadRequest, "Randomization: randomization.vehicle.motor_gain_left: no vehicle here has what it draws (vehicle.drone.simple.v1).")
}

func TestDroneClimbIsItsVerticalVelocity(t *testing.T) {
	s := startServer(t, Options{})
	s.ok("/reset", `{"seed": 1, "selectedTrackId": "track.basic_arena.v1", "selectedVehicleId": "vehicle.drone.simple.v1"}`)
	climb := `{"extensions": [{"key": "control.vertical_norm", "value": "1"}]}`
	var prev, res *StepResult
	for range 8 {
		prev = res
		res, _ = s.ok("/step", climb)
	}
	vy := float64(res.State.LinearVelocity.Y)
	dy := float64(res.State.Pose.Position.Y - prev.State.Pose.Position.Y)
	secs := func(r *StepResult) float64 {
		v, err := strconv.ParseFloat(string(kv(t, r.Info, "sim.time_s")), 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	dt := secs(res) - secs(prev)
	if !(vy > 0.5) || math.Abs(vy-dy/dt) > 0.25 {
		t.Errorf("climbing: linearVelocity.y %.3f m/s, height grew at %.3f m/s", vy, dy/dt)
	}
	for range 20 {
		res, _ = s.ok("/step", `{"extensions": [{"key": "control.vertical_norm", "value": "-1"}]}`)
	}
	if vy := res.State.LinearVelocity.Y; !(vy < -0.5) {
		t.Errorf("descending: linearVelocity.y %.3f m/s", vy)
	}
}

// A drone's telemetry is its contract's: the climb echoed (clamped, as applied), its IMU and
// altimeter; no motor PWM, which a quadcopter has no actuator for.
func TestDroneTelemetryIsItsContracts(t *testing.T) {
	s := startServer(t, Options{})
	const reset = `{"seed": 3, "selectedTrackId": "track.basic_arena.v1", "selectedVehicleId": "vehicle.drone.simple.v1"}`
	res, _ := s.ok("/reset", reset)
	want := slices.Concat([]string{"control.vertical_norm"}, wantIMU, []string{"sensor.altimeter.m"})
	if got := keys(res.State.Telemetry); !slices.Equal(got, want) {
		t.Fatalf("drone telemetry keys %v, want %v", got, want)
	}
	num := func(r *StepResult, key string) float64 {
		t.Helper()
		x, err := strconv.ParseFloat(kv(t, r.State.Telemetry, key), 64)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	// At rest at its start altitude (1 m): the accelerometer reads +g up (noise 0.02).
	if alt, az := num(res, "sensor.altimeter.m"), num(res, "sensor.imu.az_mps2"); math.Abs(alt-1) > 0.1 || math.Abs(az-9.807) > 0.1 {
		t.Errorf("at reset: altimeter %.3f m, az %.3f m/s², want 1 and 9.807", alt, az)
	}
	if kv(t, res.State.Telemetry, "control.vertical_norm") != "0" {
		t.Errorf("at reset: climb echo %s", kv(t, res.State.Telemetry, "control.vertical_norm"))
	}

	// Climbing while turning right (rusim's steer > 0): a climb of 7 is clamped to 1 as a
	// throttle of 7 is, and reads so.
	climb := func(v string) *StepResult {
		var r *StepResult
		for range 10 {
			r, _ = s.ok("/step", `{"steer": 1, "extensions": [{"key": "control.vertical_norm", "value": "`+v+`"}]}`)
		}
		return r
	}
	res = climb("7")
	if e := kv(t, res.State.Telemetry, "control.vertical_norm"); e != "1" {
		t.Errorf("climb 7 echoed as %s, want 1 (clamped)", e)
	}
	y := float64(res.State.Pose.Position.Y)
	// The altimeter reads at 20 Hz, one action period: its latest reading is at most 0.05 s old.
	if alt := num(res, "sensor.altimeter.m"); !(y > 1.2) || math.Abs(alt-y) > 2.5*0.05+0.1 {
		t.Errorf("after climbing: altimeter %.3f m, height %.3f m", alt, y)
	}
	// Turning right is clockwise from above: a negative rate about the sensor's z (up).
	if wz := num(res, "sensor.imu.wz_radps"); !(wz < -1) || math.Abs(wz+float64(res.State.AngularVelocity.Y)) > 0.1 {
		t.Errorf("turning right: wz %.3f rad/s, angularVelocity.y %.3f", wz, res.State.AngularVelocity.Y)
	}
	s.ok("/reset", reset)
	if y1 := float64(climb("1").State.Pose.Position.Y); y1 != y {
		t.Errorf("climb 1 reached %.4f m, climb 7 %.4f m: want the same", y1, y)
	}
}

// Unknown step fields are ignored, as rusim's are, and each is logged once: a drone's
// top-level "vertical" with where a climb goes.
func TestUnknownStepFieldsAreIgnoredAndLogged(t *testing.T) {
	var buf syncBuffer
	s := startServer(t, Options{Logger: slog.New(slog.NewTextHandler(&buf, nil))})
	res, _ := s.ok("/reset", `{"seed": 1, "selectedTrackId": "track.basic_arena.v1", "selectedVehicleId": "vehicle.drone.simple.v1"}`)
	y := res.State.Pose.Position.Y
	for range 3 {
		res, _ = s.ok("/step", `{"vertical": 1, "STEER": 0.5, "timestamp": 0, "timeBase": "unix_ms"}`)
	}
	if res.State.Pose.Position.Y != y || res.State.AngularVelocity.Y <= 0 {
		t.Errorf("height %.3f m (was %.3f), angularVelocity.y %.3f: want no climb and STEER read as steer",
			res.State.Pose.Position.Y, y, res.State.AngularVelocity.Y)
	}
	long := strings.Repeat("x", 1000)
	s.ok("/step", `{"actions": [{"targetAgentId": "ego", "climb": 1, "Extensions": []}], "`+long+`": 0}`)
	log := buf.String()
	for _, c := range []struct {
		what string
		n    int
	}{
		{`field=vertical`, 1},
		{`climb goes in extensions as control.vertical_norm (−1..1)" field=vertical`, 1},
		{`msg="training API: an action of a step has a field the API does not know; it is ignored, as rusim ignores it; a climb goes in extensions as control.vertical_norm (−1..1)" field=climb`, 1},
		{"field=" + long[:maxFieldName] + "…", 1},
		{long[:maxFieldName+1], 0},
		{"field=STEER", 0}, {"field=timestamp", 0}, {"field=Extensions", 0}, {"field=targetAgentId", 0},
	} {
		if n := strings.Count(log, c.what); n != c.n {
			t.Errorf("%q logged %d times, want %d:\n%s", c.what, n, c.n, log)
		}
	}
}

// Junk field names spend their own budget of lines, with one line saying later ones go
// unlogged; the climb hint is logged all the same.
func TestUnknownFieldsBudget(t *testing.T) {
	var buf syncBuffer
	s := startServer(t, Options{Logger: slog.New(slog.NewTextHandler(&buf, nil))})
	s.ok("/reset", `{"seed": 1}`)
	var junk strings.Builder
	junk.WriteString(`{"throttle": 0`)
	for i := range 2 * maxOnce {
		fmt.Fprintf(&junk, `, "junk%d": 0`, i)
	}
	junk.WriteString(`}`)
	s.ok("/step", junk.String())
	s.ok("/step", `{"vertical": 1}`)
	log := buf.String()
	if n := strings.Count(log, "field=junk"); n != maxOnce {
		t.Errorf("%d junk fields logged, want %d", n, maxOnce)
	}
	if n := strings.Count(log, "later ones are ignored without a line"); n != 1 {
		t.Errorf("the overflow said %d times, want once", n)
	}
	if !strings.Contains(log, `a climb goes in extensions as control.vertical_norm (−1..1)" field=vertical`) {
		t.Errorf("no climb hint after the junk:\n%s", log[max(0, len(log)-600):])
	}
}

func TestAgentsParamsAndTargets(t *testing.T) {
	s := startServer(t, Options{Now: fixedClock})
	res, b := s.ok("/reset", `{"seed": 10, "selectedVehicleId": "vehicle.ks0223.v1",
	  "vehicleParams": [{"key": "camera.width", "value": "84"}, {"key": "camera.height", "value": "84"}],
	  "flags": [{"key": "agents.isolated", "value": "TRUE"}],
	  "agents": [
	    {"agentId": "", "vehicleId": "", "isPrimary": false, "trackParams": [], "vehicleParams": [], "flags": []},
	    {"agentId": "", "vehicleId": "vehicle.arcade.red.v1", "isPrimary": true,
	     "vehicleParams": [{"key": "Camera.Width", "value": "96"}], "extra": 1},
	    {"agentId": "scout", "vehicleId": "vehicle.ks0223.v1"}]}`)
	checkShape(t, b, stepResultShape)
	if res.ActiveAgentID != "agent-2" || res.ActiveVehicleID != "vehicle.arcade.red.v1" || res.Frame.Width != 96 || res.Frame.Height != 84 {
		t.Fatalf("primary %s %s frame %dx%d", res.ActiveAgentID, res.ActiveVehicleID, res.Frame.Width, res.Frame.Height)
	}
	var ids []string
	for _, a := range res.Agents {
		ids = append(ids, a.AgentID)
		if (a.AgentID == "agent-2") != (a.Frame.DataBase64 != "") {
			t.Errorf("agent %s frame %dx%d", a.AgentID, a.Frame.Width, a.Frame.Height)
		}
	}
	if !slices.Equal(ids, []string{"agent-1", "agent-2", "scout"}) {
		t.Fatalf("agent ids %v", ids)
	}
	if got := s.svc.Current(); got == nil || !got.Isolated || len(got.Agents) != 3 || got.Primary != 1 ||
		got.Agents[0].World == got.Agents[2].World || s.svc.opts.Host.World(got.Agents[2].World) == nil {
		t.Fatalf("Current() = %+v", got)
	}

	var agent1 State
	for _, tc := range []struct{ body, agent string }{
		{`{"targetAgentId": "scout", "throttle": 1}`, "scout"},
		{`{"targetVehicleId": "vehicle.arcade.red.v1", "throttle": 1}`, "agent-2"},
		{`{"targetAgentId": "nobody", "throttle": 1}`, "agent-2"},
		{`{"targetAgentId": "agent-1", "throttle": 1}`, "agent-1"},
	} {
		res, _ := s.ok("/step", tc.body)
		if res.ActiveAgentID != tc.agent || kv(t, res.Info, "agent.id") != tc.agent || res.Frame.DataBase64 == "" {
			t.Errorf("%s went to %s", tc.body, res.ActiveAgentID)
		}
		agent1 = res.Agents[0].State
	}
	// Isolated worlds advance only when their agent is stepped.
	res, _ = s.ok("/step", `{"targetAgentId": "scout", "throttle": 1}`)
	if kv(t, res.Info, "sim.step") != "20" || res.Agents[2].State.Speed <= res.Agents[0].State.Speed {
		t.Errorf("scout's world after two steps: %v, speeds %g %g", res.Info, res.Agents[2].State.Speed, res.Agents[0].State.Speed)
	}
	if a, _ := json.Marshal(agent1); string(a) != string(must(json.Marshal(res.Agents[0].State))) {
		t.Errorf("agent-1 moved while scout stepped:\n%s\n%s", a, must(json.Marshal(res.Agents[0].State)))
	}

	// The actions extension steps several agents at once and frames each.
	res, b = s.ok("/step", `{"actions": [{"targetAgentId": "scout", "throttle": 1}, {"targetAgentId": "agent-1", "discreteAction": "DirBack"}]}`)
	checkShape(t, b, stepResultShape)
	if res.ActiveAgentID != "scout" || res.Agents[0].Frame.DataBase64 == "" || res.Agents[1].Frame.DataBase64 != "" || res.Agents[2].Frame.DataBase64 == "" {
		t.Errorf("batch step: active %s, frames %v %v %v", res.ActiveAgentID, res.Agents[0].Frame.Width, res.Agents[1].Frame.Width, res.Agents[2].Frame.Width)
	}
	if kv(t, res.Agents[0].State.Telemetry, "drive.left_pwm_norm") != "-1" {
		t.Errorf("DirBack telemetry %v", res.Agents[0].State.Telemetry)
	}
	// In the actions list an unknown id is refused, naming it: rusim's fall-back to the
	// primary is for its own one command, and there a typo moved the wrong robot.
	s.wantError(http.MethodPost, "/step", `{"actions": [{"targetAgentId": "scout"}, {"targetAgentId": "agent_1", "throttle": 1}]}`,
		http.StatusBadRequest, "actions: targetAgentId 'agent_1' is no agent of the episode (agents: 'agent-1', 'agent-2', 'scout').")
	s.wantError(http.MethodPost, "/step", `{"actions": [{"targetVehicleId": "vehicle.nope.v9", "throttle": 1}]}`,
		http.StatusBadRequest, "actions: targetVehicleId 'vehicle.nope.v9' is no vehicle of the episode's agents.")
	s.wantError(http.MethodPost, "/step", `{"actions": [{"targetAgentId": "agent-2"}, {}]}`,
		http.StatusBadRequest, "Two actions target agent 'agent-2' (an action without targetAgentId or targetVehicleId drives the primary).")
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestImageGains: camera.brightness and the colour gains scale the frame's channels, in the
// reply and in the frames the episode's world publishes (what the window and the bridge show).
func TestImageGains(t *testing.T) {
	h := startHost(t, scenario.Default())
	s := startServer(t, Options{Host: h})
	means := func(img image.Image) [3]float64 {
		var sum [3]float64
		b := img.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				r, g, bl, _ := img.At(x, y).RGBA()
				sum[0] += float64(r >> 8)
				sum[1] += float64(g >> 8)
				sum[2] += float64(bl >> 8)
			}
		}
		n := float64(b.Dx() * b.Dy())
		return [3]float64{sum[0] / n, sum[1] / n, sum[2] / n}
	}
	mean := func(params string) [3]float64 {
		res, _ := s.ok("/reset", `{"seed": 1, "vehicleParams": [{"key": "camera.width", "value": "64"}, {"key": "camera.height", "value": "48"}`+params+`]}`)
		return means(decodeFrame(t, res.Frame))
	}
	plain := mean("")
	dim := mean(`, {"key": "camera.brightness", "value": "0.5"}`)
	// The episode's world publishes its camera's frames through the same gains.
	sub := h.Active().Bus.Subscribe(sensors.Topic("ego", "camera.front.rgb", sensors.TopicImage), transport.WithQueueLen(64))
	defer sub.Close()
	for range 4 { // 0.2 s of sim time: the 15 Hz camera fires
		s.ok("/step", `{"throttle": 0, "steer": 0}`)
	}
	h.Active().Sensors.Flush()
	var pub *msgs.Image
	for len(sub.C()) > 0 {
		pub = (<-sub.C()).Msg.(*msgs.Image)
	}
	if pub == nil || pub.GetWidth() != 64 || pub.GetHeight() != 48 {
		t.Fatalf("the episode's camera published %v", pub)
	}
	pubImg := image.NewNRGBA(image.Rect(0, 0, 64, 48))
	for i := range 64 * 48 {
		copy(pubImg.Pix[4*i:], pub.GetData()[3*i:3*i+3])
		pubImg.Pix[4*i+3] = 255
	}
	if pm := means(pubImg); math.Abs(pm[0]-dim[0]) > 6 || math.Abs(pm[1]-dim[1]) > 6 || math.Abs(pm[2]-dim[2]) > 6 {
		t.Errorf("brightness 0.5: the published frame's means %v, the reply's %v (plain %v)", pm, dim, plain)
	}
	red := mean(`, {"key": "camera.color_gain_r", "value": "0"}, {"key": "camera.color_gain_b", "value": "1.2"}`)
	for ch := range 3 {
		if r := dim[ch] / plain[ch]; r < 0.45 || r > 0.55 {
			t.Errorf("brightness 0.5: channel %d mean %.1f -> %.1f", ch, plain[ch], dim[ch])
		}
	}
	if red[0] > 8 || red[1] < plain[1]-4 || red[1] > plain[1]+4 || red[2] < plain[2]*1.1 {
		t.Errorf("colour gains r=0 b=1.2: means %v, plain %v", red, plain)
	}
}

// TestRequestRouteBeatsTheScenarios: a reset's route.waypoints replace the route block of the
// scenario the server runs (rusim's axes: x, z), and the robot starts on the request's route;
// a reset without one keeps the scenario's.
func TestRequestRouteBeatsTheScenarios(t *testing.T) {
	sc, err := scenario.Parse([]byte(`
runtime: {runtimeMode: unity-sim, seed: 42}
world: {trackId: track.basic_arena.v1}
vehicle: {vehicleId: vehicle.ks0223.v1}
route:
  waypoints: [[-6.0, -8.0], [-6.0, -1.0], [4.0, 2.0], [6.0, 8.0]]
  reachDistanceM: 1.2
`), "route.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := startServer(t, Options{Scenario: sc})
	for _, tc := range []struct {
		params string
		x, z   float64
		total  string
	}{
		{`[{"key": "route.waypoints", "value": "2,3;2,9"}]`, 2, 3, "2"},
		{`[]`, -6, -8, "4"},
	} {
		res, _ := s.ok("/reset", `{"selectedTrackId": "track.basic_arena.v1", "trackParams": `+tc.params+`}`)
		p := res.State.Pose.Position
		if math.Abs(float64(p.X)-tc.x) > 1e-6 || math.Abs(float64(p.Z)-tc.z) > 1e-6 || kv(t, res.Info, "route.total_waypoints") != tc.total {
			t.Errorf("trackParams %s: start (%g, %g) with %s waypoints; want (%g, %g) with %s",
				tc.params, p.X, p.Z, kv(t, res.Info, "route.total_waypoints"), tc.x, tc.z, tc.total)
		}
	}
}

// TestFloatsAreWrittenAsFloats: a reply's numbers read back as floats, as Unity writes them
// ("reward":0.0, whole positions with ".0"), and encoding/json's form otherwise.
func TestFloatsAreWrittenAsFloats(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		want string
	}{{0, "0.0"}, {math.Copysign(0, -1), "0.0"}, {1, "1.0"}, {-3, "-3.0"}, {0.25, "0.25"}, {123456789, "123456789.0"},
		{1e-7, "1e-7"}, {-2.5e-9, "-2.5e-9"}, {1e21, "1e+21"}, {1.0 / 3, "0.3333333333333333"}} {
		b, err := json.Marshal(Float(tc.x))
		if err != nil || string(b) != tc.want {
			t.Errorf("%v: %s %v, want %s", tc.x, b, err, tc.want)
		}
		var back float64
		if err := json.Unmarshal(b, &back); err != nil || back != tc.x {
			t.Errorf("%s reads back as %v", b, back)
		}
	}
	if _, err := json.Marshal(Float(math.NaN())); err == nil {
		t.Error("NaN written")
	}
	s := startServer(t, Options{})
	_, body := s.ok("/reset", `{"seed": 1}`)
	for _, want := range []string{`"reward":0.0,`, `"y":0.0,`} {
		if !strings.Contains(string(body), want) {
			t.Errorf("the reset reply has no %s", want)
		}
	}
}

// A once-only log set keeps a bounded part of each key: steps name agent ids of any length
// up to a request's size, and 128 of them whole were a quarter of a gigabyte. Long keys that
// share their beginning are still told apart, and one seen again is not new.
func TestOnceSetBoundsItsKeys(t *testing.T) {
	var o onceSet
	long := strings.Repeat("x", 1<<20)
	for i := range 10 {
		if !o.first(long + strconv.Itoa(i)) {
			t.Fatalf("long key %d not new", i)
		}
	}
	if o.first(long + "3") {
		t.Error("a long key seen before is new again")
	}
	held := 0
	for k := range o.seen {
		held += len(k)
	}
	if held > 10*(maxOnceKey+32) {
		t.Errorf("the set holds %d bytes of 10 keys of 1 MiB, want at most %d", held, 10*(maxOnceKey+32))
	}
}
