package sensors

import (
	"fmt"
	"math/rand/v2"
	"simgui/render"

	"simgui/app/sensors/jpegenc"
	"simgui/plugins"
)

// Sensor is one mounted sensor of one model.
type Sensor interface {
	// Fire takes a reading at the current step, on the loop goroutine, after physics. A sensor
	// whose output nobody wants (Output.Wanted) may skip expensive work, but it must draw the
	// same random numbers either way, so that readings do not depend on who listens.
	Fire(c *Context)
}

// Tracker is a sensor that follows the model's motion between readings (odometry, IMU): Track
// runs after every step, before Fire, on the loop goroutine.
type Tracker interface {
	Track(c *Context)
}

// Snapper is a sensor that renders an image on request (camera, depth): Snap draws what it
// sees now into dst, synchronously on the loop goroutine, without touching the sensor's
// scheduled output or its random stream.
type Snapper interface {
	Snap(c *Context, dst *Image) error
}

// Closer is a sensor with goroutines or files: Close stops them after publishing what is
// queued. The system calls it when the model goes away, at reset and at shutdown.
type Closer interface {
	Close()
}

// Spec is everything a sensor is built from.
type Spec struct {
	// Model is the name of the model carrying the sensor.
	Model string
	// Vehicle is the model's descriptor (body size, drive, visual); shared, read-only.
	Vehicle *plugins.VehicleDescriptor
	// Mount places the sensor on the vehicle (pose in the vehicle frame) with its kind's
	// parameters.
	Mount plugins.SensorMount
	// Contract is the sensor's entry in the device contract: format, unit, shape, rate, noise.
	Contract plugins.SensorDescriptor
	// Params are the mount's parameters with every parameter of the kind present: the mount's
	// value or the default of plugins.SensorParams(kind), checked by plugins.SensorSetup.
	Params Params
	// Noise is the contract's noise drawing from Rand.
	Noise Noise
	// Rand is the sensor's own random stream, World.Rand("sensor/<model>/<id>"): seeded by the
	// world seed, re-seeded at reset. Loop goroutine only.
	Rand *rand.Rand
	// SyncRand is a second stream, "sensor/<model>/<id>/sync", for frames rendered on request
	// (Snapper), so that those do not change the scheduled readings.
	SyncRand *rand.Rand
	// Out publishes the readings.
	Out *Output

	sys *System
}

// Encoder returns the JPEG encoder frames are encoded with (System Options.Encoder, else
// jpegenc.Default()).
func (s *Spec) Encoder() jpegenc.Encoder {
	if s.sys != nil && s.sys.opts.Encoder != nil {
		return s.sys.opts.Encoder
	}
	return jpegenc.Default()
}

// ImageGains returns the gain table the sensor's frames go through (System.SetImageGains),
// nil when none. Loop goroutine only.
func (s *Spec) ImageGains() *render.GainTable {
	if s.sys == nil {
		return nil
	}
	return s.sys.gains[gainKey{s.Model, s.Mount.ID}]
}

// BaseEnvironment returns the environment cameras start their look from (System Options
// .Environment, else render.DefaultEnvironment()).
func (s *Spec) BaseEnvironment() *render.Environment {
	if s.sys == nil {
		e := render.DefaultEnvironment()
		return &e
	}
	return s.sys.baseEnvironment()
}

// Name returns "<model>/<id>" for messages.
func (s *Spec) Name() string { return s.Model + "/" + s.Mount.ID }

// Params are a mount's parameters by name (plugins.SensorParams), in the units the table says.
type Params map[string]float64

// Get returns the parameter called name; it panics when the kind has no such parameter, which
// is a programming error in the kind.
func (p Params) Get(name string) float64 {
	v, ok := p[name]
	if !ok {
		panic("sensors: no parameter " + name)
	}
	return v
}

// Int returns a whole-number parameter.
func (p Params) Int(name string) int { return int(p.Get(name)) }

// Noise is a sensor's additive Gaussian noise, Mean + Stddev·N(0, 1) per value, in the
// sensor's unit (0..255 intensity for cameras, metres for depth), drawn from its Rand.
type Noise struct {
	Mean, Stddev float64
	r            *rand.Rand
}

// On reports whether the noise changes readings.
func (n *Noise) On() bool { return n.Stddev != 0 || n.Mean != 0 }

// Sample returns one draw of Mean + Stddev·N(0, 1); 0 when the noise is off. Each call with
// the noise on takes one normal variate from the stream.
func (n *Noise) Sample() float64 {
	if !n.On() {
		return 0
	}
	if n.Stddev == 0 {
		return n.Mean
	}
	return n.Mean + n.Stddev*n.r.NormFloat64()
}

// Add returns x plus one sample.
func (n *Noise) Add(x float64) float64 { return x + n.Sample() }

// Shape returns the number of values the contract's shape holds (the product of its
// dimensions), or 0 for an empty shape.
func Shape(c plugins.SensorDescriptor) int {
	if len(c.Shape) == 0 {
		return 0
	}
	n := 1
	for _, d := range c.Shape {
		n *= d
	}
	return n
}

// CheckShape returns an error when the contract declares a shape that does not hold n values.
func CheckShape(c plugins.SensorDescriptor, n int) error {
	if got := Shape(c); got != 0 && got != n {
		return fmt.Errorf("contract shape %v holds %d values; this sensor gives %d", c.Shape, got, n)
	}
	return nil
}

// Warn logs a problem of the sensor once (the first time it happens), so that a sensor that
// fails every frame does not flood the log.
func (s *Spec) Warn(err error) {
	if s.sys != nil {
		s.sys.warnOnce(s.Out.Topic+": "+err.Error(), "sensor "+s.Name()+" failed", err)
	}
}
