package editor

import (
	"slices"
	"strings"

	"github.com/ebitengine/debugui"

	"simgui/plugins"
)

// Sensor table: each sensor takes the contract's fields, the mount (kind and pose in the
// vehicle frame), the mount kind's parameters (paramsPerLine a line at most), and a Remove
// button.
var (
	sensorLine1 = []int{26, -4, 74, -3, 50, -3, 56, 56, 70}
	sensorLine2 = []int{26, -4, -1, -1, -1, -1, -1, -1}
)

func (e *Editor) sensorTable(ctx *debugui.Context, f *vehicleForm) {
	ctx.SetGridLayout([]int{-1}, nil)
	ctx.Text("Sensors: the device contract's sensors (what training code sees) and where each is mounted.")
	ctx.SetGridLayout(sensorLine1, nil)
	for _, h := range []string{"#", "id", "type", "format", "unit", "shape", "rate Hz", "noise sd", ""} {
		ctx.Text(h)
	}
	ctx.SetGridLayout(sensorLine2, nil)
	for _, h := range []string{"", "mount kind", "x m fwd", "y m left", "z m up", "roll deg", "pitch deg", "yaw deg"} {
		ctx.Text(h)
	}
	mount := 0
	for i := range f.Sensors {
		r := &f.Sensors[i]
		cp := index("device-contract.sensors", i)
		dp := index("descriptor.sensors", mount)
		ctx.SetGridLayout([]int{-1}, []int{4})
		ctx.Text("")
		ctx.SetGridLayout(sensorLine1, nil)
		ctx.Text(itoa(i))
		e.field(ctx, cp+".id", &r.ID)
		if rect, ok := e.targets["field:"+cp+".id"]; ok && r.Kind != "" {
			e.targets["field:"+dp+".id"] = rect // the mount's id is the sensor's
		}
		typ := r.Type
		e.choice(ctx, cp+".sensorType", &typ, plugins.SensorTypes())
		if typ != r.Type {
			r.setType(typ)
		}
		e.field(ctx, cp+".format", &r.Format)
		e.field(ctx, cp+".unit", &r.Unit)
		e.field(ctx, cp+".shape", &r.Shape)
		e.field(ctx, cp+".rateHz", &r.RateHz)
		e.field(ctx, cp+".noise.stddev", &r.Noise)
		e.button(ctx, "sensors["+itoa(i)+"].remove", "Remove", func() { f.Sensors = slices.Delete(f.Sensors, i, i+1) })

		ctx.SetGridLayout(sensorLine2, nil)
		ctx.Text("")
		e.choice(ctx, dp+".kind", &r.Kind, append([]string{""}, plugins.SensorKinds()...))
		e.field(ctx, dp+".pose.x", &r.X)
		e.field(ctx, dp+".pose.y", &r.Y)
		e.field(ctx, dp+".pose.z", &r.Z)
		e.field(ctx, dp+".pose.rollDeg", &r.RollDeg)
		e.field(ctx, dp+".pose.pitchDeg", &r.PitchDeg)
		e.field(ctx, dp+".pose.yawDeg", &r.YawDeg)
		if r.Kind == "" {
			ctx.SetGridLayout([]int{26, -1}, nil)
			ctx.Text("")
			ctx.Text("not mounted: choose a mount kind that produces this sensor type")
			continue
		}
		e.mountParams(ctx, dp, r)
		mount++
	}
	ctx.SetGridLayout([]int{-1}, []int{4})
	ctx.Text("")
	ctx.SetGridLayout([]int{120, -1}, nil)
	e.button(ctx, "sensors.add", "Add sensor", func() { f.Sensors = append(f.Sensors, newSensorRow()) })
	ctx.Text("a new sensor is a float32 scalar on a speedometer mount; pick its type to change that")
}

// paramsPerLine is how many of a mount kind's parameters (name and field) share a line at
// most: a camera has dozens, which on one line left each field a character wide and most of
// them off the window. A narrower form takes fewer, each at least paramCell pixels wide (a
// name and a field showing a few digits): four in a 900-pixel window cut "60" to "6".
const (
	paramsPerLine = 4
	paramCell     = 96 + 64
)

// paramsPerLineIn returns how many parameters share a line in a form body width pixels wide.
func paramsPerLineIn(width int) int {
	return max(2, min(paramsPerLine, (width-26)/paramCell))
}

// mountParams is the third line of a sensor and those below: the parameters of its mount
// kind.
func (e *Editor) mountParams(ctx *debugui.Context, dp string, r *sensorRow) {
	specs, err := plugins.SensorParams(r.Kind)
	if err != nil || len(specs) == 0 {
		ctx.SetGridLayout([]int{26, -1}, nil)
		ctx.Text("")
		if err != nil {
			ctx.Text(err.Error())
		} else {
			ctx.Text(r.Kind + " mounts have no parameters")
		}
		return
	}
	perLine := paramsPerLineIn(e.clip.Dx())
	widths := []int{26}
	for range perLine {
		widths = append(widths, 96, -1)
	}
	ctx.SetGridLayout(widths, nil)
	if r.Params == nil {
		r.Params = map[string]map[string]string{}
	}
	vals := r.Params[r.Kind]
	if vals == nil {
		vals = map[string]string{}
		r.Params[r.Kind] = vals
	}
	help := ""
	for i, s := range specs {
		if i%perLine == 0 {
			ctx.Text("")
		}
		v := vals[s.Name]
		ctx.Text(s.Name)
		path := dp + ".params." + s.Name
		e.fieldHint(ctx, path, &v, num(s.Default))
		if e.pointedAt("field:" + path) {
			help = s.Name + ": " + specHint(s)
		}
		if v == "" {
			delete(vals, s.Name)
		} else {
			vals[s.Name] = v
		}
	}
	for i := len(specs); i%perLine != 0; i++ { // the last line's empty cells
		ctx.Text("")
		ctx.Text("")
	}
	// What the parameter under the pointer does; empty fields show their defaults.
	ctx.SetGridLayout([]int{26, -1}, nil)
	ctx.Text("")
	if help == "" {
		help = "an empty field takes the default it shows; point at a field to read what it does, its unit and range"
	}
	ctx.Text(help)
	// The row's warnings as the fields change (a film parameter of a camera in the flat
	// look, a coefficient of the other lens model): in Validate's list alone they went unseen.
	for _, p := range e.live.Warnings() {
		if strings.HasPrefix(p.Path, dp+".params.") {
			ctx.Text("")
			ctx.Text("warning: " + p.Message)
		}
	}
}

func (e *Editor) actuatorTable(ctx *debugui.Context, f *vehicleForm) {
	ctx.SetGridLayout([]int{-1}, nil)
	ctx.Text("Actuators: the control channels of the device contract (throttle, steer, brake, ...), min < max.")
	widths := []int{26, -3, -2, -1, -1, -1, 70}
	ctx.SetGridLayout(widths, nil)
	for _, h := range []string{"#", "id", "type", "unit", "min", "max", ""} {
		ctx.Text(h)
	}
	for i := range f.Actuators {
		r := &f.Actuators[i]
		ap := index("device-contract.actuators", i)
		ctx.Text(itoa(i))
		e.field(ctx, ap+".id", &r.ID)
		e.field(ctx, ap+".actuatorType", &r.Type)
		e.field(ctx, ap+".unit", &r.Unit)
		e.field(ctx, ap+".min", &r.Min)
		e.field(ctx, ap+".max", &r.Max)
		e.button(ctx, "actuators["+itoa(i)+"].remove", "Remove", func() { f.Actuators = slices.Delete(f.Actuators, i, i+1) })
	}
	ctx.SetGridLayout([]int{120, -1}, nil)
	e.button(ctx, "actuators.add", "Add actuator", func() { f.Actuators = append(f.Actuators, newActuatorRow()) })
	ctx.Text("a new actuator is continuous, -1..1")
}
