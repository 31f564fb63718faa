package trackgen

import "simgui/plugins"

func init() { Register(plugins.StaticGenerator, Func(static), plugins.FloorWhole) }

// defaultFloor is the ground under a static track that declares none (rusim exports carry no
// geometry at all): 20 m of grass.
var defaultFloor = plugins.Floor{Length: 20, Width: 20, Texture: "grass", Color: "#6b8f4e"}

// static returns the descriptor's own geometry.
func static(t *plugins.TrackDescriptor, _ Params, _ int64) (*plugins.Layout, error) {
	c := t.Clone()
	l := &plugins.Layout{Floor: defaultFloor, Elements: c.Elements, SpawnPoints: c.SpawnPoints, Route: c.Route}
	if c.Floor != nil {
		l.Floor = *c.Floor
	}
	return l, nil
}
