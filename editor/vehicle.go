package editor

import (
	"maps"
	"slices"
	"strings"

	"simgui/plugins"
)

// vehicleForm is a vehicle plugin as its form holds it: every field of rusim's plugin SDK
// (PluginDescriptorBase, DeviceContractDescriptor with its sensors and actuators) and simgui's
// simulation data (body, drive, visual, one mount per sensor).
type vehicleForm struct {
	Base       baseForm
	DeviceType string

	BodyShape                               string // box or circle
	Length, Width, Radius, Height           string // metres
	Mass                                    string // kg
	Friction, LinearDamping, AngularDamping string
	DriveModel                              string
	// DriveParams holds the parameter text per drive model, so that switching models and back
	// keeps what was typed. An empty value is the model's default.
	DriveParams map[string]map[string]string

	VisualShape, Color, Accent string
	// Material and AccentMaterial name materials (built-in or the vehicle's own) of the parts
	// in Color and Accent.
	Material, AccentMaterial string
	// Materials are the vehicle's own materials.
	Materials []materialRow

	Sensors   []sensorRow
	Actuators []actuatorRow

	ObservationSchema, ActionSchema string
}

// sensorRow is one contract sensor and its mount on the vehicle.
type sensorRow struct {
	ID, Type, Format, Unit, Shape, RateHz, Noise string
	// NoiseMean is the noise's mean, kept as opened: the form shows the deviation only.
	NoiseMean float64
	// Kind is the mount kind; "" leaves the sensor unmounted (the validator says so).
	Kind                               string
	X, Y, Z, RollDeg, PitchDeg, YawDeg string
	// Params holds the mount parameters per kind, like DriveParams.
	Params map[string]map[string]string
}

// actuatorRow is one contract actuator.
type actuatorRow struct {
	ID, Type, Unit, Min, Max string
}

// sensorDefaults are what a sensor row starts with for each sensor type: a format, shape,
// rate, unit and mount kind the runtime accepts for it.
var sensorDefaults = map[string]sensorRow{
	plugins.SensorCamera: {Format: "jpeg_base64", Shape: "240, 320, 3", RateHz: "30", Kind: "camera"},
	plugins.SensorDepth:  {Format: "float32", Shape: "240, 320", RateHz: "15", Unit: "m", Kind: "depth"},
	plugins.SensorLidar:  {Format: "float32", Shape: "360", RateHz: "10", Unit: "m", Kind: "lidar"},
	plugins.SensorIMU:    {Format: "float32", Shape: "6", RateHz: "100", Kind: "imu"},
	plugins.SensorScalar: {Format: "float32", Shape: "1", RateHz: "50", Unit: "m/s", Kind: "speedometer"},
}

// newSensorRow is the row Add sensor appends.
func newSensorRow() sensorRow {
	r := sensorDefaults[plugins.SensorScalar]
	r.Type = plugins.SensorScalar
	r.X, r.Y, r.Z, r.RollDeg, r.PitchDeg, r.YawDeg = "0", "0", "0", "0", "0", "0"
	return r
}

// setType changes the row's sensor type and, where the row still holds the previous type's
// defaults, moves format, shape, rate, unit and kind to the new type's; a kind that cannot
// fill the new type moves in any case.
func (r *sensorRow) setType(t string) {
	old, had := sensorDefaults[r.Type]
	nu, ok := sensorDefaults[t]
	r.Type = t
	if !ok {
		return
	}
	for _, f := range []struct {
		cur      *string
		was, now string
	}{
		{&r.Format, old.Format, nu.Format}, {&r.Shape, old.Shape, nu.Shape}, {&r.RateHz, old.RateHz, nu.RateHz},
		{&r.Unit, old.Unit, nu.Unit}, {&r.Kind, old.Kind, nu.Kind},
	} {
		if !had || *f.cur == "" || *f.cur == f.was {
			*f.cur = f.now
		}
	}
	// A mount kind that cannot fill the new type (an ultrasonic for a lidar) goes too.
	if k, err := plugins.LookupSensorKind(r.Kind); err == nil && !slices.Contains(k.Types, t) {
		r.Kind = nu.Kind
	}
}

// newActuatorRow is the row Add actuator appends.
func newActuatorRow() actuatorRow { return actuatorRow{Type: "continuous", Min: "-1", Max: "1"} }

// vehicleFormFrom fills a form from a vehicle. A vehicle without simulation data (a rusim
// Unity export) is shown as simgui simulates it, filled by WithFallback; so is a contract
// sensor without a mount (its kind stays empty). Mounts of sensors the contract does not have
// are dropped: their ids are returned.
func vehicleFormFrom(m plugins.Manifest, v *plugins.VehicleDescriptor) (*vehicleForm, []string) {
	if !v.HasSimulationData() {
		v = v.WithFallback()
	}
	f := &vehicleForm{
		Base:        baseFrom(m, v.ID, v.DisplayName, v.Version, v.Description),
		DeviceType:  v.DeviceType,
		DriveParams: map[string]map[string]string{},
	}
	if b := v.Body; b != nil {
		f.BodyShape, f.Length, f.Width, f.Radius, f.Height = b.Shape, num(b.Length), num(b.Width), num(b.Radius), num(b.Height)
		f.Mass, f.Friction, f.LinearDamping, f.AngularDamping = num(b.Mass), num(b.Friction), num(b.LinearDamping), num(b.AngularDamping)
	}
	if d := v.Drive; d != nil {
		f.DriveModel = d.Model
		f.DriveParams[d.Model] = formatParams(d.Params)
	}
	if vis := v.Visual; vis != nil {
		f.VisualShape, f.Color, f.Accent = vis.Shape, vis.Color, vis.Accent
		f.Material, f.AccentMaterial = vis.Material, vis.AccentMaterial
	}
	f.Materials = materialRows(v.Materials)
	mounts := map[string]plugins.SensorMount{}
	for _, s := range v.Sensors {
		mounts[s.ID] = s
	}
	if c := v.Contract; c != nil {
		if f.DeviceType == "" {
			f.DeviceType = c.DeviceType
		}
		f.ObservationSchema, f.ActionSchema = oneLine(c.ObservationSchemaJSON), oneLine(c.ActionSchemaJSON)
		for _, s := range c.Sensors {
			r := sensorRow{ID: s.ID, Type: s.SensorType, Format: s.Format, Unit: s.Unit, Shape: formatInts(s.Shape),
				RateHz: num(s.RateHz), Params: map[string]map[string]string{}}
			if s.Noise != nil {
				r.Noise, r.NoiseMean = num(s.Noise.Stddev), s.Noise.Mean
			}
			if mt, ok := mounts[s.ID]; ok {
				p := mt.Pose
				r.Kind = mt.Kind
				r.X, r.Y, r.Z, r.RollDeg, r.PitchDeg, r.YawDeg = num(p.X), num(p.Y), num(p.Z), num(p.RollDeg), num(p.PitchDeg), num(p.YawDeg)
				r.Params[mt.Kind] = formatParams(mt.Params)
				delete(mounts, s.ID)
			}
			f.Sensors = append(f.Sensors, r)
		}
		for _, a := range c.Actuators {
			f.Actuators = append(f.Actuators, actuatorRow{ID: a.ID, Type: a.ActuatorType, Unit: a.Unit, Min: num(a.Min), Max: num(a.Max)})
		}
	}
	return f, slices.Sorted(maps.Keys(mounts))
}

func formatParams(p map[string]float64) map[string]string {
	out := map[string]string{}
	for k, x := range p {
		out[k] = num(x)
	}
	return out
}

// build returns the manifest and the vehicle (with its contract) the form describes, and the
// text that could not be read (standIn in its place). deviceId is always the plugin id (rusim's SDK gives
// them the same meaning); the descriptor repeats the contract's deviceType.
func (f *vehicleForm) build(standIn float64) (plugins.Manifest, *plugins.VehicleDescriptor, plugins.Problems) {
	p := parser{standIn: standIn}
	m, ver := f.Base.build(plugins.TypeVehicle)
	v := &plugins.VehicleDescriptor{
		ID: m.PluginID, DisplayName: f.Base.DisplayName, Version: ver, Description: unescapeLines(f.Base.Description),
		DeviceType: strings.TrimSpace(f.DeviceType),
		Body: &plugins.Body{
			Shape:  f.BodyShape,
			Length: p.float("descriptor.body.length", f.Length), Width: p.float("descriptor.body.width", f.Width),
			Radius: p.float("descriptor.body.radius", f.Radius), Height: p.float("descriptor.body.height", f.Height),
			Mass: p.float("descriptor.body.mass", f.Mass), Friction: p.float("descriptor.body.friction", f.Friction),
			LinearDamping:  p.float("descriptor.body.linearDamping", f.LinearDamping),
			AngularDamping: p.float("descriptor.body.angularDamping", f.AngularDamping),
		},
		Drive: &plugins.Drive{Model: f.DriveModel, Params: p.params("descriptor.drive.params", f.DriveParams[f.DriveModel])},
		Visual: &plugins.Visual{Shape: f.VisualShape, Color: strings.TrimSpace(f.Color), Accent: strings.TrimSpace(f.Accent),
			Material: strings.TrimSpace(f.Material), AccentMaterial: strings.TrimSpace(f.AccentMaterial)},
		Materials: p.materials(f.Materials),
		Contract: &plugins.DeviceContract{
			DeviceID: m.PluginID, DeviceType: strings.TrimSpace(f.DeviceType),
			Sensors: []plugins.SensorDescriptor{}, Actuators: []plugins.ActuatorDescriptor{},
			ObservationSchemaJSON: f.ObservationSchema, ActionSchemaJSON: f.ActionSchema,
		},
	}
	for i, r := range f.Sensors {
		cp, dp := index("device-contract.sensors", i), index("descriptor.sensors", len(v.Sensors))
		s := plugins.SensorDescriptor{ID: strings.TrimSpace(r.ID), SensorType: r.Type, Format: strings.TrimSpace(r.Format),
			Unit: strings.TrimSpace(r.Unit), Shape: p.ints(cp+".shape", r.Shape), RateHz: p.float(cp+".rateHz", r.RateHz)}
		if sd, ok := p.optFloat(cp+".noise.stddev", r.Noise); ok {
			s.Noise = &plugins.Noise{Mean: r.NoiseMean, Stddev: sd}
		}
		v.Contract.Sensors = append(v.Contract.Sensors, s)
		if r.Kind == "" {
			continue
		}
		v.Sensors = append(v.Sensors, plugins.SensorMount{
			ID: s.ID, Kind: r.Kind,
			Pose: plugins.Pose3{
				X: p.float(dp+".pose.x", r.X), Y: p.float(dp+".pose.y", r.Y), Z: p.float(dp+".pose.z", r.Z),
				RollDeg:  p.float(dp+".pose.rollDeg", r.RollDeg),
				PitchDeg: p.float(dp+".pose.pitchDeg", r.PitchDeg),
				YawDeg:   p.float(dp+".pose.yawDeg", r.YawDeg),
			},
			Params: p.params(dp+".params", r.Params[r.Kind]),
		})
	}
	for i, r := range f.Actuators {
		ap := index("device-contract.actuators", i)
		v.Contract.Actuators = append(v.Contract.Actuators, plugins.ActuatorDescriptor{
			ID: strings.TrimSpace(r.ID), ActuatorType: strings.TrimSpace(r.Type), Unit: strings.TrimSpace(r.Unit),
			Min: p.float(ap+".min", r.Min), Max: p.float(ap+".max", r.Max),
		})
	}
	return m, v, p.ps
}

// params reads a parameter table; empty values are left out (the default applies).
func (p *parser) params(path string, text map[string]string) map[string]float64 {
	var out map[string]float64
	for _, k := range slices.Sorted(maps.Keys(text)) {
		if x, ok := p.optFloat(path+"."+k, text[k]); ok {
			if out == nil {
				out = map[string]float64{}
			}
			out[k] = x
		}
	}
	return out
}

// index formats path[i], as the validator writes paths.
func index(path string, i int) string { return path + "[" + itoa(i) + "]" }
