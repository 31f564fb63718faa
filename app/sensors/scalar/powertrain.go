package scalar

import (
	"math"
	"time"

	"simgui/app/sensors"
	"simgui/physics"
)

// Powertrain model constants: a 2S lithium pack driving small DC motors.
const (
	OpenVoltage        = 8.0  // V, pack voltage at no load
	NominalVoltage     = 7.4  // V
	InternalResistance = 0.15 // Ω
	IdleCurrent        = 0.45 // A, electronics and a Raspberry Pi
	Efficiency         = 0.5  // motor and gearbox
	RollingCoefficient = 0.06 // rolling resistance Crr
	TurnCoefficient    = 0.3  // scrub of a skid-steered turn, Cturn
)

func init() {
	register("powertrain", "battery voltage V, battery current A, motor power W (estimated)", func(spec *sensors.Spec) (sensors.Sensor, error) {
		e, err := newEmitter(spec)
		mass := 1.0
		if b := spec.Vehicle.Body; b != nil && b.Mass > 0 {
			mass = b.Mass
		}
		return &powertrain{emitter: e, mass: mass, track: trackWidth(spec.Vehicle)}, err
	})
}

type powertrain struct {
	emitter
	mass, track float64
	started     bool
	lastV       float64
	lastT       time.Duration
}

func (p *powertrain) Fire(c *sensors.Context) {
	v, _ := c.Model.Body.LocalVelocity()
	a := 0.0
	if dt := (c.Stamp - p.lastT).Seconds(); p.started && dt > 0 {
		a = (v - p.lastV) / dt
	}
	p.started, p.lastV, p.lastT = true, v, c.Stamp
	w := c.Model.Body.AngularVelocity()
	const g = physics.Gravity
	mech := max(0, p.mass*a*v) + RollingCoefficient*p.mass*g*math.Abs(v) + TurnCoefficient*p.mass*g*math.Abs(w)*p.track/2
	motor := mech / Efficiency
	current := IdleCurrent + motor/NominalVoltage
	p.emit(c, OpenVoltage-InternalResistance*current, current, motor)
}
