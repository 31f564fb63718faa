package bridge

import (
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"simgui/app/transport"
	"simgui/app/world"
	"simgui/plugins"
)

// Defaults of [Config].
const (
	DefaultClockRate         = 50 // Hz, as CLOiSim's world clock
	DefaultQueueLen          = 8  // messages per subscriber of a data port
	DefaultHandshakeTimeout  = 5 * time.Second
	DefaultWriteTimeout      = 10 * time.Second
	DefaultDiscoveryInterval = 100 * time.Millisecond
	// DefaultResetTimeout bounds the wait for each client's answer on the world Control
	// channel.
	DefaultResetTimeout = 3 * time.Second
	// DefaultKeepAlive is how often a port repeats its last message while the world's time
	// stands still (paused, or a lockstep world nobody steps), so that clients which end
	// themselves after a few seconds of silence (cloisim_ros nodes) stay up.
	DefaultKeepAlive = time.Second
	// DefaultMaxModels is how many models the bridge serves at most: each takes about eight
	// ports, and a fleet of thousands would take every free port of the machine.
	DefaultMaxModels = 256
)

// Source is where the bridge reads the world: the latest immutable snapshot. *world.Loop is
// one. The bridge calls it from its own goroutines.
type Source interface {
	Snapshot() *world.Snapshot
}

// Config configures a [Bridge]. Bus and Source are required.
type Config struct {
	// Bus carries sensor readings and the world statistics in, commands out.
	Bus *transport.Bus
	// Source gives the models to serve and their poses (odometry).
	Source Source
	// Manager allocates the ports; nil makes one on BindIP. The Manager's maps list exactly
	// the ports the bridge serves.
	Manager *Manager
	// BindIP is the address ports bind when Manager is nil (default 127.0.0.1).
	BindIP string
	// FirstPort and LastPort bound the ports a Manager made here hands out (default 49152 to
	// 65535, as CLOiSim).
	FirstPort, LastPort uint16
	// Logger; default slog.Default().
	Logger *slog.Logger

	// ClockRate is the world clock rate in Hz of wall time (default 50); a tick on which sim
	// time has not changed sends nothing.
	ClockRate float64
	// QueueLen is how many messages each subscriber of a data port may have waiting before
	// its oldest is dropped (default 8): libzmq's send high-water mark, per subscriber.
	QueueLen int
	// HandshakeTimeout bounds a client's ZMTP handshake (default 5 s); WriteTimeout bounds
	// one message write, after which the client is disconnected (default 10 s).
	HandshakeTimeout, WriteTimeout time.Duration
	// DiscoveryInterval is how often the snapshot is checked for spawned and removed models
	// (default 100 ms).
	DiscoveryInterval time.Duration
	// ResetTimeout bounds the wait for a world Control client's answer (default 3 s).
	ResetTimeout time.Duration
	// KeepAlive is how often data ports repeat their last message while sim time stands
	// still (default 1 s).
	KeepAlive time.Duration
	// MaxMessage is the largest message in bytes a client may send a port, all frames
	// together (default DefaultMaxMessage), as libzmq's ZMQ_MAXMSGSIZE; a client that
	// declares more in a frame header, or more than 64 frames, is disconnected. MaxPeers
	// bounds the connections of one port (default DefaultMaxPeers), MaxConns those of every
	// port together (default DefaultMaxConns); past either, the connection idle the longest
	// is closed for the newcomer.
	MaxMessage, MaxPeers, MaxConns int
	// MaxModels bounds the models served (default DefaultMaxModels): the first ones in the
	// snapshot's order get ports, the rest none until served ones go (a warning says so).
	MaxModels int
}

// Bridge serves a world's devices on CLOiSim's wire: one ZeroMQ socket per port, with the
// world clock on "WorldSimulationWorldClock" and per model a micom (Info, Rx, Tx, Tf) and a
// node for each lidar, IMU, camera and depth camera (Info, Data). Nodes follow the models in
// the snapshot: spawned models get ports, removed ones lose them. Retarget moves the bridge to
// another world. Safe for concurrent use.
type Bridge struct {
	opts Config
	mgr  *Manager
	log  *slog.Logger
	cfg  socketConfig
	// renameSaid is set once the log said that models are listed under ROS 2 names.
	renameSaid atomic.Bool

	// target is the world served: its bus and snapshot source. Peer handlers read it without
	// locks (they run while nodes close under mu).
	target atomic.Pointer[target]
	// moved is closed (and replaced) at every Retarget, for the goroutines that follow the
	// world: the clock and the world control.
	movedMu sync.Mutex
	moved   chan struct{}

	// control is the world Control port; announced counts the resets AnnounceReset told its
	// clients of before they happened, which runControl then does not announce again.
	control   atomic.Pointer[socket]
	announced atomic.Int64

	mu     sync.Mutex
	closed bool
	clock  *node
	robots map[string]*robot  // by model name
	failed map[robotID]string // models whose nodes could not be opened, not retried
	// portless is the models left without ports for want of them, retried once a served
	// model lets its ports go.
	portless map[robotID]struct{}
	// unserved is how many models the last sync left without ports for MaxModels.
	unserved int
	// parked is the sockets of the models a Retarget in progress let go (nil otherwise).
	parked *parking

	done chan struct{}
	wg   sync.WaitGroup
}

type target struct {
	bus *transport.Bus
	src Source
}

func (b *Bridge) busNow() *transport.Bus { return b.target.Load().bus }

// retargeted returns a channel closed at the next Retarget.
func (b *Bridge) retargeted() <-chan struct{} {
	b.movedMu.Lock()
	defer b.movedMu.Unlock()
	return b.moved
}
func (b *Bridge) source() Source { return b.target.Load().src }

// robotID identifies a model across snapshots: a model re-spawned with another vehicle is a
// new robot.
type robotID struct {
	name    string
	vehicle *plugins.VehicleDescriptor
}

// Start opens the world clock and the nodes of every model in the current snapshot (so their
// ports are in the Manager when it returns), then follows the snapshot on a goroutine of its
// own. Close stops it.
func Start(opts Config) (*Bridge, error) {
	if opts.Bus == nil || opts.Source == nil {
		return nil, errors.New("bridge: Config.Bus and Config.Source are required")
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	setDefault(&opts.ClockRate, DefaultClockRate)
	setDefault(&opts.QueueLen, DefaultQueueLen)
	setDefault(&opts.HandshakeTimeout, DefaultHandshakeTimeout)
	setDefault(&opts.WriteTimeout, DefaultWriteTimeout)
	setDefault(&opts.DiscoveryInterval, DefaultDiscoveryInterval)
	setDefault(&opts.ResetTimeout, DefaultResetTimeout)
	setDefault(&opts.KeepAlive, DefaultKeepAlive)
	setDefault(&opts.MaxMessage, DefaultMaxMessage)
	if err := CheckMaxMessage(opts.MaxMessage); err != nil {
		return nil, fmt.Errorf("bridge: Config.MaxMessage: %w", err)
	}
	setDefault(&opts.MaxPeers, DefaultMaxPeers)
	setDefault(&opts.MaxConns, DefaultMaxConns)
	setDefault(&opts.MaxModels, DefaultMaxModels)
	mgr := opts.Manager
	if mgr == nil {
		var err error
		if mgr, err = NewManager(Options{BindIP: opts.BindIP, FirstPort: opts.FirstPort, LastPort: opts.LastPort}); err != nil {
			return nil, err
		}
	}
	b := &Bridge{
		opts: opts, mgr: mgr, log: opts.Logger, moved: make(chan struct{}),
		cfg: socketConfig{
			queueLen: opts.QueueLen, handshakeTimeout: opts.HandshakeTimeout,
			writeTimeout: opts.WriteTimeout, maxMessage: opts.MaxMessage, maxPeers: opts.MaxPeers, log: opts.Logger,
			budget: newConnBudget(opts.MaxConns, opts.Logger),
		},
		robots: map[string]*robot{}, failed: map[robotID]string{}, portless: map[robotID]struct{}{},
		done: make(chan struct{}),
	}
	b.target.Store(&target{bus: opts.Bus, src: opts.Source})
	clock, err := b.openClock()
	if err != nil {
		return nil, err
	}
	b.clock = clock
	b.sync()
	b.wg.Add(1)
	go b.discover()
	return b, nil
}

// Retarget serves another world: every model's devices are released and the new world's
// models get theirs (as CLOiSim does when a world is loaded), the world clock follows the new
// world's time, and the Manager lists only the new devices when Retarget returns. A device of
// the new world with the hash key and port of one of the old keeps its sockets, so its clients
// stay connected and read the new world's model (see parking); the other sockets close. The
// clock jumps to the new world's time: tell the world Control clients first (AnnounceMove).
func (b *Bridge) Retarget(bus *transport.Bus, src Source) {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return
	}
	b.parked = newParking(b.mgr)
	for name, r := range b.robots {
		r.park(b.parked)
		delete(b.robots, name)
	}
	clear(b.failed)
	clear(b.portless)
	b.target.Store(&target{bus: bus, src: src})
	b.mu.Unlock()
	b.movedMu.Lock()
	close(b.moved)
	b.moved = make(chan struct{})
	b.movedMu.Unlock()
	b.sync()
	b.mu.Lock()
	b.parked.closeAll()
	b.parked = nil
	b.mu.Unlock()
}

func setDefault[T int | float64 | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

// Manager returns the port registry (the /control device_list and port_list answers).
func (b *Bridge) Manager() *Manager { return b.mgr }

// discover follows spawned and removed models.
func (b *Bridge) discover() {
	defer b.wg.Done()
	t := time.NewTicker(b.opts.DiscoveryInterval)
	defer t.Stop()
	for {
		select {
		case <-b.done:
			return
		case <-t.C:
			b.syncGuarded()
		}
	}
}

// sync opens nodes for new models of the served world and closes those of models that are
// gone, in snapshot order. The snapshot is read under the lock, so a sync racing a Retarget
// never opens the old world's models.
func (b *Bridge) sync() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	s := b.source().Snapshot()
	present := make(map[robotID]bool, len(s.Models))
	for _, m := range s.Models {
		present[robotID{m.Name, m.Vehicle}] = true
	}
	for name, r := range b.robots {
		if !present[r.id] {
			r.close()
			delete(b.robots, name)
			clear(b.portless) // their ports may serve them now
			b.log.Debug("bridge: model gone, ports released", "model", name)
		}
	}
	for id := range b.failed {
		if !present[id] {
			delete(b.failed, id)
		}
	}
	for id := range b.portless {
		if !present[id] {
			delete(b.portless, id)
		}
	}
	unserved := 0
	// Once no more ports can be opened (the range is used up, or the process's files), only
	// the models that need no more ports than the range has left, as far as the Manager knows,
	// are tried: each would scan the whole range again (a fleet of thousands, thousands of
	// times). They are counted in one line, and tried again when a served model goes.
	var noPort error
	free, portless := 0, 0
	// The served models by the ROS 2 name their devices are listed under, made when a model
	// is first to be opened in this pass.
	var listed map[string]string
	for _, m := range s.Models {
		id := robotID{m.Name, m.Vehicle}
		if _, ok := b.robots[m.Name]; ok {
			continue
		}
		if _, ok := b.failed[id]; ok {
			continue
		}
		if _, ok := b.portless[id]; ok {
			continue
		}
		if len(b.robots) >= b.opts.MaxModels {
			unserved++
			continue
		}
		need := portsOf(m)
		if noPort != nil && need > free {
			b.portless[id] = struct{}{}
			portless++
			continue
		}
		if listed == nil {
			listed = make(map[string]string, len(b.robots))
			for name := range b.robots {
				listed[rosName(name)] = name
			}
		}
		rn := rosName(m.Name)
		if other, ok := listed[rn]; ok {
			err := fmt.Errorf("its devices would be listed as %s, as model %s's are (ROS 2 names hold letters, digits and '_'): rename one", rn, other)
			b.failed[id] = err.Error()
			b.log.Error("bridge: cannot serve model's devices", "model", m.Name, "err", err)
			continue
		}
		r, err := b.openRobot(m)
		if err != nil {
			if portsExhausted(err) {
				if noPort == nil && errors.Is(err, ErrNoFreePort) {
					free = b.mgr.freeCount()
				} else {
					free = 0 // out of files, or a second miss: the count is not to be trusted
				}
				noPort = err
				b.portless[id] = struct{}{}
				portless++
				continue
			}
			b.failed[id] = err.Error()
			b.log.Error("bridge: cannot serve model's devices", "model", m.Name, "err", err)
			continue
		}
		b.robots[m.Name] = r
		listed[rn] = m.Name
		free -= need
	}
	if portless > 0 {
		b.log.Error("bridge: no more device ports can be opened; models left without them (a used-up range: widen it with --bridge-ports or the scenario's faces: bridge: ports)",
			"models", portless, "served", len(b.robots), "err", noPort)
	}
	if unserved != b.unserved && unserved > 0 {
		b.log.Warn("bridge: models beyond the limit have no device ports", "served", len(b.robots),
			"unserved", unserved, "limit", b.opts.MaxModels)
	}
	b.unserved = unserved
}

// Close closes every socket, releases the ports and waits for the bridge's goroutines.
func (b *Bridge) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	close(b.done)
	b.mu.Unlock()
	b.wg.Wait()

	b.mu.Lock()
	defer b.mu.Unlock()
	var errs []error
	for name, r := range b.robots {
		errs = append(errs, r.close())
		delete(b.robots, name)
	}
	b.parked.closeAll() // a Retarget's, when Close came during it
	errs = append(errs, b.clock.close())
	return errors.Join(errs...)
}

// EndpointStats describes one served port.
type EndpointStats struct {
	HashKey string
	Port    uint16
	// Kind is the simulator's socket type: "PUB", "SUB" or "REP".
	Kind string
	// Peers counts connected clients.
	Peers int
	// Sent counts messages written to clients (each subscriber counts), Dropped those a
	// subscriber's full queue dropped.
	Sent, Dropped uint64
}

// Stats returns every served port, sorted by hashKey.
func (b *Bridge) Stats() []EndpointStats {
	b.mu.Lock()
	nodes := []*node{b.clock}
	for _, r := range b.robots {
		nodes = append(nodes, r.nodes...)
	}
	b.mu.Unlock()
	var out []EndpointStats
	for _, n := range nodes {
		if n == nil {
			continue
		}
		for _, s := range n.socks {
			out = append(out, EndpointStats{
				HashKey: s.hashKey, Port: s.Port(), Kind: s.kind.String(), Peers: s.Peers(),
				Sent: s.sent.Load(), Dropped: s.dropped.Load(),
			})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].HashKey < out[j].HashKey })
	return out
}

// node is one CLOiSim device: a socket per control key, registered in the Manager, and the
// goroutines that feed them.
type node struct {
	b                *Bridge
	bus              *transport.Bus // the bus of the world the node serves
	typ              DeviceType
	model, partsName string
	socks            map[string]*socket // by control key
	ports            []uint16
	keys             []string
	done             chan struct{}
	wg               sync.WaitGroup
	closeOnce        sync.Once
	closeErr         error
}

// channel is one control key of a node: its socket kind and callbacks.
type channel struct {
	key  string
	kind socketKind
	h    handlers
}

// openNode allocates and binds a port for each channel. If another program binds an allocated
// port first, the port is released and the allocation retried a few times.
func (b *Bridge) openNode(typ DeviceType, model, parts string, chans ...channel) (*node, error) {
	n := &node{b: b, bus: b.busNow(), typ: typ, model: model, partsName: parts, socks: map[string]*socket{}, done: make(chan struct{})}
	for _, c := range chans {
		var s *socket
		var err error
		for attempt := 0; attempt < 5; attempt++ {
			var key string
			var port uint16
			key, port, err = b.mgr.AllocateDevice(typ, model, parts, "", c.key)
			if err != nil {
				break
			}
			if s = b.parked.take(key, port, c.kind); s != nil {
				s.rebind(c.h)
				n.ports = append(n.ports, port)
				n.keys = append(n.keys, key)
				break
			}
			s, err = bindSocket(c.kind, b.mgr.BindIP(), port, key, b.cfg, c.h)
			if err == nil {
				n.ports = append(n.ports, port)
				n.keys = append(n.keys, key)
				break
			}
			b.mgr.DeallocateDevice([]uint16{port}, []string{key})
		}
		if err != nil {
			n.close()
			return nil, fmt.Errorf("%s %s: %w", typ, model+parts, err)
		}
		n.socks[c.key] = s
	}
	return n, nil
}

// run starts f on a goroutine that close waits for; f must return when n.done closes.
func (n *node) run(f func()) {
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		defer recovered(n.b.log, "bridge: a device's feed failed; it sends no more", "model", n.model, "device", n.typ, "parts", n.partsName)
		f()
	}()
}

// close stops the node's goroutines, closes its sockets and releases its ports.
func (n *node) close() error {
	n.closeOnce.Do(func() {
		close(n.done)
		n.wg.Wait()
		var errs []error
		for _, s := range n.socks {
			errs = append(errs, s.Close())
		}
		if len(n.ports) > 0 {
			errs = append(errs, n.b.mgr.DeallocateDevice(n.ports, n.keys))
		}
		n.closeErr = errors.Join(errs...)
	})
	return n.closeErr
}

// robot is the nodes of one model.
type robot struct {
	id    robotID
	nodes []*node
}

func (r *robot) close() error {
	var errs []error
	for i := len(r.nodes) - 1; i >= 0; i-- {
		errs = append(errs, r.nodes[i].close())
	}
	return errors.Join(errs...)
}

// Ports a model's devices take: the micom's Info, Rx, Tx and Tf (openMicom), and each served
// sensor's Info and Data (openSensor).
const (
	micomPorts  = 4
	sensorPorts = 2
)

// portsOf is how many ports openRobot takes for m.
func portsOf(m world.ModelState) int {
	n := micomPorts
	if m.Vehicle != nil {
		for _, mount := range m.Vehicle.Sensors {
			if _, ok := sensorKinds[mount.Kind]; ok {
				n += sensorPorts
			}
		}
	}
	return n
}

// openRobot opens the micom and one node per served sensor mount of m; it fails (closing
// what it opened) when ports run out.
func (b *Bridge) openRobot(m world.ModelState) (*robot, error) {
	r := &robot{id: robotID{m.Name, m.Vehicle}}
	if rn := rosName(m.Name); rn != m.Name && b.renameSaid.CompareAndSwap(false, true) {
		// Once: an episode of hundreds of agents named agent-N, shown again and again, said it
		// hundreds of times each time.
		b.log.Info("bridge: models whose names are not ROS 2 names have their devices listed under one (letters, digits and '_', no digit first)",
			"model", m.Name, "as", rn)
	}
	mc, err := b.openMicom(m)
	if err != nil {
		return nil, err
	}
	r.nodes = append(r.nodes, mc)
	if m.Vehicle != nil {
		for _, mount := range m.Vehicle.Sensors {
			kind, ok := sensorKinds[mount.Kind]
			if !ok {
				continue
			}
			n, err := b.openSensor(m, mount, kind)
			if errors.Is(err, ErrHashKeyInUse) {
				// Two sensor ids that differ only in characters partsName replaces: serve
				// the first, say why the other is missing.
				b.log.Error("bridge: sensor not served", "model", m.Name, "sensor", mount.ID, "err", err)
				continue
			}
			if err != nil {
				r.close()
				return nil, err
			}
			r.nodes = append(r.nodes, n)
		}
	}
	return r, nil
}
