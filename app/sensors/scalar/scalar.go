package scalar

import (
	"simgui/app/sensors"
	"simgui/app/transport/msgs"
	"simgui/plugins"
)

// register adds a scalar kind producing n values (n = 0: the count comes from the params).
func register(name, doc string, newFn func(spec *sensors.Spec) (sensors.Sensor, error)) {
	sensors.Register(sensors.Kind{Name: name, Topic: sensors.TopicScalar, SensorTypes: []string{plugins.SensorScalar},
		New: newFn, Doc: doc})
}

// emitter publishes a kind's values as a Float_V.
type emitter struct {
	spec *sensors.Spec
	n    int
}

func newEmitter(spec *sensors.Spec, n int) (emitter, error) {
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
	data := make([]float32, len(vals))
	for i, v := range vals {
		data[i] = float32(v)
	}
	e.spec.Out.Emit(sensors.Reading{Step: c.Step, Stamp: c.Stamp, Msg: &msgs.Float_V{Header: sensors.Header(c.Stamp), Data: data}})
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
