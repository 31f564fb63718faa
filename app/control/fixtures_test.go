package control

import (
	"log/slog"

	"simgui/app/transport"
	"simgui/app/world"
	"simgui/plugins"
)

// The small world of the tests (control/controlbench keeps a copy for the benchmarks).

var benchVehicle = &plugins.VehicleDescriptor{
	ID: "vehicle.bench.car.v1", DisplayName: "Bench car", Version: plugins.ContractVersion{Major: 1},
	Body:  &plugins.Body{Shape: "box", Length: 0.25, Width: 0.15, Height: 0.12, Mass: 1, Friction: 0.9},
	Drive: &plugins.Drive{Model: "differential"},
}

var benchTrack = &plugins.TrackDescriptor{
	ID:          "track.bench.v1",
	Elements:    []plugins.Element{{Kind: "wall", Name: "north", X: 0, Y: 2, Length: 4, Width: 0.02, Height: 0.25}},
	SpawnPoints: []plugins.SpawnPoint{{X: 0, Y: 0, YawDeg: 90}},
}

func asIsLayout(t *plugins.TrackDescriptor, _ map[string]any, _ int64) (*plugins.Layout, error) {
	return &plugins.Layout{Elements: t.Elements, SpawnPoints: t.SpawnPoints}, nil
}

// newSmallWorld builds a walled track with one differential car, car0, talking on bus.
func newSmallWorld(bus *transport.Bus) (*world.World, error) {
	return world.New(world.Config{
		Track: benchTrack, BuildLayout: asIsLayout, Bus: bus, Logger: slog.New(slog.DiscardHandler),
		Agents: []world.AgentSpec{{Name: "car0", Vehicle: benchVehicle}},
	})
}

// floodCommands is what flooding clients send, round robin: reads that do not touch the loop
// and world commands that do.
var floodCommands = [][]byte{
	[]byte(`{'command':'device_list','filter':''}`),
	[]byte(`{"command":"fps"}`),
	[]byte(`{"command":"get_model_info","target_model":"car0"}`),
	[]byte(`{"command":"resume"}`),
	[]byte(`{"command":"nonsense"}`),
	[]byte(`{"command":`),
}
