package world

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"time"

	"simgui/app/events"
	"simgui/app/transport"
	"simgui/physics"
	"simgui/physics/drive"
	"simgui/plugins"
)

// DefaultStepSize is the step used when Config.StepSize is zero, in seconds.
const DefaultStepSize = 0.005

// LayoutBuilder makes a track concrete for a seed (trackgen.Build in the app).
type LayoutBuilder func(t *plugins.TrackDescriptor, params map[string]any, seed int64) (*plugins.Layout, error)

// Config is everything a World is built from. Reset rebuilds the world from it.
type Config struct {
	// Name is the world's name in topics and services (/world/<name>/...); default "default".
	Name string
	// StepSize is the fixed step in seconds (scenario runtime.stepSize).
	StepSize float64
	// Seed seeds every random source; Reset may replace it.
	Seed int64
	// Track and TrackParams describe the track; BuildLayout makes it concrete.
	Track       *plugins.TrackDescriptor
	TrackParams map[string]any
	BuildLayout LayoutBuilder
	// Agents are spawned in order at start and at every reset.
	Agents []AgentSpec
	// VehicleCollisions lets vehicles collide with each other (agents.collisionsEnabled).
	VehicleCollisions bool
	// Physics is the physics mode (scenario runtime.physics); the zero value is dynamic.
	Physics physics.Mode
	// Logger receives warnings and recovered panics; default slog.Default().
	Logger *slog.Logger
	// Bus, when set, is the transport bus the world's systems publish and subscribe on
	// (World.Bus). The world itself neither publishes nor subscribes: adapters such as the gz
	// topics system and the sensors do.
	Bus *transport.Bus
	// BeforeReset, when set, runs at the start of every Reset with the world's config (on the
	// loop goroutine). It may replace Track, TrackParams or Agents; an error fails the reset and
	// the world keeps its state. The app checks with it that the plugins in use are still
	// installed.
	BeforeReset func(cfg *Config) error
}

// AgentSpec is a vehicle to spawn.
type AgentSpec struct {
	Name string
	// Vehicle is the descriptor with vehicle params already applied; it must not be modified
	// after it is handed to the world (snapshots share it).
	Vehicle *plugins.VehicleDescriptor
	// Spawn is where to start; nil takes the track's spawn point with the agent's index, or a
	// free cell of a grid behind the last one when there are more agents than spawn points
	// (see place.go).
	Spawn *Pose
	// SpawnYaw, when Spawn is nil and SpawnYaw is not, is the heading (radians) of the pose the
	// world places the agent at: rusim's clients give an agent its yaw alone.
	SpawnYaw *float64
}

// Pose is a pose in the world frame: X, Y, Z (altitude of the base) in metres, Yaw in radians.
type Pose struct {
	X, Y, Z, Yaw float64
}

// Model is a spawned vehicle. What every step reads of it (Body, Drive, the start of
// Command) comes first, in one cache line: a fleet's models are read every step.
type Model struct {
	Body  *physics.Body
	Drive drive.Model
	// Command is held until replaced.
	Command drive.Command
	ID      uint32
	Name    string
	Vehicle *plugins.VehicleDescriptor
	// Initial is where the model spawned.
	Initial Pose
	// SpawnStep is the step count at which the model appeared.
	SpawnStep uint64
	// base is the body's Base before this step's drive: where a flying body came down from.
	base float64
}

// World is the simulation state. See the package doc: only the loop goroutine may call its
// methods.
type World struct {
	cfg  Config
	log  *slog.Logger
	step uint64
	// simTime in nanoseconds; stepNs is the step in nanoseconds (exact).
	simTime time.Duration
	stepNs  time.Duration
	dt      float64
	seed    int64

	// episode holds the physics space, layout, models and boxes; a reset swaps it whole.
	episode
	// layoutVersion changes whenever layout is rebuilt, so readers can cache derived data.
	layoutVersion uint64
	pending       []pendingPose
	inStep        bool

	bus        *events.Bus
	entities   map[uint32]*events.Bus
	nextAction uint64
	// driveFn is w.drive as a func value, made once: a method value made every step would
	// allocate and call through a wrapper.
	driveFn func(*physics.Body)
	// stepEvent is the last step event's payload, boxed, and stepInfo what it holds (boxed).
	stepEvent any
	stepInfo  events.StepInfo

	systems   []*systemEntry
	callbacks []*callback
	nextCB    uint64
	started   bool

	rng      rngSet
	overlays map[string]any
	loop     *Loop // set by NewLoop
}

type pendingPose struct {
	m       *Model
	pose    Pose
	actions []events.Action // every SetPose of this step, completed together at the flush
}

// New builds a world from cfg: lays out the track for cfg.Seed and spawns the agents.
func New(cfg Config) (*World, error) {
	if cfg.Name == "" {
		cfg.Name = "default"
	}
	if cfg.StepSize == 0 {
		cfg.StepSize = DefaultStepSize
	}
	if cfg.StepSize < 1e-5 || cfg.StepSize > 0.1 || math.IsNaN(cfg.StepSize) {
		return nil, fmt.Errorf("step size %g s is outside 0.00001..0.1", cfg.StepSize)
	}
	if cfg.Track == nil {
		return nil, errors.New("world needs a track")
	}
	if cfg.BuildLayout == nil {
		return nil, errors.New("world needs a layout builder")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	w := &World{
		cfg:      cfg,
		log:      cfg.Logger,
		stepNs:   time.Duration(math.Round(cfg.StepSize * 1e9)),
		bus:      events.NewBus(cfg.Logger),
		entities: map[uint32]*events.Bus{},
	}
	w.dt = w.stepNs.Seconds()
	w.driveFn = w.drive
	st, err := w.build(cfg, cfg.Seed)
	if err != nil {
		return nil, err
	}
	w.commit(st, cfg.Seed)
	return w, nil
}

// episode is the part of a world that a reset replaces: built aside by build and swapped in
// by commit, so a build that fails leaves the world as it was.
type episode struct {
	space  *physics.Space
	layout *plugins.Layout
	models []*Model
	// byBody[id] is the model whose body has that ID, for the drive pass (Space.EachVehicle).
	byBody []*Model
	byName map[string]*Model
	boxes  []*physics.Body
	// boxElems[i] is the element boxes[i] was built from.
	boxElems []plugins.Element
	// flyers says whether a flying vehicle was ever spawned, so that a fleet of ground
	// vehicles skips the landing pass (World.landFlyers).
	flyers bool
}

// build lays out cfg's track for seed and spawns cfg's agents into a fresh physics space,
// touching nothing of w. A space built for an episode that failed is released at once, as a
// replaced one is (Reset), so resets that keep failing do not pile up spaces.
func (w *World) build(cfg Config, seed int64) (_ *episode, err error) {
	layout, err := cfg.BuildLayout(cfg.Track, cfg.TrackParams, seed)
	if err != nil {
		return nil, fmt.Errorf("track %s: %w", cfg.Track.ID, err)
	}
	ep := &episode{
		space:  physics.NewSpace(physics.Options{Mode: cfg.Physics, VehicleCollisions: cfg.VehicleCollisions}),
		layout: layout, byName: map[string]*Model{},
	}
	defer func() {
		if err != nil {
			ep.space.Release()
		}
	}()
	for _, e := range layout.Elements {
		b, err := ep.space.AddElement(e)
		if err != nil {
			return nil, fmt.Errorf("track %s: %w", cfg.Track.ID, err)
		}
		if b != nil && b.Kind == physics.KindBox {
			ep.boxes = append(ep.boxes, b)
			ep.boxElems = append(ep.boxElems, e)
		}
	}
	// Agents without a spawn pose stand on the spawn points, then on a collision-free grid
	// behind them (placeAgents).
	agents, err := placeAgents(ep.space, layout, cfg.Track.ID, cfg.Agents)
	if err != nil {
		return nil, err
	}
	for _, a := range agents {
		if _, err := ep.spawn(a, 0); err != nil {
			return nil, err
		}
	}
	return ep, nil
}

// commit makes ep the world's state at step 0 of seed and re-seeds every random stream.
func (w *World) commit(ep *episode, seed int64) {
	w.episode = *ep
	w.pending = nil
	w.layoutVersion++
	w.step, w.simTime = 0, 0
	w.seed = seed
	w.rng.reseed(seed)
}

// Name returns the world's name.
func (w *World) Name() string { return w.cfg.Name }

// StepCount returns the number of steps taken since the start or the last reset.
func (w *World) StepCount() uint64 { return w.step }

// SimTime returns the simulation time since the start or the last reset.
func (w *World) SimTime() time.Duration { return w.simTime }

// StepSize returns the fixed step in seconds.
func (w *World) StepSize() float64 { return w.dt }

// Seed returns the seed of the current episode.
func (w *World) Seed() int64 { return w.seed }

// Events returns the world's global event bus.
func (w *World) Events() *events.Bus { return w.bus }

// EntityEvents returns the event bus of one entity, creating it on first use.
func (w *World) EntityEvents(id uint32) *events.Bus {
	b, ok := w.entities[id]
	if !ok {
		b = events.NewBus(w.log)
		w.entities[id] = b
	}
	return b
}

// Space returns the physics space, for ray queries and contact state. Systems must not add or
// remove bodies through it; use Spawn and Remove.
func (w *World) Space() *physics.Space { return w.space }

// Layout returns the concrete track of this episode. It must not be modified.
func (w *World) Layout() *plugins.Layout { return w.layout }

// LayoutVersion changes every time the layout is rebuilt (at reset).
func (w *World) LayoutVersion() uint64 { return w.layoutVersion }

// Track returns the track descriptor.
func (w *World) Track() *plugins.TrackDescriptor { return w.cfg.Track }

// Models returns the spawned vehicles in spawn order. The slice is the world's own.
func (w *World) Models() []*Model { return w.models }

// Model returns the vehicle called name, or nil.
func (w *World) Model(name string) *Model { return w.byName[name] }

// Boxes returns the pushable boxes.
func (w *World) Boxes() []*physics.Body { return w.boxes }

// Logger returns the world's logger.
func (w *World) Logger() *slog.Logger { return w.log }

// SetCommand replaces the held command of a vehicle.
func (w *World) SetCommand(name string, cmd drive.Command) error {
	m := w.byName[name]
	if m == nil {
		return fmt.Errorf("no model %q", name)
	}
	m.Command = cmd
	return nil
}

// Bus returns the transport bus the world's systems use (Config.Bus), or nil.
func (w *World) Bus() *transport.Bus { return w.cfg.Bus }
