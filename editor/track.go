package editor

import (
	"strconv"
	"strings"

	"simgui/plugins"
)

// trackForm is a track plugin as its form holds it: PluginDescriptorBase, parametersSchemaJson
// and simgui's geometry (generator, floor, elements, spawn points, route).
type trackForm struct {
	Base baseForm
	// Schema is parametersSchemaJson, compacted to one line.
	Schema string
	// Generator is a registered track generator; "" means the elements are the layout.
	Generator string

	FloorOn                                 bool
	FloorX, FloorY, FloorLength, FloorWidth string
	FloorTexture, FloorColor                string
	Materials                               []materialRow
	Elements                                []elementRow
	Spawns                                  []spawnRow
	RouteOn                                 bool
	Waypoints, Reach                        string
	Loop                                    bool
	Corridor, Goal                          string // the route's corridor width and goal radius, m
	// RouteController and RouteGraph are kept as opened: the form does not show them.
	RouteController, RouteGraph string
}

// elementRow is one piece of geometry; Points is "x,y; x,y; ..." for polygons and roads.
type elementRow struct {
	Kind, Name, X, Y, Z, Length, Width, Height, Radius, YawDeg, Color, Points string
	Movable                                                                   bool
	Mass, Friction                                                            string
	// Material is a built-in material's name or one of the track's own; "" the kind's default.
	Material string
	// ArucoID is a marker's ArUco id; "" a plain square.
	ArucoID string
}

// spawnRow is one spawn point.
type spawnRow struct {
	Name, X, Y, YawDeg string
}

// newElementRow is the row Add element appends: a wall 1 m long at the origin.
func newElementRow() elementRow {
	r := elementRow{Kind: plugins.ElementWall, X: "0", Y: "0", YawDeg: "0", Mass: "0", Friction: "0"}
	r.shape(kindDefaults[plugins.ElementWall])
	return r
}

// kindDefaults are the shape fields each element kind starts with: a wall 1 m long, a box,
// a post, a square block, a road 2 m long, an ArUco-sized black marker 15 cm up.
var kindDefaults = map[string]elementRow{
	plugins.ElementWall:     {Z: "0", Length: "1", Width: "0.1", Height: "0.3", Radius: "0", Color: "#b08a5a"},
	plugins.ElementBox:      {Z: "0", Length: "0.4", Width: "0.4", Height: "0.3", Radius: "0", Color: "#d9a441"},
	plugins.ElementCylinder: {Z: "0", Length: "0", Width: "0", Height: "0.3", Radius: "0.1", Color: "#a0a0aa"},
	plugins.ElementPolygon:  {Z: "0", Length: "0", Width: "0", Height: "0.3", Radius: "0", Color: "#8c8278", Points: "0,0; 1,0; 1,1; 0,1"},
	plugins.ElementRoad:     {Z: "0", Length: "0", Width: "0.6", Height: "0", Radius: "0", Color: "#3b3d40", Points: "0,-1; 0,1"},
	plugins.ElementMarker:   {Z: "0.15", Length: "0.1", Width: "0", Height: "0", Radius: "0", Color: "#000000"},
}

// shape sets r's shape fields to d's.
func (r *elementRow) shape(d elementRow) {
	r.Z, r.Length, r.Width, r.Height, r.Radius, r.Color, r.Points = d.Z, d.Length, d.Width, d.Height, d.Radius, d.Color, d.Points
}

// changeKind follows a change of r's kind from was: each shape field that still holds was's
// default takes the new kind's (a new wall turned marker is a black 10 cm square, not a brown
// 1 m one), those typed stay; an ArUco id goes with the marker kind.
func (r *elementRow) changeKind(was string) {
	from, ok1 := kindDefaults[was]
	to, ok2 := kindDefaults[r.Kind]
	if !ok1 || !ok2 {
		return
	}
	for _, f := range []struct {
		cur      *string
		old, new string
	}{
		{&r.Z, from.Z, to.Z}, {&r.Length, from.Length, to.Length}, {&r.Width, from.Width, to.Width},
		{&r.Height, from.Height, to.Height}, {&r.Radius, from.Radius, to.Radius}, {&r.Color, from.Color, to.Color},
		{&r.Points, from.Points, to.Points},
	} {
		if strings.TrimSpace(*f.cur) == f.old {
			*f.cur = f.new
		}
	}
	if r.Kind != plugins.ElementMarker {
		r.ArucoID = ""
	}
}

// newSpawnRow is the row Add spawn point appends: "start" for the first, then "spawn2",
// "spawn3", ... (the first name no row has), so that the views' labels and the preview's
// "from spawn point" tell them apart (each new one was "start").
func (f *trackForm) newSpawnRow() spawnRow {
	name := "start"
	for n := len(f.Spawns) + 1; f.hasSpawn(name); n++ {
		name = "spawn" + strconv.Itoa(n)
	}
	return spawnRow{Name: name, X: "0", Y: "0", YawDeg: "90"}
}

// hasSpawn reports whether a spawn point row is named name.
func (f *trackForm) hasSpawn(name string) bool {
	for _, s := range f.Spawns {
		if strings.TrimSpace(s.Name) == name {
			return true
		}
	}
	return false
}

// elementKinds are the element kinds the form offers.
var elementKinds = []string{plugins.ElementWall, plugins.ElementBox, plugins.ElementCylinder,
	plugins.ElementPolygon, plugins.ElementRoad, plugins.ElementMarker}

func trackFormFrom(m plugins.Manifest, t *plugins.TrackDescriptor) *trackForm {
	f := &trackForm{
		Base:      baseFrom(m, t.ID, t.DisplayName, t.Version, t.Description),
		Schema:    oneLine(t.ParametersSchemaJSON),
		Generator: t.Generator,
	}
	if fl := t.Floor; fl != nil {
		f.FloorOn = true
		f.FloorX, f.FloorY, f.FloorLength, f.FloorWidth = num(fl.X), num(fl.Y), num(fl.Length), num(fl.Width)
		f.FloorTexture, f.FloorColor = fl.Texture, fl.Color
	} else {
		f.FloorX, f.FloorY, f.FloorLength, f.FloorWidth = "0", "0", "10", "10"
	}
	f.Materials = materialRows(t.Materials)
	for _, e := range t.Elements {
		f.Elements = append(f.Elements, elementRow{
			Kind: e.Kind, Name: e.Name, X: num(e.X), Y: num(e.Y), Z: num(e.Z), Length: num(e.Length), Width: num(e.Width),
			Height: num(e.Height), Radius: num(e.Radius), YawDeg: num(e.YawDeg), Color: e.Color, Points: formatPoints(e.Points),
			Movable: e.Movable, Mass: num(e.Mass), Friction: num(e.Friction), Material: e.Material,
		})
		if e.ArucoID != nil {
			f.Elements[len(f.Elements)-1].ArucoID = strconv.Itoa(*e.ArucoID)
		}
	}
	for _, s := range t.SpawnPoints {
		f.Spawns = append(f.Spawns, spawnRow{Name: s.Name, X: num(s.X), Y: num(s.Y), YawDeg: num(s.YawDeg)})
	}
	if r := t.Route; r != nil {
		f.RouteOn, f.Waypoints, f.Reach, f.Loop = true, formatPoints(r.Waypoints), num(r.ReachDistance), r.Loop
		f.Corridor, f.Goal, f.RouteController, f.RouteGraph = num(r.CorridorWidth), num(r.GoalRadius), r.Controller, r.Graph
	}
	return f
}

// build returns the manifest and the track the form describes, and the text that could not be
// read (standIn in its place).
func (f *trackForm) build(standIn float64) (plugins.Manifest, *plugins.TrackDescriptor, plugins.Problems) {
	p := parser{standIn: standIn}
	m, ver := f.Base.build(plugins.TypeTrack)
	t := &plugins.TrackDescriptor{
		ID: m.PluginID, DisplayName: f.Base.DisplayName, Version: ver, Description: unescapeLines(f.Base.Description),
		ParametersSchemaJSON: f.Schema, Generator: f.Generator,
	}
	if f.FloorOn {
		t.Floor = &plugins.Floor{Texture: strings.TrimSpace(f.FloorTexture), Color: strings.TrimSpace(f.FloorColor)}
		if plugins.GeneratorFloor(f.Generator) == plugins.FloorWhole { // else the generator places it
			t.Floor.X, t.Floor.Y = p.float("descriptor.floor.x", f.FloorX), p.float("descriptor.floor.y", f.FloorY)
			t.Floor.Length, t.Floor.Width = p.float("descriptor.floor.length", f.FloorLength), p.float("descriptor.floor.width", f.FloorWidth)
		}
	}
	t.Materials = p.materials(f.Materials)
	for i, r := range f.Elements {
		ep := index("descriptor.elements", i)
		e := plugins.Element{
			Kind: r.Kind, Name: strings.TrimSpace(r.Name),
			X: p.float(ep+".x", r.X), Y: p.float(ep+".y", r.Y), Z: p.float(ep+".z", r.Z),
			Length: p.float(ep+".length", r.Length), Width: p.float(ep+".width", r.Width),
			Height: p.float(ep+".height", r.Height), Radius: p.float(ep+".radius", r.Radius),
			YawDeg: p.float(ep+".yawDeg", r.YawDeg), Color: strings.TrimSpace(r.Color),
			Points: p.points(ep+".points", r.Points), Movable: r.Movable,
			Mass: p.float(ep+".mass", r.Mass), Friction: p.float(ep+".friction", r.Friction),
			Material: strings.TrimSpace(r.Material), ArucoID: p.optInt(ep+".arucoId", r.ArucoID),
		}
		t.Elements = append(t.Elements, e)
	}
	for i, r := range f.Spawns {
		sp := index("descriptor.spawnPoints", i)
		t.SpawnPoints = append(t.SpawnPoints, plugins.SpawnPoint{Name: strings.TrimSpace(r.Name),
			X: p.float(sp+".x", r.X), Y: p.float(sp+".y", r.Y), YawDeg: p.float(sp+".yawDeg", r.YawDeg)})
	}
	if f.RouteOn {
		t.Route = &plugins.Route{Waypoints: p.points("descriptor.route.waypoints", f.Waypoints),
			ReachDistance: p.float("descriptor.route.reachDistance", f.Reach), Loop: f.Loop,
			CorridorWidth: p.float("descriptor.route.corridorWidth", f.Corridor), GoalRadius: p.float("descriptor.route.goalRadius", f.Goal),
			Controller: f.RouteController, Graph: f.RouteGraph}
		if t.Route.Waypoints == nil {
			t.Route.Waypoints = [][2]float64{}
		}
	}
	return m, t, p.ps
}
