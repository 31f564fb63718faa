package scalar

import (
	"simgui/app/sensors"
	"simgui/plugins"
)

// register adds a scalar kind.
func register(name, doc string, newFn func(spec *sensors.Spec) (sensors.Sensor, error)) {
	sensors.Register(sensors.Kind{Name: name, Topic: sensors.TopicScalar,
		New: newFn, Doc: doc})
}

// emitter publishes a kind's values as a Float_V.
type emitter struct {
	spec *sensors.Spec
	n    int
}

// newEmitter makes the emitter of a mount; how many values it publishes is the kind's in
// plugins' sensor kind table (SensorKind.ValueCount), which validation checks contract
// shapes against.
func newEmitter(spec *sensors.Spec) (emitter, error) {
	k, err := plugins.LookupSensorKind(spec.Mount.Kind)
	if err != nil {
		return emitter{}, err
	}
	n := k.ValueCount(spec.Params)
	return emitter{spec: spec, n: n}, sensors.CheckShape(spec.Contract, n)
}

// emit adds the contract's noise to each value and publishes them.
func (e emitter) emit(c *sensors.Context, vals ...float64) {
	for i := range vals {
		vals[i] = e.spec.Noise.Add(vals[i])
	}
	e.emitRaw(c, vals...)
}

// emitRaw publishes values as they are.
func (e emitter) emitRaw(c *sensors.Context, vals ...float64) {
	e.spec.Out.Emit(sensors.Reading{Step: c.Step, Stamp: c.Stamp, Msg: sensors.Floats(c.Stamp, vals...)})
}

// trackWidth is the distance between a body's left and right wheels: its width, or the
// diameter of a round body.
func trackWidth(v *plugins.VehicleDescriptor) float64 {
	if b := v.Body; b != nil {
		if b.Shape == "circle" {
			return 2 * b.Radius
		}
		return b.Width
	}
	return 0
}
