package trackgen

import "simgui/plugins"

func init() { Register(plugins.StaticGenerator, Func(static), plugins.FloorWhole) }

// defaultFloor is the ground under a static track that declares none (rusim exports carry no
// geometry at all): 20 m of grass.
var defaultFloor = plugins.Floor{Length: 20, Width: 20, Texture: "grass", Color: "#6b8f4e"}

// defaultSpawn is where rusim puts a vehicle when its track gives no spawn: Unity (0, 0.2, −6)
// with the identity rotation (facing +z), in simgui's frame (0, −6) facing north.
var defaultSpawn = plugins.SpawnPoint{Name: "start", X: 0, Y: -6, YawDeg: 90}

// static returns the descriptor's own geometry; a track with no geometry at all (a rusim Unity
// export) gets rusim's default spawn.
func static(t *plugins.TrackDescriptor, _ Params, _ int64) (*plugins.Layout, error) {
	c := t.Clone()
	l := &plugins.Layout{Floor: defaultFloor, Elements: c.Elements, SpawnPoints: c.SpawnPoints, Route: c.Route}
	if c.Floor != nil {
		l.Floor = *c.Floor
	}
	if !t.HasLayout() && len(l.SpawnPoints) == 0 {
		l.SpawnPoints = []plugins.SpawnPoint{defaultSpawn}
	}
	return l, nil
}
