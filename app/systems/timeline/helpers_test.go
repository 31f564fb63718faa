package timeline

import (
	"fmt"
	"log/slog"
	"math"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"simgui/app/systems"
	"simgui/app/systems/gztopics"
	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/app/world"
	"simgui/plugins"
)

const dt = 5 * time.Millisecond // the worlds' step

// newWorld returns a world with one KS0223 called "ego" on a flat floor and a transport bus;
// both are closed when the test ends.
func newWorld(t *testing.T) (*world.World, *transport.Bus) {
	t.Helper()
	quiet := slog.New(slog.DiscardHandler)
	bus := transport.NewBus(transport.Options{Logger: quiet})
	w, err := world.New(world.Config{Track: flatArena, BuildLayout: asIs, Bus: bus, Logger: quiet, StepSize: dt.Seconds(),
		Agents: []world.AgentSpec{{Name: "ego", Vehicle: ks0223}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close(); bus.Close() })
	// Commands reach the car through the gz topics system, as in every world of the app.
	if err := w.AddSystem(&gztopics.Adapter{}, world.SystemOptions{Name: gztopics.ID}); err != nil {
		t.Fatal(err)
	}
	return w, bus
}

// build builds a timeline from a scenario `plugins:` entry written in YAML.
func build(t *testing.T, entry string) (*Publisher, world.SystemOptions) {
	t.Helper()
	var e systems.Entry
	if err := yaml.Unmarshal([]byte(entry), &e); err != nil {
		t.Fatal(err)
	}
	b, err := systems.Build(e)
	if err != nil {
		t.Fatal(err)
	}
	return b.System.(*Publisher), b.Options
}

// add builds the entry and adds it to w.
func add(t *testing.T, w *world.World, entry string) *Publisher {
	t.Helper()
	p, opt := build(t, entry)
	if err := w.AddSystem(p, opt); err != nil {
		t.Fatal(err)
	}
	return p
}

// steps runs n steps.
func steps(w *world.World, n int) {
	for range n {
		w.Step()
	}
}

// until steps w until its sim time reaches t.
func until(w *world.World, t time.Duration) {
	for w.SimTime() < t {
		w.Step()
	}
}

// marks is a timeline config whose keyframe i publishes gz.msgs.Double{data: label} on /mark,
// given as "time:label" pairs.
func marks(head string, frames ...string) string {
	var b strings.Builder
	b.WriteString("type: systems.timeline_publisher\nconfig:\n")
	for _, l := range strings.Split(strings.TrimSpace(head), "\n") {
		if l != "" {
			b.WriteString("  " + l + "\n")
		}
	}
	b.WriteString("  keyframes:\n")
	for _, f := range frames {
		at, label, _ := strings.Cut(f, ":")
		fmt.Fprintf(&b, "    - {time: %s, outputs: [{topic: /mark, type: gz.msgs.Double, content: \"data: %s\"}]}\n", at, label)
	}
	return b.String()
}

// recorder collects what is published on a topic.
type recorder struct {
	sub *transport.Subscription
}

func record(t *testing.T, bus *transport.Bus, topic string) *recorder {
	t.Helper()
	r := &recorder{sub: bus.Subscribe(topic, transport.WithQueueLen(1<<16))}
	t.Cleanup(r.sub.Close)
	return r
}

// take returns the messages received so far as "stamp:data" (stamp in ms, data of a Double).
func (r *recorder) take() []string {
	var out []string
	for {
		select {
		case m := <-r.sub.C():
			out = append(out, fmt.Sprintf("%g:%g", float64(m.Stamp)/1e6, m.Msg.(*msgs.Double).GetData()))
		default:
			return out
		}
	}
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// ks0223 is the KS0223 car with the differential drive's default, calibrated parameters, for
// the tests that need the real drive.
var ks0223 = &plugins.VehicleDescriptor{
	ID: "vehicle.ks0223.v1", DisplayName: "KS0223", Version: plugins.ContractVersion{Major: 1},
	DeviceType: "ground_robot_differential",
	Body:       &plugins.Body{Shape: "box", Length: 0.25, Width: 0.15, Height: 0.12, Mass: 1, Friction: 0.9},
	Drive:      &plugins.Drive{Model: "differential"},
}

// flatArena is an empty floor with basic_arena's spawn point: (0, −7.5) facing north.
var flatArena = &plugins.TrackDescriptor{
	ID: "track.flat_arena.v1", DisplayName: "Flat arena", Version: plugins.ContractVersion{Major: 1},
	SpawnPoints: []plugins.SpawnPoint{{X: 0, Y: -7.5, YawDeg: 90}},
}

// asIs lays a track out as described.
func asIs(t *plugins.TrackDescriptor, _ map[string]any, _ int64) (*plugins.Layout, error) {
	return &plugins.Layout{Elements: t.Elements, SpawnPoints: t.SpawnPoints}, nil
}

// fromYAML builds a Publisher from the `config:` body of a scenario entry, as the scenario
// loader does (strict keys, then Validate).
func fromYAML(config string) (*Publisher, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(config), &doc); err != nil {
		return nil, err
	}
	e := systems.Entry{Type: ID}
	if len(doc.Content) == 1 {
		e.Config = *doc.Content[0]
	}
	built, err := systems.Build(e)
	if err != nil {
		return nil, err
	}
	return built.System.(*Publisher), nil
}
