package editor

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/ebitengine/debugui"

	"simgui/plugins"
	"simgui/plugins/trackgen"
)

// exampleSchema is the parameters schema of rusim's track.cardboard_corridor.v1.
const exampleSchema = `{"type":"object","properties":{"length":{"type":"number","minimum":1.0,"maximum":20.0},` +
	`"width":{"type":"number","minimum":0.3,"maximum":2.0},"floor_texture":{"type":"string","enum":["plywood","carpet","tile"]}},` +
	`"required":["length","width"]}`

func (e *Editor) trackForm(ctx *debugui.Context, f *trackForm) {
	switch e.tab {
	case tabGeometry:
		e.trackGeometry(ctx, f)
	case tabSpawns:
		e.trackSpawns(ctx, f)
	default:
		e.trackGeneral(ctx, f)
	}
}

func (e *Editor) trackGeneral(ctx *debugui.Context, f *trackForm) {
	e.baseRows(ctx, &f.Base, "track.{name}.v{major}")
	ctx.Text("generator")
	e.choice(ctx, "descriptor.generator", &f.Generator, append([]string{""}, trackgen.Names()...))
	ctx.Text("none: the elements are the layout; a generator lays its own, and the elements go on top")

	ctx.SetGridLayout([]int{-1}, nil)
	ctx.Text("")
	ctx.Text("parametersSchemaJson: the JSON Schema of the parameters a scenario may set (checked as you type)")
	ctx.SetGridLayout([]int{-1, 60, 70, 70}, nil)
	e.field(ctx, "descriptor.parametersSchemaJson", &f.Schema)
	e.button(ctx, "schema.clear", "Clear", func() { f.Schema = "" })
	e.button(ctx, "schema.example", "Example", func() { f.Schema = exampleSchema })
	e.button(ctx, "schema.compact", "Compact", func() { f.Schema = oneLine(f.Schema) })
	ctx.SetGridLayout([]int{-1}, nil)
	ctx.Text(e.schemaStatus())
	var pretty bytes.Buffer
	if json.Indent(&pretty, []byte(f.Schema), "", "  ") == nil {
		lines := strings.Split(pretty.String(), "\n")
		const most = 40
		if len(lines) > most {
			lines = append(lines[:most], "  ...")
		}
		for _, l := range lines {
			ctx.Text(l)
		}
	}
}

// schemaStatus says whether parametersSchemaJson compiles, from the latest automatic check
// (the validator's own message when it does not).
func (e *Editor) schemaStatus() string {
	for _, p := range e.live.Errors() {
		if p.Path == "descriptor.parametersSchemaJson" {
			return "schema: " + p.Message
		}
	}
	if strings.TrimSpace(e.d.track.Schema) == "" {
		return "schema: empty (no parameters)"
	}
	return "schema: compiles"
}

func (e *Editor) trackGeometry(ctx *debugui.Context, f *trackForm) {
	ctx.SetGridLayout([]int{-1}, nil)
	label := "floor (the ground rectangle, centred at x, y; metres)"
	use := plugins.GeneratorFloor(f.Generator)
	switch use {
	case plugins.FloorLook:
		label = "floor (the " + f.Generator + " generator sizes and places it; texture and colour are yours)"
	case plugins.FloorNone:
		label = "floor (not used: the " + f.Generator + " generator lays a floor of its own)"
	}
	e.checkbox(ctx, "descriptor.floor", label, &f.FloorOn)
	if f.FloorOn && use == plugins.FloorWhole {
		ctx.SetGridLayout([]int{26, 20, -1, 20, -1, 50, -1, 50, -1}, nil)
		ctx.Text("")
		ctx.Text("x")
		e.field(ctx, "descriptor.floor.x", &f.FloorX)
		ctx.Text("y")
		e.field(ctx, "descriptor.floor.y", &f.FloorY)
		ctx.Text("length")
		e.field(ctx, "descriptor.floor.length", &f.FloorLength)
		ctx.Text("width")
		e.field(ctx, "descriptor.floor.width", &f.FloorWidth)
	}
	if f.FloorOn && use != plugins.FloorNone {
		ctx.SetGridLayout([]int{26, 60, -2, 50, -1, 24}, nil)
		ctx.Text("")
		ctx.Text("texture")
		e.choice(ctx, "descriptor.floor.texture", &f.FloorTexture, materialChoices(f.Materials))
		ctx.Text("colour")
		e.field(ctx, "descriptor.floor.color", &f.FloorColor)
		e.swatch(ctx, f.FloorColor)
	}
	ctx.SetGridLayout([]int{-1}, nil)
	ctx.Text("")
	ctx.Text("Elements: walls and boxes (length along yaw, width across), cylinders, polygons and roads (points x,y; x,y), " +
		"markers (an aruco id, 0 to " + itoa(plugins.ArucoIDs-1) + ", draws an ArUco " + plugins.ArucoDictionary + " marker)")
	if !plugins.DescriptorIsLayout(f.Generator) {
		ctx.Text("The " + f.Generator + " generator lays the track out; the elements here are added to its layout, where they say.")
	}
	line1 := []int{26, 80, -2, -1, -1, -1, -1, -2, 96, 70}
	line2 := []int{26, -1, -1, -1, -1, -4, -1, 80, -1, -1}
	ctx.SetGridLayout(line1, nil)
	for _, h := range []string{"#", "kind", "name", "x", "y", "z", "yaw deg", "colour", "material", ""} {
		ctx.Text(h)
	}
	ctx.SetGridLayout(line2, nil)
	for _, h := range []string{"", "length", "width", "height", "radius", "points", "aruco", "", "mass kg", "friction"} {
		ctx.Text(h)
	}
	mats := materialChoices(f.Materials)
	for i := range f.Elements {
		r := &f.Elements[i]
		ep := index("descriptor.elements", i)
		ctx.SetGridLayout([]int{-1}, []int{4})
		ctx.Text("")
		ctx.SetGridLayout(line1, nil)
		ctx.Text(itoa(i))
		was := r.Kind
		if e.choice(ctx, ep+".kind", &r.Kind, elementKinds); r.Kind != was {
			r.changeKind(was)
		}
		e.field(ctx, ep+".name", &r.Name)
		e.field(ctx, ep+".x", &r.X)
		e.field(ctx, ep+".y", &r.Y)
		e.field(ctx, ep+".z", &r.Z)
		e.field(ctx, ep+".yawDeg", &r.YawDeg)
		e.field(ctx, ep+".color", &r.Color)
		e.choice(ctx, ep+".material", &r.Material, mats)
		e.button(ctx, "elements["+itoa(i)+"].remove", "Remove", func() { f.Elements = slices.Delete(f.Elements, i, i+1) })
		ctx.SetGridLayout(line2, nil)
		ctx.Text("")
		e.field(ctx, ep+".length", &r.Length)
		e.field(ctx, ep+".width", &r.Width)
		e.field(ctx, ep+".height", &r.Height)
		e.field(ctx, ep+".radius", &r.Radius)
		e.field(ctx, ep+".points", &r.Points)
		e.field(ctx, ep+".arucoId", &r.ArucoID)
		e.checkbox(ctx, ep+".movable", "movable", &r.Movable)
		e.field(ctx, ep+".mass", &r.Mass)
		e.field(ctx, ep+".friction", &r.Friction)
	}
	ctx.SetGridLayout([]int{-1}, []int{4})
	ctx.Text("")
	ctx.SetGridLayout([]int{120, -1}, nil)
	e.button(ctx, "elements.add", "Add element", func() { f.Elements = append(f.Elements, newElementRow()) })
	ctx.Text("a new element is a 1 m wall at the origin")
	e.trackMaterials(ctx, f)
}

func (e *Editor) trackSpawns(ctx *debugui.Context, f *trackForm) {
	ctx.SetGridLayout([]int{-1}, nil)
	if !plugins.DescriptorIsLayout(f.Generator) {
		// The preview draws the generator's, not these rows (trackgen.Build does not read them).
		ctx.Text("The " + f.Generator + " generator places the spawn point and the route from the track's parameters " +
			"(the preview shows them; a scenario moves them with spawn.* and route.*): rows here are not used.")
	}
	ctx.Text("Spawn points: where vehicles start (x, y in metres; yaw counter-clockwise from east)")
	widths := []int{26, -3, -1, -1, -1, 70}
	ctx.SetGridLayout(widths, nil)
	for _, h := range []string{"#", "name", "x", "y", "yaw deg", ""} {
		ctx.Text(h)
	}
	for i := range f.Spawns {
		r := &f.Spawns[i]
		sp := index("descriptor.spawnPoints", i)
		ctx.Text(itoa(i))
		e.field(ctx, sp+".name", &r.Name)
		e.field(ctx, sp+".x", &r.X)
		e.field(ctx, sp+".y", &r.Y)
		e.field(ctx, sp+".yawDeg", &r.YawDeg)
		e.button(ctx, "spawns["+itoa(i)+"].remove", "Remove", func() { f.Spawns = slices.Delete(f.Spawns, i, i+1) })
	}
	ctx.SetGridLayout([]int{120, -1}, nil)
	e.button(ctx, "spawns.add", "Add spawn point", func() { f.Spawns = append(f.Spawns, f.newSpawnRow()) })
	ctx.Text("")

	ctx.SetGridLayout([]int{-1}, nil)
	ctx.Text("")
	e.checkbox(ctx, "descriptor.route", "route (waypoints training code may follow)", &f.RouteOn)
	if f.RouteOn {
		ctx.SetGridLayout([]int{150, -3, -2}, nil)
		e.row(ctx, "waypoints", "descriptor.route.waypoints", &f.Waypoints, "x,y; x,y; ... metres")
		e.numRow(ctx, "reach distance", "descriptor.route.reachDistance", &f.Reach)
		e.row(ctx, "corridor width", "descriptor.route.corridorWidth", &f.Corridor,
			rangeHint("descriptor.route.corridorWidth")+"; out of bounds past half of it (0: unbounded)")
		e.row(ctx, "goal radius", "descriptor.route.goalRadius", &f.Goal,
			rangeHint("descriptor.route.goalRadius")+"; the episode ends this near the last waypoint (0: the reach distance)")
		ctx.Text("")
		e.checkbox(ctx, "descriptor.route.loop", "loop: start over after the last", &f.Loop)
		ctx.Text("")
	}
}
