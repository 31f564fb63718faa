package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"simgui/app/scenario"
	"simgui/app/starttrack"
	"simgui/app/world"
	"simgui/plugins"
)

// HostOptions configure a Host.
type HostOptions struct {
	// Plugins resolves and lists the vehicles and tracks worlds are built from; default the
	// built-in catalog.
	Plugins plugins.Lister
	// StartTimeout bounds how long Run waits for every part of the scenario world and every
	// face to start before it reports the missing ones (default 30 s, as CLOiSim).
	StartTimeout time.Duration
	// Logger; default slog.Default().
	Logger *slog.Logger
}

// Host is the simulator process: the worlds it runs (the scenario's and those of training
// episodes), which of them is active — the one the window, the device bridge, /control and
// the recorder serve — and the faces around them. Faces meet only here: they ask the host for
// worlds, hear through Changed when the set or the active world changes, and find what other
// faces offer (Devices, Recorder).
//
// The active world is the one the user picked (Pick), else the primary world of the newest
// live training episode, else the scenario world. While an episode is live and the scenario
// world is not active, the host pauses the scenario world (training needs the cores) and
// resumes it afterwards if it was the host that paused it.
//
// All methods are safe for concurrent use.
type Host struct {
	opts HostOptions
	log  *slog.Logger
	// Start follows the start of the scenario world's systems and sensors and of every face
	// (CLOiSim's PluginStartTracker); its Done channel closes when everything has started.
	Start *starttrack.Tracker

	mu           sync.Mutex
	ctx          context.Context // set by Run; worlds run under it
	scenario     *Sim
	groups       []*group
	pinned       string // the world the user picked, "" for automatic
	pinAgent     string // the agent the user watches, followed into later episodes
	active       *Sim
	changed      chan struct{}
	runs         map[*Sim]*run
	pausedByHost bool
	// pauseSeq counts the pauses and resumes the host queued; pauseApplied is the latest the
	// loop applied.
	pauseSeq     uint64
	pauseApplied atomic.Uint64
	ended        chan struct{} // closed when the scenario world stops on its own
	running      chan struct{} // closed when Run has started the worlds
	devices      Devices
	recorder     Recorder
	notices      []string
}

// group is the worlds of one training episode.
type group struct {
	id      string
	sims    []*Sim
	primary *Sim
	live    bool
}

// run is a world's loop running under the host.
type run struct {
	cancel context.CancelFunc
	done   chan struct{}
	err    error
}

// NewHost returns a host with no worlds.
func NewHost(o HostOptions) *Host {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Plugins == nil {
		o.Plugins = plugins.Builtin()
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = 30 * time.Second
	}
	h := &Host{opts: o, log: o.Logger, changed: make(chan struct{}), runs: map[*Sim]*run{},
		ended: make(chan struct{}), running: make(chan struct{})}
	h.Start = starttrack.New(func(p starttrack.Progress) { h.log.Debug(p.String()) })
	return h
}

// Running returns a channel that is closed once Run has started the worlds: from then on
// worlds added start at once.
func (h *Host) Running() <-chan struct{} { return h.running }

// Stopping says whether the host's run has ended or is ending: its worlds stop with it, and
// work for them fails as stopped rather than broken.
func (h *Host) Stopping() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.ctx != nil && h.ctx.Err() != nil
}

// Logger returns the host's logger.
func (h *Host) Logger() *slog.Logger { return h.log }

// maxNotices bounds the notices a host keeps.
const maxNotices = 8

// Notice logs a warning a person at the window should see too (a face that is off for this
// run, say): msg, a sentence, with args as slog attributes. The window shows the notices.
func (h *Host) Notice(msg string, args ...any) {
	h.log.Warn(msg, args...)
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.notices) < maxNotices {
		h.notices = append(h.notices, msg)
	}
}

// Notices returns the notices so far, oldest first.
func (h *Host) Notices() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.notices)
}

// Plugins returns what worlds are built from.
func (h *Host) Plugins() plugins.Lister { return h.opts.Plugins }

// Build builds a world (Build) with the host's logger and plugins unless o gives its own.
// The world is not added to the host.
func (h *Host) Build(plan *scenario.Plan, o BuildOptions) (*Sim, error) {
	if o.Logger == nil {
		o.Logger = h.log
	}
	if o.Plugins == nil {
		o.Plugins = h.opts.Plugins
	}
	return Build(plan, o)
}

// SetScenario makes sim the scenario world. A previous scenario world is stopped and closed;
// while the host runs, sim starts at once.
func (h *Host) SetScenario(sim *Sim) {
	sim.ID, sim.Kind = string(KindScenario), KindScenario
	h.mu.Lock()
	old := h.scenario
	h.scenario = sim
	h.pausedByHost = false
	h.startLocked(sim)
	h.updateLocked()
	h.mu.Unlock()
	if old != nil && old != sim {
		h.stop(old)
	}
}

// Scenario returns the scenario world, or nil before SetScenario.
func (h *Host) Scenario() *Sim {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.scenario
}

// AddEpisode adds the worlds of a training episode as a live group called id ("episode-3"):
// one world gets id as its ID, several get id/<first agent>. primary is the world shown by
// default. The worlds start at once while the host runs.
func (h *Host) AddEpisode(id string, sims []*Sim, primary *Sim) error {
	if len(sims) == 0 || !slices.Contains(sims, primary) {
		return errors.New("add episode: the primary world must be one of the episode's worlds")
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ctx == nil || h.ctx.Err() != nil {
		return errors.New("add episode: the host is not running")
	}
	for _, g := range h.groups {
		if g.id == id {
			return fmt.Errorf("add episode: %q exists", id)
		}
	}
	for _, s := range sims {
		s.Kind = KindEpisode
		s.ID = id
		if len(sims) > 1 && len(s.Agents) > 0 {
			s.ID = id + "/" + s.Agents[0]
		}
		h.startLocked(s)
	}
	h.groups = append(h.groups, &group{id: id, sims: sims, primary: primary, live: true})
	h.updateLocked()
	return nil
}

// RemoveEpisode stops and closes the worlds of an episode.
func (h *Host) RemoveEpisode(id string) {
	h.mu.Lock()
	var gone *group
	for i, g := range h.groups {
		if g.id == id {
			gone = g
			h.groups = slices.Delete(h.groups, i, i+1)
			break
		}
	}
	h.updateLocked()
	h.mu.Unlock()
	if gone == nil {
		return
	}
	for _, s := range gone.sims {
		h.stop(s)
	}
}

// SetLive marks an episode as running (a training client uses it) or idle. Only live
// episodes become the active world by default.
func (h *Host) SetLive(id string, live bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, g := range h.groups {
		if g.id == id && g.live != live {
			g.live = live
			h.updateLocked()
		}
	}
}

// Worlds returns every world: the scenario's first, then the episodes' in the order they were
// added.
func (h *Host) Worlds() []*Sim {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.worldsLocked()
}

func (h *Host) worldsLocked() []*Sim {
	var out []*Sim
	if h.scenario != nil {
		out = append(out, h.scenario)
	}
	for _, g := range h.groups {
		out = append(out, g.sims...)
	}
	return out
}

// World returns the world with that ID, or nil.
func (h *Host) World(id string) *Sim {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.worldLocked(id)
}

func (h *Host) worldLocked(id string) *Sim {
	for _, s := range h.worldsLocked() {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// Active returns the active world (nil before SetScenario).
func (h *Host) Active() *Sim {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.active
}

// Pinned returns the ID of the world the user picked, "" when the host chooses.
func (h *Host) Pinned() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.pinned
}

// Pick makes the world with that ID the active one until the user picks another; in an
// episode it also follows the world's agent into later episodes. "" lets the host choose
// again.
func (h *Host) Pick(id string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if id == "" {
		h.pinned, h.pinAgent = "", ""
		h.updateLocked()
		return nil
	}
	s := h.worldLocked(id)
	if s == nil {
		return fmt.Errorf("no world %q", id)
	}
	h.pinned, h.pinAgent = id, ""
	if s.Kind == KindEpisode && len(s.Agents) > 0 {
		h.pinAgent = s.Agents[0]
	}
	h.updateLocked()
	return nil
}

// Changed returns a channel that is closed at the next change of the worlds or of the active
// world. Call it again after each change.
func (h *Host) Changed() <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.changed
}

// updateLocked chooses the active world, signals the change and pauses or resumes the
// scenario world.
func (h *Host) updateLocked() {
	h.active = h.chooseLocked()
	close(h.changed)
	h.changed = make(chan struct{})
	if h.scenario == nil {
		return
	}
	live := false
	for _, g := range h.groups {
		live = live || g.live
	}
	loop := h.scenario.Loop
	switch {
	case live && h.active != h.scenario && !h.pausedByHost && !h.userPausedLocked(loop):
		h.pausedByHost = true
		h.log.Info("training episode running: the scenario's own world is paused until the episode goes idle or is shown")
		h.setPausedLocked(h.scenario, true)
	case (!live || h.active == h.scenario) && h.pausedByHost:
		h.pausedByHost = false
		h.setPausedLocked(h.scenario, false)
	}
}

// setPausedLocked queues a pause or resume of a world's loop without waiting for it (the
// loop may not be running yet, and the caller holds the lock). Queued, not each on a goroutine
// of its own: an episode opened and closed at once queued a pause and a resume that could
// land in either order, leaving the scenario world paused for good.
func (h *Host) setPausedLocked(s *Sim, paused bool) {
	if h.runs[s] == nil {
		return
	}
	h.pauseSeq++
	seq := h.pauseSeq
	if err := s.Loop.QueuePaused(paused, func() { h.pauseApplied.Store(seq) }); err != nil {
		h.log.Debug("host: pausing the scenario world", "paused", paused, "err", err)
		h.pauseApplied.Store(seq)
	}
}

// userPausedLocked reports whether the scenario world stands paused by its user rather than
// by the host: a resume the host queued and the loop has not applied yet leaves a snapshot
// that still says paused.
func (h *Host) userPausedLocked(loop *world.Loop) bool {
	return loop.Snapshot().Paused && h.pauseApplied.Load() == h.pauseSeq
}

func (h *Host) chooseLocked() *Sim {
	if h.pinned != "" {
		if s := h.worldLocked(h.pinned); s != nil {
			return s
		}
		if h.pinAgent != "" {
			for i := len(h.groups) - 1; i >= 0; i-- {
				for _, s := range h.groups[i].sims {
					if s.HasAgent(h.pinAgent) {
						h.pinned = s.ID
						return s
					}
				}
			}
		}
		h.pinned, h.pinAgent = "", ""
	}
	for i := len(h.groups) - 1; i >= 0; i-- {
		if h.groups[i].live {
			return h.groups[i].primary
		}
	}
	return h.scenario
}

// startLocked runs a world's loop under the host's context, once the host runs.
func (h *Host) startLocked(s *Sim) {
	if h.ctx == nil || h.runs[s] != nil {
		return
	}
	ctx, cancel := context.WithCancel(h.ctx)
	r := &run{cancel: cancel, done: make(chan struct{})}
	h.runs[s] = r
	go func() {
		defer close(r.done)
		r.err = s.Run(ctx)
		if ctx.Err() == nil && s.Kind == KindScenario {
			// MaxSteps reached (or the loop failed): the process's run is over.
			h.mu.Lock()
			if h.scenario == s {
				select {
				case <-h.ended:
				default:
					close(h.ended)
				}
			}
			h.mu.Unlock()
		}
	}()
}

// stop ends a world's loop, waits for it and closes the world.
func (h *Host) stop(s *Sim) {
	if err := h.halt(s); err != nil {
		h.log.Warn("world stopped with an error", "world", s.ID, "err", err)
	}
	h.mu.Lock()
	delete(h.runs, s)
	h.mu.Unlock()
	if err := s.Close(); err != nil {
		h.log.Warn("closing a world", "world", s.ID, "err", err)
	}
}

// Devices is what the device bridge offers other faces: the ports it serves, as /control's
// device_list (model → device type → parts → topic → port) and port_list (hashKey → port)
// answer them, filtered by a prefix of the hashKey.
type Devices interface {
	DeviceList(filter string) map[string]map[string]map[string]map[string]uint16
	PortList(filter string) map[string]uint16
}

// Recorder is what the recorder offers other faces: it records the active world's topics into
// f, a new file the caller opened (inside its record directory), as MCAP until the returned
// stop is called. It owns f from then on, also when it fails.
type Recorder interface {
	StartRecording(f *os.File) (stop func() error, err error)
	// Recordings lists the files being recorded, whoever started them (the window's F9,
	// the control socket's start_record, --record), sorted.
	Recordings() []string
}

// SetDevices registers the device bridge's port lists (nil withdraws them).
func (h *Host) SetDevices(d Devices) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.devices = d
}

// Devices returns the device bridge's port lists, or nil when no bridge runs.
func (h *Host) Devices() Devices {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.devices
}

// SetRecorder registers the recorder (nil withdraws it).
func (h *Host) SetRecorder(r Recorder) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.recorder = r
}

// Recorder returns the recorder, or nil when none runs.
func (h *Host) Recorder() Recorder {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.recorder
}
