package record

import (
	"bufio"
	"container/heap"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/foxglove/mcap/go/mcap"

	"simgui/app/foxview"
	"simgui/app/foxview/foxglove"
	"simgui/app/transport"
	"simgui/app/world"
	"simgui/safefile"
)

// How far a stamp may lie from its episode's time before the recorder takes it for another
// episode's. aheadOfClock: past the latest /clock (a step publishes its messages around its
// clock, and a step is at most 0.1 s), it is a late message of the episode before a reset.
// rebaseAfter: on a bus without /clock, behind the latest stamp, it is the next episode's.
const (
	aheadOfClock = 150 * time.Millisecond
	rebaseAfter  = time.Second
)

// writeBuffer is the buffer between the MCAP writer and the file. The writer writes a closed
// chunk's message index record by record, two writes each, and a fleet's chunk has one for
// each of its hundreds of topics: the write system calls took a quarter of the CPU time of a
// recording of 3,000 KS0223s. Flushed after every message the recorder writes, so the file
// holds every chunk closed so far, as it did unbuffered.
const writeBuffer = 1 << 20

// Defaults of Options.
const (
	DefaultChunkSize  = 64 << 10
	DefaultQueueLen   = 16384
	DefaultQueueBytes = 256 << 20
)

// Options configure a Recorder. The zero value is usable.
type Options struct {
	// ChunkSize is the uncompressed size at which a chunk is closed and written, in bytes
	// (default 64 KiB). A crash loses at most the chunk being filled.
	ChunkSize int64
	// Compression is "zstd" (default), "lz4" or "none".
	Compression string
	// QueueLen is how many messages may wait for the writer before the oldest is dropped
	// (default 16384, and room for a step of each robot of World.Models more), and
	// QueueBytes how many bytes of them (default 256 MiB): a world of many cameras would
	// otherwise queue gigabytes of frames behind a slow writer.
	QueueLen   int
	QueueBytes int64
	// Logger receives the first write error; default slog.Default().
	Logger *slog.Logger
	// MaxBytes bounds the size of the recording's file, in bytes; 0 means DefaultMaxBytes.
	// From the first message that would take it past, no message is written, so that all
	// topics end at the same moment, and the recorder lets go of the bus (and of any world
	// Switch brings), so that cameras no longer draw for it; those already on their way are
	// counted (Stats.Cut). The file stays whole (it ends at most a chunk and the summary past
	// the bound): a recording nobody stops neither fills the disk nor costs the simulation for
	// the rest of the run.
	MaxBytes int64
	// World names the world recorded first (see World); the zero World names none.
	World World
	// Foxglove also writes each camera frame, lidar scan and world pose list in Foxglove's
	// own types, on the topic with foxview.ViewSuffix, which Foxglove's Image and 3D panels draw
	// (see viewer). The record face sets it unless told otherwise.
	Foxglove bool
}

// World names a world a recording follows: the file has a metadata record "simgui.world"
// (id, kind, label, and logTime, the log time of its first message) where each world's
// messages begin, since the scenario's world and every training episode publish the same
// topics.
type World struct {
	ID, Kind, Label string
	// Models is how many robots the world holds: the recording's queue keeps room for a step
	// of theirs (queueFor).
	Models int
	// Scene returns the world's Foxglove scene as it is now, written on foxview.SceneTopic with the
	// mark when the recording writes Foxglove's views, and again when the world's pose list
	// names other robots than the scene has (looked for once a second of the file's time); nil
	// writes none. The writer goroutine calls it.
	Scene func() *foxglove.SceneUpdate
	// Snapshot returns the world as it is now, whose robots' sensor mounts the views of
	// cameras need (their frames in the pose list's view, their calibrations); nil leaves
	// those out. The writer goroutine calls it.
	Snapshot func() *world.Snapshot
}

// worldMetadata is the name of the metadata records that mark where a world's messages begin.
const worldMetadata = "simgui.world"

// DefaultMaxBytes is a recording's MaxBytes when Options gives none: about 10 minutes of a
// KS0223 world at real time with its 640×480 camera in the realistic look recorded (its
// noisy frames compress to about 7 MB/s), a day of the default flat look (50 KB/s).
const DefaultMaxBytes = 4 << 30

// Stats describes a recording so far.
type Stats struct {
	// Path is the file being written.
	Path string
	// Messages counts messages written; Topics the topics seen.
	Messages uint64
	Topics   int
	// PerTopic counts messages written per topic.
	PerTopic map[string]uint64
	// Dropped counts messages the bus dropped because the writer fell behind.
	Dropped uint64
	// Cut counts messages not written because the recording had reached Options.MaxBytes:
	// those already on their way when it let go of the bus.
	Cut uint64
	// TopicsLeftOut counts the topics not written because the file had MaxChannels already
	// (a fleet of thousands of robots with cameras).
	TopicsLeftOut int
}

// MaxChannels is how many topics (and their Foxglove views) a recording holds: an MCAP
// channel's ID is 16 bits. Later topics are left out, counted in Stats.TopicsLeftOut.
const MaxChannels = 0xffff

// errTooManyChannels says the file holds MaxChannels channels already.
var errTooManyChannels = errors.New("more than 65535 topics")

// Recorder writes every message of a bus to an MCAP file until Stop; Switch moves it to
// another bus (another world) in the same file.
type Recorder struct {
	path string
	// made are the folders Start made for the file (outermost first), which Discard removes.
	made       []string
	f          *os.File
	bw         *bufio.Writer // between w and f: see writeBuffer
	w          *mcap.Writer
	log        *slog.Logger
	done       chan struct{}
	baseQueue  int // Options.QueueLen
	queueBytes int64

	// subMu guards the subscriptions: sub is the newest, queued those the writer has not
	// started on yet; dropped counts the drops of closed ones; detached says the recording
	// reached MaxBytes and subscribes to nothing more (letGo).
	subMu    sync.Mutex
	sub      *transport.Subscription
	queueLen int // sub's queue length
	queued   []queuedSub
	stopped  bool
	detached bool
	dropped  uint64
	wake     chan struct{} // Switch and Stop wake a writer whose bus closed under it

	messages atomic.Uint64
	// waiters count the WaitWriter calls waiting; caughtUp, guarded by waitMu, is closed
	// (and replaced) to wake them all.
	waiters  atomic.Int32
	waitMu   sync.Mutex
	caughtUp chan struct{}

	// Writer-goroutine state; mu guards perTopic and err for Stats and Stop.
	schemas  map[string]uint16 // message type -> schema ID
	channels map[string]uint16 // topic -> channel ID
	seq      map[uint16]uint32
	views    *foxview.Viewer   // nil without Options.Foxglove
	viewChs  map[string]uint16 // view topic -> channel ID
	vbuf     []byte
	// viewErr: a view failed and was logged; later failures are not.
	viewErr bool
	// scenes counts the scenes written; sceneRobots are the robots of the last one, and
	// sceneAt the log time it was written or last found current.
	scenes      uint32
	sceneRobots map[string]bool
	sceneAt     uint64
	// leftOut are the topics not written for want of channels (leaveOut); topicsLeftOut
	// counts them for Stats, under mu.
	leftOut       map[string]bool
	topicsLeftOut int
	pub           pubSeqs // numbers the messages of the subscription being drained
	buf           []byte
	// lastLog is the latest log time written; offset is added to the stamps of the current
	// world's messages so that log time never goes back across a world switch or a reset.
	lastLog uint64
	offset  uint64
	rebase  bool
	epoch   int // the episode of the subscription being drained that is being written
	// world is the world being written, marked in the file before its first message
	// (announce).
	world    World
	announce bool
	// warnedDrops: the first drop has been logged (Stop's stats count them all).
	warnedDrops bool
	// From the message that would take the file past maxBytes on, messages are cut (full,
	// and counted in cut).
	full     bool
	maxBytes int64
	cut      atomic.Uint64
	mu       sync.Mutex
	perTopic map[string]uint64
	err      error
	failed   chan struct{} // closed with the first err

	stopOnce sync.Once
	stopErr  error
}

// Start creates path (and its directory) and records every message published on bus from now
// on. It refuses to overwrite an existing file.
func Start(bus *transport.Bus, path string, opts Options) (*Recorder, error) {
	if _, err := compression(opts.Compression); err != nil {
		return nil, fmt.Errorf("record %s: %w", path, err)
	}
	made, err := safefile.MkdirAll(filepath.Dir(path), 0o755)
	if err != nil {
		return nil, fmt.Errorf("record %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		safefile.RemoveMade(made)
		if errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("record %s: the file exists; choose another name or remove it", path)
		}
		return nil, fmt.Errorf("record %s: %w", path, err)
	}
	r, err := StartFile(bus, f, opts)
	if err != nil {
		// Nothing left behind: a header the disk had no room for left the file and the
		// folders made for it.
		os.Remove(path)
		safefile.RemoveMade(made)
		return nil, err
	}
	r.made = made
	return r, nil
}

// StartFile records every message published on bus from now on into f, a new empty file the
// caller opened for reading and writing (for example through an os.Root): a recording its
// disk cut short is ended by reading back to its last whole record. The recorder owns f: it closes it on Stop,
// or at once when it fails, leaving the removal of the file to the caller.
func StartFile(bus *transport.Bus, f *os.File, opts Options) (*Recorder, error) {
	if opts.ChunkSize <= 0 {
		opts.ChunkSize = DefaultChunkSize
	}
	if opts.QueueLen <= 0 {
		opts.QueueLen = DefaultQueueLen
	}
	if opts.QueueBytes <= 0 {
		opts.QueueBytes = DefaultQueueBytes
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	path := f.Name()
	comp, err := compression(opts.Compression)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("record %s: %w", path, err)
	}
	bw := bufio.NewWriterSize(f, writeBuffer)
	w, err := mcap.NewWriter(bw, &mcap.WriterOptions{
		Chunked: true, ChunkSize: opts.ChunkSize, Compression: comp, IncludeCRC: true,
	})
	if err == nil {
		err = w.WriteHeader(&mcap.Header{Library: "simgui"})
	}
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("record %s: %w", path, err)
	}
	r := &Recorder{
		path: path, f: f, bw: bw, w: w, log: opts.Logger, done: make(chan struct{}), baseQueue: opts.QueueLen,
		queueLen: queueFor(opts.QueueLen, opts.World), queueBytes: opts.QueueBytes,
		wake:     make(chan struct{}, 1),
		caughtUp: make(chan struct{}),
		failed:   make(chan struct{}),
		sub:      bus.SubscribeAll(transport.WithQueueLen(queueFor(opts.QueueLen, opts.World)), transport.WithMaxBytes(opts.QueueBytes)),
		pub:      newPubSeqs(bus),
		schemas:  map[string]uint16{}, channels: map[string]uint16{}, seq: map[uint16]uint32{},
		perTopic: map[string]uint64{}, maxBytes: opts.MaxBytes, viewChs: map[string]uint16{},
		world: opts.World, announce: opts.World.ID != "" || opts.World.Kind != "" || opts.World.Label != "",
	}
	if r.maxBytes <= 0 {
		r.maxBytes = DefaultMaxBytes
	}
	if opts.Foxglove {
		r.views = &foxview.Viewer{}
	}
	go r.run(r.sub)
	return r, nil
}

// queuedSub is a subscription Switch made that the writer has not started on, and its world.
type queuedSub struct {
	sub   *transport.Subscription
	world World
	pub   pubSeqs
}

// Switch records bus, world w's, from now on instead of the bus recorded so far, in the same
// file. The messages already queued from the old bus are written first; the new world's log
// times continue after the last one written (its publish times keep its own sim time), and
// a metadata record names it where they begin.
func (r *Recorder) Switch(bus *transport.Bus, w World) {
	r.subMu.Lock()
	detached := r.detached
	r.subMu.Unlock()
	if detached {
		return // a subscription would only make the new world's cameras draw for nothing
	}
	n := queueFor(r.baseQueue, w)
	next := bus.SubscribeAll(transport.WithQueueLen(n), transport.WithMaxBytes(r.queueBytes))
	r.subMu.Lock()
	if r.stopped || r.detached {
		r.subMu.Unlock()
		next.Close()
		return
	}
	old := r.sub
	r.sub, r.queueLen = next, n
	r.queued = append(r.queued, queuedSub{next, w, newPubSeqs(bus)})
	r.subMu.Unlock()
	old.Close()
	r.poke()
}

func (r *Recorder) poke() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

func compression(name string) (mcap.CompressionFormat, error) {
	switch name {
	case "", "zstd":
		return mcap.CompressionZSTD, nil
	case "lz4":
		return mcap.CompressionLZ4, nil
	case "none":
		return mcap.CompressionNone, nil
	}
	return "", fmt.Errorf("unknown compression %q (known: zstd, lz4, none)", name)
}

// Path returns the file being written.
func (r *Recorder) Path() string { return r.path }

// run is the writer goroutine: it drains each subscription in turn until Stop closes the
// last one.
func (r *Recorder) run(sub *transport.Subscription) {
	defer close(r.done)
	for {
		r.drain(sub)
		// The subscription closed: Switch moved on (a queued one waits), Stop ended the
		// recording, or the world's bus closed under it (wait for one of the two).
		r.subMu.Lock()
		if sub != r.sub { // Stats counts the newest subscription's drops itself
			r.dropped += sub.Dropped()
		}
		r.subMu.Unlock()
		for {
			r.subMu.Lock()
			next, stopped := (*transport.Subscription)(nil), r.stopped
			if len(r.queued) > 0 {
				next, r.world, r.pub = r.queued[0].sub, r.queued[0].world, r.queued[0].pub
				r.queued = r.queued[1:]
				r.rebase, r.announce = true, true
			}
			r.subMu.Unlock()
			if next != nil {
				sub = next
				break
			}
			if stopped {
				return
			}
			<-r.wake
		}
	}
}

// drain writes a subscription's messages until it closes, through a short reorder buffer:
// sensors that render off the loop goroutine (cameras) publish a frame some milliseconds after
// later messages of other topics, so every message waits up to ReorderWindow of wall time and
// the waiting ones are written in stamp order. The file's log time then follows the stamps
// without going back.
func (r *Recorder) drain(sub *transport.Subscription) {
	var (
		pending reorder
		seq     uint64
		ep      episodes
		timer   = time.NewTimer(time.Hour)
	)
	r.epoch = 0
	defer timer.Stop()
	flush := func(now time.Time, all bool) {
		for len(pending) > 0 && (all || now.Sub(pending[0].at) >= ReorderWindow || len(pending) > maxPending) {
			h := heap.Pop(&pending).(held)
			r.writeOrLog(h.m, h.epoch)
			sub.Release(h.m)
			r.pokeWaiter()
		}
		if len(pending) > 0 {
			timer.Reset(ReorderWindow - now.Sub(pending[0].at))
		}
	}
	for {
		select {
		case m, ok := <-sub.C():
			if !ok {
				flush(time.Now(), true)
				return
			}
			seq++
			heap.Push(&pending, held{m: m, at: time.Now(), seq: seq, epoch: ep.of(m)})
			r.pokeWaiter()
			if !r.warnedDrops && sub.Dropped() > 0 {
				r.warnedDrops = true
				r.log.Warn("recording is dropping messages: the writer falls behind the bus (a slow disk, or a world faster than real time); the file will lack them",
					"path", r.path)
			}
			flush(time.Now(), false)
		case now := <-timer.C:
			flush(now, false)
		}
	}
}

func (r *Recorder) writeOrLog(m transport.Message, epoch int) {
	err := r.write(m, epoch)
	if err == nil && r.bw.Buffered() > 0 {
		err = r.bw.Flush() // on the file before the next message, as unbuffered
	}
	if err != nil {
		r.mu.Lock()
		first := r.err == nil
		if first {
			r.err = err
		}
		r.mu.Unlock()
		if first {
			close(r.failed)
			// Nothing more is written: the cameras need not draw for it.
			r.letGo()
			r.log.Error("recording stopped writing", "path", r.path, "err", err)
		}
	}
}

// Failed is closed when a write fails (a full disk): the file takes nothing more, and Stop
// says why.
func (r *Recorder) Failed() <-chan struct{} { return r.failed }

// Stats returns the recording's counters so far.
func (r *Recorder) Stats() Stats {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.subMu.Lock()
	dropped := r.dropped + r.sub.Dropped()
	r.subMu.Unlock()
	s := Stats{Path: r.path, Messages: r.messages.Load(), Dropped: dropped, Cut: r.cut.Load(), Topics: len(r.perTopic),
		PerTopic: make(map[string]uint64, len(r.perTopic)), TopicsLeftOut: r.topicsLeftOut}
	for k, v := range r.perTopic {
		s.PerTopic[k] = v
	}
	return s
}

// Discard stops recording and removes the file, and the folders Start made for it: for a
// recording of a run that failed to start (a port taken), whose file would otherwise be left
// with the run's first steps in it and make the same command refuse it next time ("the file
// exists").
func (r *Recorder) Discard() error {
	r.Stop()
	if err := os.Remove(r.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("record %s: %w", r.path, err)
	}
	safefile.RemoveMade(r.made)
	return nil
}

// Stop stops recording, writes the rest of the queue, the last chunk and the summary, and
// closes the file. It returns the final stats and the first write error; later calls return
// the same.
func (r *Recorder) Stop() (Stats, error) {
	r.stopOnce.Do(func() {
		r.subMu.Lock()
		r.stopped = true
		cur := r.sub
		r.subMu.Unlock()
		cur.Close()
		r.poke()
		<-r.done
		r.mu.Lock()
		err := r.err
		r.mu.Unlock()
		if err == nil {
			err = r.writeTotals(r.Stats())
		}
		if err == nil {
			err = r.w.Close()
		}
		if err == nil {
			err = r.bw.Flush()
		}
		if err == nil {
			err = r.f.Sync()
		} else if end, serr := salvage(r.f); serr == nil {
			// A full disk: the file still opens in readers, without what did not fit.
			err = fmt.Errorf("%w; the file ends after its last whole chunk (%d bytes), readable without an index", bareErr(err), end)
		} else {
			err = fmt.Errorf("%w; the file could not be ended either (%v): readers may refuse it, simgui's record.ReadFile reads it", bareErr(err), bareErr(serr))
		}
		if cerr := r.f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			r.stopErr = fmt.Errorf("record %s: %w", r.path, err)
		}
	})
	return r.Stats(), r.stopErr
}

// bareErr is err's file error without the file's path, which Stop says once ("record
// a.mcap: write a.mcap: write a.mcap: no space left on device" was answered to stop_record).
func bareErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	return err
}
