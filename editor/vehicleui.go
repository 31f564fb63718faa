package editor

import (
	"fmt"
	"strings"

	"github.com/ebitengine/debugui"

	"simgui/plugins"
	"simgui/render"
)

// Tabs of the forms.
const (
	tabGeneral   = "general"
	tabBody      = "body"
	tabSensors   = "sensors"
	tabActuators = "actuators"
	tabGeometry  = "geometry"
	tabSpawns    = "spawns"
)

type tabSpec struct {
	name, label string
	// owns reports whether a problem path belongs on this tab.
	owns func(path string) bool
}

func hasAny(p string, prefixes ...string) bool {
	for _, x := range prefixes {
		if strings.HasPrefix(p, x) {
			return true
		}
	}
	return false
}

var vehicleTabs = []tabSpec{
	{tabGeneral, "General", func(p string) bool {
		return !hasAny(p, "descriptor.body", "descriptor.drive", "descriptor.visual", "descriptor.sensors", "device-contract.sensors", "device-contract.actuators")
	}},
	{tabBody, "Body, drive, look", func(p string) bool { return hasAny(p, "descriptor.body", "descriptor.drive", "descriptor.visual") }},
	{tabSensors, "Sensors", func(p string) bool { return hasAny(p, "descriptor.sensors", "device-contract.sensors") }},
	{tabActuators, "Actuators", func(p string) bool { return hasAny(p, "device-contract.actuators") }},
}

var trackTabs = []tabSpec{
	{tabGeneral, "General", func(p string) bool {
		return !hasAny(p, "descriptor.floor", "descriptor.materials", "descriptor.elements", "descriptor.spawnPoints", "descriptor.route")
	}},
	{tabGeometry, "Floor and elements", func(p string) bool {
		return hasAny(p, "descriptor.floor", "descriptor.materials", "descriptor.elements")
	}},
	{tabSpawns, "Spawn points and route", func(p string) bool { return hasAny(p, "descriptor.spawnPoints", "descriptor.route") }},
}

// form lays out the tabs and the form of the tab on show.
func (e *Editor) form(ctx *debugui.Context) {
	tabs := e.tabs()
	widths := make([]int, len(tabs))
	for i := range widths {
		widths[i] = -1
	}
	ctx.SetGridLayout(widths, nil)
	for _, t := range tabs {
		label := t.label
		if n := e.tabErrors(t); n > 0 {
			label += fmt.Sprintf(" (%d!)", n)
		}
		if e.tab == t.name {
			label = "[ " + label + " ]"
		}
		name := t.name
		e.button(ctx, "tab:"+name, label, func() { e.tab = name })
	}
	ctx.SetGridLayout([]int{-1}, nil)
	ctx.Text("")
	switch f := e.d.vehicle; {
	case e.d.typ == plugins.TypeTrack:
		e.trackForm(ctx, e.d.track)
	case e.tab == tabBody:
		e.vehicleBody(ctx, f)
	case e.tab == tabSensors:
		e.sensorTable(ctx, f)
	case e.tab == tabActuators:
		e.actuatorTable(ctx, f)
	default:
		e.vehicleGeneral(ctx, f)
	}
	// Room below the last row, so that a drop-down there (a new row's kind) opens whole: the
	// list opens downwards, and the panel scrolls no further than its content.
	ctx.SetGridLayout([]int{-1}, []int{formTail})
	ctx.Text("")
}

// formTail is the empty space under a form, pixels: a drop-down's list of 11 choices.
const formTail = 260

// tabs are the form's tabs for the plugin's type, General first.
func (e *Editor) tabs() []tabSpec {
	if e.d.typ == plugins.TypeTrack {
		return trackTabs
	}
	return vehicleTabs
}

// tabErrors counts the problems of the automatic check on tab t (shown as "(n!)").
func (e *Editor) tabErrors(t tabSpec) int { return countOwned(e.live.Errors(), t.owns) }

func countOwned(ps plugins.Problems, owns func(string) bool) int {
	n := 0
	for _, p := range ps {
		if owns(canonicalPath(p.Path)) {
			n++
		}
	}
	return n
}

// row lays out label | field | hint.
func (e *Editor) row(ctx *debugui.Context, label, path string, buf *string, hint string) {
	ctx.Text(label)
	e.field(ctx, path, buf)
	ctx.Text(hint)
}

// numRow lays out label | field | range for a number the validator checks against a range
// (rangeSpecs).
func (e *Editor) numRow(ctx *debugui.Context, label, path string, buf *string) {
	e.row(ctx, label, path, buf, rangeHint(path))
}

// rangeSpecs are, by field path, the ranges the validator checks the numbers of numRow
// against: read from its own tables, so that a hint cannot say other than the check.
var rangeSpecs = map[string]func() (plugins.ParamSpec, bool){
	"descriptor.body.length":         tableSpec(plugins.BodyParams(), "length"),
	"descriptor.body.width":          tableSpec(plugins.BodyParams(), "width"),
	"descriptor.body.radius":         tableSpec(plugins.BodyParams(), "radius"),
	"descriptor.body.height":         tableSpec(plugins.BodyParams(), "height"),
	"descriptor.body.mass":           bodySpec("mass"),
	"descriptor.body.friction":       bodySpec("friction"),
	"descriptor.body.linearDamping":  bodySpec("linear_damping"),
	"descriptor.body.angularDamping": bodySpec("angular_damping"),
	"descriptor.route.reachDistance": tableSpec(plugins.GeometryParams, "reachDistance"),
	"descriptor.route.corridorWidth": tableSpec(plugins.GeometryParams, "corridorWidth"),
	"descriptor.route.goalRadius":    tableSpec(plugins.GeometryParams, "goalRadius"),
}

// bodySpec is the range of a body field, as ValidateVehicle and ApplyVehicleConfig check it
// (key as plugins.VehicleParamSpec names it).
func bodySpec(key string) func() (plugins.ParamSpec, bool) {
	return func() (plugins.ParamSpec, bool) { return plugins.VehicleParamSpec(&plugins.VehicleDescriptor{}, key) }
}

// tableSpec is the spec called name in one of plugins' exported tables.
func tableSpec(specs []plugins.ParamSpec, name string) func() (plugins.ParamSpec, bool) {
	return func() (plugins.ParamSpec, bool) { return plugins.FindSpec(specs, name) }
}

// rangeHint is the hint beside the number at path: its range and unit ("0.01..10000 kg").
func rangeHint(path string) string {
	spec, ok := rangeSpecs[path]
	if !ok {
		return ""
	}
	s, ok := spec()
	if !ok {
		return ""
	}
	return s.Range()
}

// meaningHint is rangeHint followed by what the number does, as the drive's and sensors'
// hints say ("0.01..10000 kg: the body's mass, acting in contacts; ..."): the range alone left
// unsaid that the dampings are not applied, or that the mass does not slow the drive.
func meaningHint(path string) string {
	r := rangeHint(path)
	if spec, ok := rangeSpecs[path]; ok {
		if s, ok := spec(); ok && s.Doc != "" {
			return r + ": " + s.Doc
		}
	}
	return r
}

func (e *Editor) baseRows(ctx *debugui.Context, b *baseForm, idHint string) {
	ctx.SetGridLayout([]int{150, -3, -2}, nil)
	e.row(ctx, "id", "descriptor.id", &b.ID, idHint)
	e.row(ctx, "display name", "descriptor.displayName", &b.DisplayName, "shown in lists; free text")
	e.row(ctx, "version", "descriptor.version", &b.Version, "major.minor.patch")
	e.row(ctx, "description", "descriptor.description", &b.Description, `one line; \n for a line break`)
	e.row(ctx, "author", "manifest.author", &b.Author, "name or email (manifest)")
	e.row(ctx, "compatible runtime", "manifest.compatibleRuntime", &b.Runtime, "for example >=0.3.0 (this is "+plugins.RuntimeVersion+")")
}

func (e *Editor) vehicleGeneral(ctx *debugui.Context, f *vehicleForm) {
	e.baseRows(ctx, &f.Base, "vehicle.{brand}.{model}.v{major}")
	e.row(ctx, "device type", "device-contract.deviceType", &f.DeviceType, "ground_robot_differential, ...")
	e.row(ctx, "observation schema", "device-contract.observationSchemaJson", &f.ObservationSchema, "JSON Schema, optional")
	e.row(ctx, "action schema", "device-contract.actionSchemaJson", &f.ActionSchema, "JSON Schema, optional")
	ctx.SetGridLayout([]int{-1}, nil)
	ctx.Text("")
	ctx.Text(fmt.Sprintf("The device contract lists %s and %s (tabs above). Its deviceId is the plugin id.",
		count(len(f.Sensors), "sensor"), count(len(f.Actuators), "actuator")))
}

// vehicleBody is the body, look and drive of a vehicle.
func (e *Editor) vehicleBody(ctx *debugui.Context, f *vehicleForm) {
	ctx.SetGridLayout([]int{-1}, nil)
	ctx.Text("Body (collision shape; x forward, y left, metres)")
	ctx.SetGridLayout([]int{150, -3, -2}, nil)
	ctx.Text("shape")
	e.choice(ctx, "descriptor.body.shape", &f.BodyShape, []string{"box", "circle"})
	ctx.Text("box: length x width; circle: radius")
	// Numbers take a narrow field and leave the width to what they mean, as the drive's do.
	ctx.SetGridLayout([]int{150, 120, -1}, nil)
	e.row(ctx, "length", "descriptor.body.length", &f.Length, meaningHint("descriptor.body.length"))
	e.row(ctx, "width", "descriptor.body.width", &f.Width, meaningHint("descriptor.body.width"))
	e.row(ctx, "radius", "descriptor.body.radius", &f.Radius, meaningHint("descriptor.body.radius"))
	e.row(ctx, "height", "descriptor.body.height", &f.Height, meaningHint("descriptor.body.height"))
	e.row(ctx, "mass", "descriptor.body.mass", &f.Mass, meaningHint("descriptor.body.mass"))
	e.row(ctx, "friction", "descriptor.body.friction", &f.Friction, meaningHint("descriptor.body.friction"))
	e.row(ctx, "linear damping", "descriptor.body.linearDamping", &f.LinearDamping, meaningHint("descriptor.body.linearDamping"))
	e.row(ctx, "angular damping", "descriptor.body.angularDamping", &f.AngularDamping, meaningHint("descriptor.body.angularDamping"))

	ctx.SetGridLayout([]int{-1}, nil)
	ctx.Text("Look")
	ctx.SetGridLayout([]int{150, -3, 24, -2}, nil)
	ctx.Text("shape")
	e.choice(ctx, "descriptor.visual.shape", &f.VisualShape, render.ShapeNames())
	ctx.Text("")
	ctx.Text("how renderers draw it")
	ctx.Text("colour")
	e.field(ctx, "descriptor.visual.color", &f.Color)
	e.swatch(ctx, f.Color)
	ctx.Text("#rrggbb")
	ctx.Text("accent colour")
	e.field(ctx, "descriptor.visual.accent", &f.Accent)
	e.swatch(ctx, f.Accent)
	ctx.Text("#rrggbb, optional")
	mats := materialChoices(f.Materials)
	ctx.Text("material")
	e.choice(ctx, "descriptor.visual.material", &f.Material, mats)
	ctx.Text("")
	ctx.Text("tinted by the colour; own: as drawn")
	ctx.Text("accent material")
	e.choice(ctx, "descriptor.visual.accentMaterial", &f.AccentMaterial, mats)
	ctx.Text("")
	ctx.Text("tinted by the accent; own: as drawn")
	e.vehicleMaterials(ctx, f)

	ctx.SetGridLayout([]int{-1}, nil)
	ctx.Text("Drive")
	ctx.SetGridLayout([]int{150, -3, -2}, nil)
	ctx.Text("model")
	e.choice(ctx, "descriptor.drive.model", &f.DriveModel, plugins.DriveModels())
	ctx.Text("empty parameters take the default")
	specs, err := plugins.DriveParams(f.DriveModel)
	if err != nil {
		ctx.SetGridLayout([]int{-1}, nil)
		ctx.Text(err.Error())
		return
	}
	if f.DriveParams == nil {
		f.DriveParams = map[string]map[string]string{}
	}
	vals := f.DriveParams[f.DriveModel]
	if vals == nil {
		vals = map[string]string{}
		f.DriveParams[f.DriveModel] = vals
	}
	ctx.SetGridLayout([]int{150, 120, -1}, nil)
	for _, s := range specs {
		e.paramRow(ctx, "descriptor.drive.params."+s.Name, s, vals)
	}
}

// paramRow is one parameter of a table: name | value | unit, default, range and what it does.
func (e *Editor) paramRow(ctx *debugui.Context, path string, s plugins.ParamSpec, vals map[string]string) {
	v := vals[s.Name]
	ctx.Text(s.Name)
	e.field(ctx, path, &v)
	ctx.Text(specHint(s))
	if v == "" {
		delete(vals, s.Name)
	} else {
		vals[s.Name] = v
	}
}

func specHint(s plugins.ParamSpec) string {
	unit := ""
	if s.Unit != "" {
		unit = " " + s.Unit
	}
	return fmt.Sprintf("default %s%s, %s: %s", num(s.Default), unit, strings.TrimSuffix(s.Range(), unit), s.Doc)
}
