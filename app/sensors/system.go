package sensors

import (
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"

	"simgui/app/markers"
	"simgui/app/sensors/jpegenc"
	"simgui/app/transport"
	"simgui/app/world"
	"simgui/plugins"
	"simgui/render"
)

// Options configures a System.
type Options struct {
	// Bus carries the readings (topics /model/<model>/sensor/<id>/<kind>); nil publishes nothing
	// (Latest, Frame and dumps still work).
	Bus *transport.Bus
	// Logger receives warnings; default slog.Default().
	Logger *slog.Logger
	// Encoder encodes JPEG frames; nil means jpegenc.Default().
	Encoder jpegenc.Encoder
	// Environment is the cameras' base environment: the sky and ground their look starts from
	// and the flat look's light (cameras with realistic 0, depth cameras); nil means
	// render.DefaultEnvironment(). A camera's look parameters (render.MountCamera) add the
	// realistic light, shadows and randomization.
	Environment *render.Environment
	// Markers returns the current marker set (the world overlay markers.OverlayKey) for
	// cameras to draw; nil draws no markers. Called on the loop goroutine.
	Markers func() *markers.Set
	// Lossless makes image sensors wait for their workers instead of dropping frames when
	// the workers fall behind (always so while a dump runs).
	Lossless bool
	// QueueLen is how many frames per image sensor may wait; 0 means DefaultQueueLen.
	QueueLen int
	// HidePeers hides other vehicles from every camera unless SetPeerVisibility says otherwise
	// (scenario agents.seeEachOther: false).
	HidePeers bool
}

// System runs the sensors of every model in a world. Add it with World.AddSystem: at Init and
// whenever the world's models change (spawn, removal, reset) it builds each model's sensors
// from the vehicle's device contract and mounts, and after every step (PostStep) it fires the
// sensors that are due. Its methods are called on the loop goroutine unless they say otherwise.
type System struct {
	opts Options
	log  *slog.Logger
	w    *world.World

	models  []*modelSensors
	byName  map[string]*modelSensors
	episode int // resets seen
	peers   map[string]bool
	gains   map[gainKey]*render.GainTable // SetImageGains'

	scene    scene
	rays     rays
	ctx      Context // PostStep's
	callCtx  Context // Frame's and FireNow's
	renderer *render.Renderer

	dump atomic.Pointer[dump]
	// keepFrames is SetLossless's: a recording takes the world's readings; gate is
	// SetPublishGate's.
	keepFrames atomic.Bool
	gate       atomic.Pointer[func()]
	gateMu     sync.Mutex // one reading at a time through the gate

	flushMu  sync.Mutex
	flushers map[flusher]struct{}

	warnMu sync.Mutex
	warned map[string]bool
}

type modelSensors struct {
	model   *world.Model
	entries []*entry
}

type entry struct {
	spec    *Spec
	kind    Kind
	sensor  Sensor
	tracker Tracker
	sched   Schedule
}

// New returns a system; add it to a world with World.AddSystem.
func New(opts Options) *System {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	s := &System{opts: opts, log: opts.Logger, byName: map[string]*modelSensors{}, flushers: map[flusher]struct{}{},
		warned: map[string]bool{}}
	s.scene.sys = s
	s.ctx.sys = s
	return s
}

// Init builds the sensors of the world's models; an error (an unknown sensor kind, a bad
// parameter or contract entry) aborts loading.
func (s *System) Init(w *world.World) error {
	s.w = w
	return s.sync(w)
}

// PostStep fires the sensors that are due, in model order then contract order.
func (s *System) PostStep(w *world.World) {
	s.w = w
	if err := s.sync(w); err != nil {
		s.log.Error("sensors not built", "err", err)
	}
	c := &s.ctx
	c.World, c.Step, c.Stamp = w, w.StepCount(), w.SimTime()
	for _, ms := range s.models {
		c.Model = ms.model
		for _, e := range ms.entries {
			if e.tracker != nil {
				e.tracker.Track(c)
			}
			if e.sched.Due(c.Stamp) {
				e.sensor.Fire(c)
			}
		}
	}
	c.World, c.Model = nil, nil
}

// Reset discards every sensor (waiting for queued frames) and builds them again for the new
// episode: schedules restart at sim time 0.
func (s *System) Reset(w *world.World) {
	s.w = w
	s.closeAll()
	s.episode++
	s.scene.fresh, s.rays.fresh = false, false
	// Vehicle meshes are kept: they are per look, not per descriptor, so a training
	// episode's randomized vehicle of the same look reuses its mesh (scene.vehicleMesh).
	if err := s.sync(w); err != nil {
		s.log.Error("sensors not built", "err", err)
	}
}

// Shutdown closes every sensor after publishing what is queued and ends a running dump.
func (s *System) Shutdown() error {
	s.closeAll()
	if s.renderer != nil {
		s.renderer.Close()
		s.renderer = nil
	}
	if d := s.dump.Swap(nil); d != nil {
		_, err := d.close()
		return err
	}
	return nil
}

func (s *System) closeAll() {
	for _, ms := range s.models {
		ms.close()
	}
	s.models, s.byName = nil, map[string]*modelSensors{}
}

func (ms *modelSensors) close() {
	for _, e := range ms.entries {
		if c, ok := e.sensor.(Closer); ok {
			c.Close()
		}
	}
}

// sync builds sensors for models that appeared and closes those of models that went.
func (s *System) sync(w *world.World) error {
	ms := w.Models()
	if len(ms) == len(s.models) {
		same := true
		for i, m := range ms {
			if s.models[i].model != m {
				same = false
				break
			}
		}
		if same {
			return nil
		}
	}
	old := map[*world.Model]*modelSensors{}
	for _, x := range s.models {
		old[x.model] = x
	}
	var errs []error
	next := make([]*modelSensors, 0, len(ms))
	for _, m := range ms {
		x, ok := old[m]
		if ok {
			delete(old, m)
		} else {
			var err error
			if x, err = s.build(w, m); err != nil {
				errs = append(errs, err)
			}
		}
		next = append(next, x)
	}
	for _, x := range s.models { // in order, so that closing is deterministic
		if _, gone := old[x.model]; gone {
			x.close()
		}
	}
	s.models = next
	s.byName = make(map[string]*modelSensors, len(next))
	for _, x := range next {
		s.byName[x.model.Name] = x
	}
	return errors.Join(errs...)
}

// build makes the sensors of one model: one per contract sensor that has a mount, in contract
// order. On error the model gets no sensors.
func (s *System) build(w *world.World, m *world.Model) (*modelSensors, error) {
	ms := &modelSensors{model: m}
	v := m.Vehicle
	if v.Contract == nil {
		return ms, nil
	}
	for _, cs := range v.Contract.Sensors {
		i := slices.IndexFunc(v.Sensors, func(mt plugins.SensorMount) bool { return mt.ID == cs.ID })
		if i < 0 {
			s.warnOnce("mount "+v.ID+"/"+cs.ID, "contract sensor has no mount; it gives no readings",
				fmt.Errorf("vehicle %s sensor %s", v.ID, cs.ID))
			continue
		}
		e, err := s.newEntry(w, m, v.Sensors[i], cs)
		if err != nil {
			ms.close()
			return &modelSensors{model: m}, fmt.Errorf("model %s sensor %s (%s): %w", m.Name, cs.ID, v.Sensors[i].Kind, err)
		}
		ms.entries = append(ms.entries, e)
	}
	return ms, nil
}

func (s *System) newEntry(w *world.World, m *world.Model, mount plugins.SensorMount, cs plugins.SensorDescriptor) (*entry, error) {
	kind, err := LookupKind(mount.Kind)
	if err != nil {
		return nil, err
	}
	if !plugins.KnownSensorType(cs.SensorType) {
		// An open type: no special handling, the mount's readings go out as its kind makes them.
		s.warnOnce("type "+m.Vehicle.ID+"/"+cs.ID, "contract sensorType has no special handling; the mount's readings are published raw",
			fmt.Errorf("vehicle %s sensor %s: sensorType %q, mount kind %s", m.Vehicle.ID, cs.ID, cs.SensorType, kind.Name))
	}
	// The check plugin validation applies to this mount: what installs, builds.
	params, err := plugins.SensorSetup(mount, cs)
	if err != nil {
		return nil, err
	}
	name := "sensor/" + m.Name + "/" + cs.ID
	spec := &Spec{
		Model: m.Name, Vehicle: m.Vehicle, Mount: mount, Contract: cs, Params: Params(params),
		Rand: w.Rand(name), SyncRand: w.Rand(name + "/sync"), sys: s,
		Out: &Output{Model: m.Name, Sensor: cs.ID, Kind: kind.Topic, Topic: Topic(m.Name, cs.ID, kind.Topic), Episode: s.episode, sys: s},
	}
	if n := cs.Noise; n != nil {
		spec.Noise = Noise{Mean: n.Mean, Stddev: n.Stddev}
	}
	spec.Noise.r = spec.Rand
	sen, err := kind.New(spec)
	if err != nil {
		return nil, err
	}
	e := &entry{spec: spec, kind: kind, sensor: sen, sched: NewSchedule(cs.RateHz)}
	e.tracker, _ = sen.(Tracker)
	return e, nil
}

// SetPeerVisibility decides whether the cameras of observer draw the other vehicles; observer
// "" sets the default for every model without a setting of its own. Vehicles are visible
// unless Options.HidePeers says otherwise.
func (s *System) SetPeerVisibility(observer string, visible bool) {
	if observer == "" {
		s.opts.HidePeers = !visible
		return
	}
	if s.peers == nil {
		s.peers = map[string]bool{}
	}
	s.peers[observer] = visible
}

// SetImageGains maps every frame the RGB camera id of model draws, published and on request,
// through g (the brightness and colour gains of domain randomization; nil: none), so that
// what the window and the bridge show of a training agent's camera is what its policy gets.
// It holds across resets until set again. Loop goroutine only, or before the world runs.
func (s *System) SetImageGains(model, id string, g *render.GainTable) {
	k := gainKey{model, id}
	if g == nil {
		delete(s.gains, k)
		return
	}
	if s.gains == nil {
		s.gains = map[gainKey]*render.GainTable{}
	}
	s.gains[k] = g
}

// gainKey names a camera: its model and sensor id.
type gainKey struct{ model, id string }

// PeersVisible reports whether the cameras of observer draw the other vehicles.
func (s *System) PeersVisible(observer string) bool {
	if v, ok := s.peers[observer]; ok {
		return v
	}
	return !s.opts.HidePeers
}

// Info describes one running sensor.
type Info struct {
	Model, ID, Kind string
	// Topic is where its readings are published.
	Topic string
	// RateHz is how often it fires.
	RateHz float64
	// Readings and Dropped count emitted and dropped readings.
	Readings, Dropped uint64
}

// Sensors lists the running sensors in model order, then contract order.
func (s *System) Sensors() []Info {
	var out []Info
	for _, ms := range s.models {
		for _, e := range ms.entries {
			o := e.spec.Out
			out = append(out, Info{Model: o.Model, ID: o.Sensor, Kind: e.kind.Name, Topic: o.Topic,
				RateHz: e.sched.Rate(), Readings: o.Count(), Dropped: o.Dropped()})
		}
	}
	return out
}

func (s *System) find(model, id string) (*modelSensors, *entry, error) {
	ms, ok := s.byName[model]
	if !ok {
		return nil, nil, fmt.Errorf("no model %q with sensors", model)
	}
	for _, e := range ms.entries {
		if e.spec.Mount.ID == id {
			return ms, e, nil
		}
	}
	ids := make([]string, len(ms.entries))
	for i, e := range ms.entries {
		ids[i] = e.spec.Mount.ID
	}
	return nil, nil, fmt.Errorf("model %s has no sensor %q (it has %v)", model, id, ids)
}

// Latest returns the most recent reading of a sensor; the Reading's message must not be
// modified.
func (s *System) Latest(model, id string) (Reading, bool) {
	_, e, err := s.find(model, id)
	if err != nil {
		return Reading{}, false
	}
	return e.spec.Out.Latest()
}

// Frame renders what a camera or depth sensor of model sees now, from the world as it is,
// into dst, encoded in the sensor's contract format. It runs synchronously on the loop
// goroutine (after a step, for a training API) and leaves the sensor's scheduled readings and
// random stream alone; dst's buffers are reused from call to call.
func (s *System) Frame(model, id string, dst *Image) error {
	if s.w == nil {
		return errors.New("sensors: Frame before Init")
	}
	ms, e, err := s.find(model, id)
	if err != nil {
		return err
	}
	sn, ok := e.sensor.(Snapper)
	if !ok {
		return fmt.Errorf("sensor %s of %s is a %s sensor; only cameras and depth cameras render frames", id, model, e.kind.Name)
	}
	c := &s.callCtx // a local would escape through the interface call
	*c = Context{World: s.w, Model: ms.model, Step: s.w.StepCount(), Stamp: s.w.SimTime(), sys: s}
	defer func() { c.World, c.Model = nil, nil }()
	return sn.Snap(c, dst)
}

// View captures what a camera on model sees now, as its camera sensors do (its own vehicle,
// the other vehicles unless hidden for it, pushable boxes, markers, the layout's static scene
// in the look of the model's first camera), appending the objects to dst[:0]; render it with a
// render.Renderer at a camera pose of your choosing (a chase view, say) on any goroutine.
func (s *System) View(model string, dst []render.Object) (View, error) {
	if s.w == nil {
		return View{}, errors.New("sensors: View before Init")
	}
	m := s.w.Model(model)
	if m == nil {
		return View{}, fmt.Errorf("no model %q", model)
	}
	return s.scene.view(s.w, m, s.PeersVisible(model), s.lookOf(m), dst)
}

// ViewHiding is View without the other vehicles hide reports: a chase view leaves out a robot
// standing between its camera and the one it follows. Loop goroutine.
func (s *System) ViewHiding(model string, hide func(*world.Model) bool, dst []render.Object) (View, error) {
	if s.w == nil {
		return View{}, errors.New("sensors: View before Init")
	}
	m := s.w.Model(model)
	if m == nil {
		return View{}, fmt.Errorf("no model %q", model)
	}
	return s.scene.viewHiding(s.w, m, s.PeersVisible(model), hide, s.lookOf(m), dst)
}

// baseEnvironment returns Options.Environment or the default.
func (s *System) baseEnvironment() *render.Environment {
	if s.opts.Environment == nil {
		e := render.DefaultEnvironment()
		s.opts.Environment = &e
	}
	return s.opts.Environment
}

// lookOf returns the environment model's first camera sees the scene in (nil: none, or the
// camera's parameters do not make one), so that a view of the model looks as its camera does.
func (s *System) lookOf(m *world.Model) *render.Environment {
	for _, mt := range m.Vehicle.Sensors {
		if mt.Kind != plugins.SensorCamera {
			continue
		}
		_, env, err := render.MountCamera(mt.Params, 16, 16, s.baseEnvironment())
		if err != nil {
			return nil
		}
		return &env
	}
	return nil
}

// FireNow fires a sensor at once, outside its schedule, from the world as it is (for tools and
// benchmarks): the reading goes out as a scheduled one would, and the sensor's random stream
// advances, so later scheduled readings differ from a run without the call.
func (s *System) FireNow(model, id string) error {
	if s.w == nil {
		return errors.New("sensors: FireNow before Init")
	}
	ms, e, err := s.find(model, id)
	if err != nil {
		return err
	}
	c := &s.callCtx
	*c = Context{World: s.w, Model: ms.model, Step: s.w.StepCount(), Stamp: s.w.SimTime(), sys: s}
	e.sensor.Fire(c)
	c.World, c.Model = nil, nil
	return nil
}

// Republish publishes the newest reading of the sensor whose topic is topic (world.Republisher):
// the latest when it is of the world's present sim time, else a fresh one as FireNow draws it
// (an image sensor renders only for subscribers, so its latest may be old or missing).
func (s *System) Republish(w *world.World, topic string) bool {
	for _, ms := range s.models {
		for _, e := range ms.entries {
			out := e.spec.Out
			if out.Topic != topic {
				continue
			}
			if r, ok := out.Latest(); ok && r.Stamp == w.SimTime() {
				if b := s.opts.Bus; b != nil {
					if err := b.Publish(topic, r.Msg, r.Stamp); err != nil {
						s.warnOnce(topic, "sensor reading not published", err)
					}
				}
				return true
			}
			if err := s.FireNow(out.Model, out.Sensor); err != nil {
				s.warnOnce(topic, "sensor reading not drawn for a new subscriber", err)
			}
			return true
		}
	}
	return false
}

// Flush waits until every queued image frame has been rendered and delivered. Call it from
// the loop goroutine or when the loop is not running.
func (s *System) Flush() {
	s.flushMu.Lock()
	fs := make([]flusher, 0, len(s.flushers))
	for f := range s.flushers {
		fs = append(fs, f)
	}
	s.flushMu.Unlock()
	for _, f := range fs {
		f.Flush()
	}
}

func (s *System) addFlusher(f flusher) {
	s.flushMu.Lock()
	s.flushers[f] = struct{}{}
	s.flushMu.Unlock()
}

func (s *System) removeFlusher(f flusher) {
	s.flushMu.Lock()
	delete(s.flushers, f)
	s.flushMu.Unlock()
}

func (s *System) lossless() bool {
	return s.opts.Lossless || s.keepFrames.Load() || s.dump.Load() != nil
}

// SetLossless makes image sensors wait for their workers instead of dropping frames while on
// is true, as Options.Lossless does for the system's life: the record face sets it while a
// recording takes this world's readings, so that the file holds every frame the schedule
// fired (a world stepped faster than its cameras draw then slows down to them, as during a
// dump). It may be called from any goroutine.
func (s *System) SetLossless(on bool) { s.keepFrames.Store(on) }

// SetPublishGate makes every reading wait for gate before it is published, one reading at a
// time (nil: none): a recording that falls behind holds the cameras' workers, which publish
// between the steps, as it holds the world's steps. It may be called from any goroutine.
func (s *System) SetPublishGate(gate func()) {
	if gate == nil {
		s.gate.Store(nil)
		return
	}
	s.gate.Store(&gate)
}

// warnOnce logs a warning with err the first time key is seen.
func (s *System) warnOnce(key, msg string, err error) { s.warnOnceWith(key, msg, "err", err) }

// warnOnceWith logs a warning with the attributes args the first time key is seen.
func (s *System) warnOnceWith(key, msg string, args ...any) {
	s.warnMu.Lock()
	seen := s.warned[key]
	s.warned[key] = true
	s.warnMu.Unlock()
	if !seen {
		s.log.Warn(msg, args...)
	}
}
