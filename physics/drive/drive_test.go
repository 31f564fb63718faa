package drive

import (
	"math"
	"strings"
	"testing"

	"simgui/physics"
	"simgui/plugins"
)

var ks0223 = plugins.Body{Shape: "box", Length: 0.25, Width: 0.15, Height: 0.12, Mass: 1, Friction: 0.9}

func newVehicle(t *testing.T, s *physics.Space, model string, params map[string]float64, pose physics.Pose) (*physics.Body, Model) {
	t.Helper()
	m, err := New(model, params)
	if err != nil {
		t.Fatal(err)
	}
	spec := physics.VehicleSpec{Name: "car", Body: ks0223, Pose: pose}
	if f, ok := m.(Flyer); ok {
		spec.Flying, spec.Base = true, f.StartAltitude()
		spec.Body = plugins.Body{Shape: "circle", Radius: 0.2, Height: 0.1, Mass: 1.2}
	}
	b, err := s.AddVehicle(spec)
	if err != nil {
		t.Fatal(err)
	}
	return b, m
}

func run(s *physics.Space, b *physics.Body, m Model, cmd Command, seconds float64) {
	const dt = 0.005
	for i := 0; i < int(math.Round(seconds/dt)); i++ {
		m.Update(b, &cmd, dt)
		s.Step(dt)
	}
}

// The KS0223 model: speed ramps to 0.73·v_cmd at 4 m/s², so after T seconds at throttle 0.5
// the distance is v·(T − v/(2a)) with v = 0.365 m/s.
func TestDifferentialStraightLineMatchesModel(t *testing.T) {
	s := physics.NewSpace(physics.Options{})
	b, m := newVehicle(t, s, "differential", nil, physics.Pose{})
	run(s, b, m, Command{Throttle: 0.5}, 2)
	v := 0.5 * 0.73
	want := v * (2 - v/(2*4.0))
	got := b.Pose().X
	if math.Abs(got-want)/want > 0.01 {
		t.Fatalf("travelled %.4f m, model says %.4f m", got, want)
	}
	if math.Abs(b.Pose().Y) > 1e-9 || math.Abs(b.Pose().Yaw) > 1e-9 {
		t.Fatalf("straight command drifted: %+v", b.Pose())
	}
}

func TestDifferentialPositiveSteerTurnsLeft(t *testing.T) {
	s := physics.NewSpace(physics.Options{})
	b, m := newVehicle(t, s, "differential", nil, physics.Pose{})
	run(s, b, m, Command{Throttle: 0.3, Steer: 0.2}, 0.5)
	if b.Pose().Yaw <= 0.1 {
		t.Fatalf("yaw %.3f rad after steering left, want clearly positive", b.Pose().Yaw)
	}
	if b.Pose().Y <= 0 {
		t.Fatalf("y %.3f: a left turn must move toward +y", b.Pose().Y)
	}
}

func TestDifferentialWheelCommandsAndGains(t *testing.T) {
	s := physics.NewSpace(physics.Options{})
	// Spinning in place: left back, right forward = counter-clockwise.
	b, m := newVehicle(t, s, "differential", nil, physics.Pose{})
	run(s, b, m, Command{Wheels: true, Left: -0.5, Right: 0.5}, 1)
	if w := b.AngularVelocity(); math.Abs(w-0.5*380*math.Pi/180) > 1e-6 {
		t.Fatalf("yaw rate %.4f rad/s, want %.4f", w, 0.5*380*math.Pi/180)
	}
	if d := math.Hypot(b.Pose().X, b.Pose().Y); d > 1e-6 {
		t.Fatalf("spin in place moved %.6f m", d)
	}
	// A weak left motor curves a straight command to the left.
	s2 := physics.NewSpace(physics.Options{})
	b2, m2 := newVehicle(t, s2, "differential", map[string]float64{"motorGainLeft": 0.8}, physics.Pose{})
	run(s2, b2, m2, Command{Throttle: 0.5}, 1)
	if b2.Pose().Yaw <= 0 {
		t.Fatalf("weak left motor: yaw %.4f, want a left curve", b2.Pose().Yaw)
	}
}

func TestDifferentialBrakeStopsFasterThanCoasting(t *testing.T) {
	stopDist := func(brake float64) float64 {
		s := physics.NewSpace(physics.Options{})
		b, m := newVehicle(t, s, "differential", nil, physics.Pose{})
		run(s, b, m, Command{Throttle: 1}, 1)
		x0 := b.Pose().X
		run(s, b, m, Command{Brake: brake}, 1)
		return b.Pose().X - x0
	}
	coast, brake := stopDist(0), stopDist(1)
	// Coasting: v²/(2·4) = 0.0666 m; full brake adds 6.5 m/s²: v²/(2·10.5) = 0.0254 m.
	if math.Abs(coast-0.0666) > 0.003 || math.Abs(brake-0.0254) > 0.003 {
		t.Fatalf("stopping distances coast %.4f brake %.4f, want 0.0666 and 0.0254", coast, brake)
	}
}

// Braking with the throttle held follows rusim's tick: toward 0.73·v_cmd at 4 m/s², then
// toward 0 at brake·6.5 m/s², so a half brake at full throttle holds the car at 0.73 − 3.25·dt
// and a full brake stops it.
func TestDifferentialBrakeWithThrottle(t *testing.T) {
	for _, tc := range []struct{ brake, want float64 }{{0.5, 0.73 - 0.5*6.5*0.005}, {1, 0}} {
		s := physics.NewSpace(physics.Options{})
		b, m := newVehicle(t, s, "differential", nil, physics.Pose{})
		run(s, b, m, Command{Throttle: 1, Brake: tc.brake}, 2)
		if fwd, _, _ := b.LocalMotion(); math.Abs(fwd-tc.want) > 0.01 {
			t.Errorf("brake %.1f at full throttle: %.4f m/s after 2 s, want %.4f", tc.brake, fwd, tc.want)
		}
	}
}

func TestLateralFrictionStopsSideways(t *testing.T) {
	s := physics.NewSpace(physics.Options{})
	b, m := newVehicle(t, s, "differential", nil, physics.Pose{})
	b.SetLocalVelocity(0, 1) // shoved sideways at 1 m/s
	run(s, b, m, Command{}, 0.1)
	// μg = 8.83 m/s² removes 0.88 m/s in 0.1 s.
	if _, lat := b.LocalVelocity(); math.Abs(lat-(1-0.9*physics.Gravity*0.1)) > 1e-6 {
		t.Fatalf("lateral speed %.4f after 0.1 s", lat)
	}
	run(s, b, m, Command{}, 0.1)
	if _, lat := b.LocalVelocity(); lat != 0 {
		t.Fatalf("lateral speed %.4f, want 0 once friction caught it", lat)
	}
}

func TestDifferentialStopsAtWall(t *testing.T) {
	s := physics.NewSpace(physics.Options{})
	if _, err := s.AddElement(plugins.Element{Kind: "wall", Name: "end", X: 1, Length: 0.02, Width: 1, Height: 0.25}); err != nil {
		t.Fatal(err)
	}
	b, m := newVehicle(t, s, "differential", nil, physics.Pose{})
	run(s, b, m, Command{Throttle: 1}, 4)
	// The wall's face is at x = 0.99; the car's nose is 0.125 ahead of its centre.
	if x := b.Pose().X; x > 0.99-0.125+0.01 || x < 0.8 {
		t.Fatalf("car centre at x=%.3f: it must rest against the wall (≈0.865)", x)
	}
}

func TestAckermannCannotTurnInPlaceAndFollowsBicycleModel(t *testing.T) {
	s := physics.NewSpace(physics.Options{})
	b, m := newVehicle(t, s, "ackermann", nil, physics.Pose{})
	run(s, b, m, Command{Steer: 1}, 1)
	if yaw := b.Pose().Yaw; math.Abs(yaw) > 1e-9 {
		t.Fatalf("ackermann turned %.4f rad standing still", yaw)
	}
	run(s, b, m, Command{Throttle: 0.5, Steer: 1}, 3)
	fwd, _ := b.LocalVelocity()
	want := fwd * math.Tan(28*math.Pi/180) / 0.32
	if got := b.AngularVelocity(); math.Abs(got-want) > 1e-3*want || got <= 0 {
		t.Fatalf("yaw rate %.4f, bicycle model says %.4f", got, want)
	}
}

func TestQuadcopterClimbsAndClampsAltitude(t *testing.T) {
	s := physics.NewSpace(physics.Options{})
	b, m := newVehicle(t, s, "quadcopter", map[string]float64{"maxAltitude": 3}, physics.Pose{})
	if b.Base != 1.0 {
		t.Fatalf("start altitude %.2f", b.Base)
	}
	run(s, b, m, Command{Vertical: 1}, 5)
	if b.Base != 3 {
		t.Fatalf("altitude %.3f, want clamped at maxAltitude 3", b.Base)
	}
	run(s, b, m, Command{Vertical: -1}, 10)
	if b.Base != 0.35 {
		t.Fatalf("altitude %.3f, want clamped at minAltitude 0.35", b.Base)
	}
}

func TestQuadcopterFliesOverLowWallsOnly(t *testing.T) {
	for _, tc := range []struct {
		wallHeight float64
		passes     bool
	}{{0.5, true}, {2.0, false}} {
		s := physics.NewSpace(physics.Options{})
		if _, err := s.AddElement(plugins.Element{Kind: "wall", X: 1.5, Length: 0.1, Width: 4, Height: tc.wallHeight}); err != nil {
			t.Fatal(err)
		}
		b, m := newVehicle(t, s, "quadcopter", nil, physics.Pose{})
		run(s, b, m, Command{Throttle: 1}, 3)
		if passed := b.Pose().X > 2; passed != tc.passes {
			t.Errorf("wall %.1f m high: drone at x=%.2f, passes=%v want %v", tc.wallHeight, b.Pose().X, passed, tc.passes)
		}
	}
}

func TestUnknownModelAndParameter(t *testing.T) {
	if _, err := New("hovercraft", nil); err == nil || !strings.Contains(err.Error(), "differential") {
		t.Fatalf("unknown model error %v should list the known ones", err)
	}
	if _, err := New("differential", map[string]float64{"maxSped": 1}); err == nil || !strings.Contains(err.Error(), `"maxSped"`) {
		t.Fatalf("unknown parameter error: %v", err)
	}
	if _, err := New("differential", map[string]float64{"maxSpeed": -1}); err == nil {
		t.Fatal("negative maxSpeed accepted")
	}
}

func TestLatencyDelaysCommands(t *testing.T) {
	s := physics.NewSpace(physics.Options{})
	b, m := newVehicle(t, s, "differential", map[string]float64{"latency": 0.1}, physics.Pose{})
	run(s, b, m, Command{Throttle: 1}, 0.095)
	if x := b.Pose().X; x != 0 {
		t.Fatalf("moved %.4f m before the 0.1 s latency elapsed", x)
	}
	run(s, b, m, Command{Throttle: 1}, 0.1)
	if b.Pose().X <= 0 {
		t.Fatal("did not move after the latency")
	}
}

// Every drive model plugins declares is implemented here, and no other: the table in plugins
// is the one list of models and parameters.
func TestEveryDeclaredModelIsRegistered(t *testing.T) {
	if got, want := strings.Join(Names(), ","), strings.Join(plugins.DriveModels(), ","); got != want {
		t.Fatalf("registered %s, plugins declares %s", got, want)
	}
}

// New checks parameters with the validation's own function: the same values are refused with
// the same words, and what validation accepts builds.
func TestNewChecksParamsAsValidationDoes(t *testing.T) {
	for _, tc := range []struct {
		model  string
		params map[string]float64
		want   string
	}{
		{"differential", map[string]float64{"maxSpeed": 0}, "params.maxSpeed: 0 is outside the range 0.01..10 m/s"},
		{"ackermann", map[string]float64{"wheelBase": 1e-300}, "params.wheelBase: 1e-300 is outside the range 0.05..5 m"},
		{"ackermann", map[string]float64{"lateralFriction": math.NaN()}, "params.lateralFriction: NaN is not a finite number"},
		{"quadcopter", map[string]float64{"minAltitude": 5, "maxAltitude": 2}, "need minAltitude ≤ startAltitude"},
	} {
		_, err := New(tc.model, tc.params)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %v: %v, want %q", tc.model, tc.params, err, tc.want)
		}
		_, verr := plugins.ResolveDriveParams(tc.model, tc.params)
		if verr == nil || !strings.Contains(err.Error(), verr.Error()) {
			t.Errorf("%s %v: New says %v, validation %v", tc.model, tc.params, err, verr)
		}
	}
	// The quadcopter takes a latency, as the table says, and with one it still flies from
	// the same altitude.
	plain, err := New("quadcopter", nil)
	if err != nil {
		t.Fatal(err)
	}
	late, err := New("quadcopter", map[string]float64{"latency": 0.1})
	if err != nil {
		t.Fatalf("quadcopter latency: %v", err)
	}
	f, ok := late.(Flyer)
	if !ok {
		t.Fatal("a quadcopter with latency is not a Flyer")
	}
	if got, want := f.StartAltitude(), plain.(Flyer).StartAltitude(); got != want || want <= 0 {
		t.Fatalf("start altitude with latency %v, without %v", got, want)
	}
}
