package plugins

// DeviceContract is a robot's device contract: the IDs and schemas of its
// sensors and actuators as training code sees them.
type DeviceContract struct {
	DeviceID              string               `json:"deviceId"`
	DeviceType            string               `json:"deviceType"`
	Sensors               []SensorDescriptor   `json:"sensors"`
	Actuators             []ActuatorDescriptor `json:"actuators"`
	ObservationSchemaJSON string               `json:"observationSchemaJson"`
	ActionSchemaJSON      string               `json:"actionSchemaJson"`
}

// Sensor types the runtime handles.
const (
	SensorCamera = "camera"
	SensorDepth  = "depth"
	SensorLidar  = "lidar"
	SensorIMU    = "imu"
	SensorScalar = "scalar"
)

// SensorDescriptor is one sensor of a device contract. Noise is a simgui extension: seeded
// Gaussian noise added to every reading.
type SensorDescriptor struct {
	ID         string  `json:"id"`
	SensorType string  `json:"sensorType"`
	Format     string  `json:"format"`
	Unit       string  `json:"unit"`
	Shape      []int   `json:"shape"`
	RateHz     float64 `json:"rateHz"`
	Noise      *Noise  `json:"noise,omitempty"`
}

// Noise is additive Gaussian noise in the sensor's unit (for cameras, in 0..255 intensity).
type Noise struct {
	Mean   float64 `json:"mean,omitempty"`
	Stddev float64 `json:"stddev"`
}

// ActuatorDescriptor is one control channel of a device contract.
type ActuatorDescriptor struct {
	ID           string  `json:"id"`
	ActuatorType string  `json:"actuatorType"`
	Unit         string  `json:"unit"`
	Min          float64 `json:"min"`
	Max          float64 `json:"max"`
}
