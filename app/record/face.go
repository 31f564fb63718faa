package record

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"simgui/app"
	"simgui/app/foxview"
	"simgui/app/foxview/foxglove"
	"simgui/app/world"
)

// FaceID is the recorder's face in the app's registry.
const FaceID = "faces.record"

func init() {
	app.RegisterFace(app.FaceModule{
		ID: FaceID, Default: true, New: func() app.Face { return &Face{} },
		Doc: "MCAP recordings of the active world's topics (start_record / stop_record)",
	})
}

// Face is the recorder as a face of the host: it offers app.Recorder to the other faces
// (/control's start_record). A recording follows the active world: when the user or a
// training client switches worlds, it goes on in the same file with the new world's topics.
type Face struct {
	// Compression is "zstd" (default), "lz4" or "none".
	Compression string `yaml:"compression"`
	// Foxglove writes the Foxglove views of camera frames, lidar scans and the world's poses
	// beside them (Options.Foxglove); default true. false records the topics alone: a fleet's
	// cameras each cost a JPEG per frame on the writer otherwise.
	Foxglove *bool `yaml:"foxglove"`

	h    *app.Host
	mu   sync.Mutex
	recs map[*Recorder]bool // true: Shutdown reports how it ended (Begin's caller hears it)
	// taken is the world the recordings take, whose cameras keep every frame while one runs
	// and which waits for their writers (nil when none does); unpace removes its wait.
	taken    *app.Sim
	unpace   func()
	pacing   atomic.Pointer[[]*Recorder] // the recordings, for the taken world's loop
	stop     chan struct{}
	wg       sync.WaitGroup
	stopOnce sync.Once
}

// Validate checks the compression.
func (f *Face) Validate() error {
	switch f.Compression {
	case "", "zstd", "lz4", "none":
		return nil
	}
	return errors.New("compression: " + f.Compression + " is not zstd, lz4 or none")
}

// Start registers the recorder with h and follows the active world.
func (f *Face) Start(_ context.Context, h *app.Host) error {
	f.mu.Lock()
	f.h, f.stop = h, make(chan struct{})
	if f.recs == nil {
		f.recs = map[*Recorder]bool{}
	}
	f.mu.Unlock()
	h.SetRecorder(f)
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		cur := h.Active()
		for {
			changed := h.Changed()
			if a := h.Active(); a != nil && a != cur {
				f.mu.Lock()
				for r := range f.recs {
					r.Switch(a.Bus, f.worldOf(a))
				}
				if len(f.recs) > 0 {
					f.take(a)
				}
				f.mu.Unlock()
				cur = a
			}
			select {
			case <-changed:
			case <-f.stop:
				return
			}
		}
	}()
	return nil
}

// StartRecording records the active world's topics into file (see StartFile) until stop.
func (f *Face) StartRecording(file *os.File) (func() error, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.recs == nil {
		file.Close()
		return nil, errors.New("the recorder is not running")
	}
	a := f.h.Active()
	if a == nil {
		file.Close()
		return nil, errors.New("there is no world to record")
	}
	r, err := StartFile(a.Bus, file, f.options(a, f.h.Logger()))
	if err != nil {
		return nil, err
	}
	f.add(r, a, true)
	return func() error {
		f.mu.Lock()
		taken := f.taken
		f.mu.Unlock()
		flushFrames(taken)
		// Stopped before it leaves the list, so that a Shutdown meanwhile waits for its
		// footer (Stop waits for a Stop under way) rather than find nothing to close.
		st, err := r.Stop()
		f.mu.Lock()
		delete(f.recs, r)
		f.recsChanged()
		if len(f.recs) == 0 {
			f.take(nil)
		}
		f.mu.Unlock()
		if st.Dropped > 0 {
			f.h.Logger().Warn("the recording lacks messages the writer could not keep up with",
				"path", st.Path, "written", st.Messages, "dropped", st.Dropped)
		}
		if st.TopicsLeftOut > 0 {
			f.h.Logger().Warn("the recording left out topics past what a file holds",
				"path", st.Path, "topics", st.Topics, "leftOut", st.TopicsLeftOut, "limit", MaxChannels)
		}
		return err
	}, nil
}

// Recordings lists the files being recorded, whoever started them, sorted.
func (f *Face) Recordings() []string {
	f.mu.Lock()
	recs := make([]*Recorder, 0, len(f.recs))
	for r := range f.recs {
		recs = append(recs, r)
	}
	f.mu.Unlock()
	out := make([]string, 0, len(recs))
	for _, r := range recs {
		out = append(out, r.path)
	}
	slices.Sort(out)
	return out
}

// Begin records a's topics into a new file at path (see Start) from before the host runs
// (simgui run --record), so that a run's first step is in it; from Start on the recording
// follows the active world as the others do, and Shutdown closes it. Call it before the
// host's Run; the Recorder's Stop (idempotent) gives its stats after Run, and closes it when
// Run is not reached.
func (f *Face) Begin(a *app.Sim, path string, log *slog.Logger) (*Recorder, error) {
	r, err := Start(a.Bus, path, f.options(a, log))
	if err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.recs == nil {
		f.recs = map[*Recorder]bool{}
	}
	f.add(r, a, false) // its caller hears how it ended, from Stop
	return r, nil
}

// options are a recording's of world a, as the face is configured.
func (f *Face) options(a *app.Sim, log *slog.Logger) Options {
	return Options{Compression: f.Compression, Logger: log, World: f.worldOf(a), Foxglove: f.views()}
}

// add makes r one of the face's recordings, of world a; report: Shutdown returns how it
// ended. Call it with f.mu held.
func (f *Face) add(r *Recorder, a *app.Sim, report bool) {
	f.recs[r] = report
	f.recsChanged()
	f.take(a)
}

// views says whether recordings write the Foxglove views (Face.Foxglove, default true).
func (f *Face) views() bool { return f.Foxglove == nil || *f.Foxglove }

// worldOf names a world for the file, with its Foxglove scene when the views are on.
func (f *Face) worldOf(a *app.Sim) World {
	w := World{ID: a.ID, Kind: string(a.Kind), Label: a.Label}
	if a.Plan != nil {
		w.Models = len(a.Plan.Agents)
	}
	if !f.views() {
		return w
	}
	log := slog.Default()
	if f.h != nil {
		log = f.h.Logger()
	}
	w.Snapshot = a.Loop.Snapshot
	warned := false
	w.Scene = func() *foxglove.SceneUpdate {
		snap := a.Loop.Snapshot()
		if snap == nil {
			return nil
		}
		s, err := foxview.Scene(snap)
		if err != nil && !warned {
			warned = true
			log.Warn("recording without the world's Foxglove scene", "world", a.ID, "err", err)
		}
		return s
	}
	return w
}

// Shutdown withdraws the recorder and closes every recording cleanly; it may be called again.
func (f *Face) Shutdown(context.Context) error {
	if f.h != nil {
		f.h.SetRecorder(nil)
		f.stopOnce.Do(func() { close(f.stop) })
		f.wg.Wait()
	}
	f.mu.Lock()
	recs, taken := f.recs, f.taken
	f.mu.Unlock()
	if len(recs) > 0 {
		// The last frames taken, as stop_record waits for them; still waiting for the
		// writers as they are published.
		flushFrames(taken)
	}
	f.mu.Lock()
	f.recs = nil
	f.recsChanged()
	f.take(nil)
	f.mu.Unlock()
	var errs []error
	for r, report := range recs {
		if _, err := r.Stop(); report {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// take makes a the world the recordings take (nil: none): its cameras draw every frame, none
// dropped, so that a world stepped faster than they draw (lockstep, a step batch, time scale
// 0) is recorded with all its frames rather than one in ten, and its steps and its sensors'
// readings wait for the writers that fall behind, so that no message is dropped either. Call
// it with f.mu held.
func (f *Face) take(a *app.Sim) {
	if f.taken == a {
		return
	}
	if f.taken != nil && f.taken.Sensors != nil {
		f.taken.Sensors.SetLossless(false)
		f.taken.Sensors.SetPublishGate(nil)
	}
	if f.unpace != nil {
		f.unpace()
		f.unpace = nil
	}
	f.taken = a
	if a != nil && a.Sensors != nil {
		a.Sensors.SetLossless(true)
		a.Sensors.SetPublishGate(f.waitAll)
	}
	if a != nil && a.Loop != nil {
		// The world waits at each step while a writer is half its queue behind (see
		// Recorder.WaitWriter). The handle is the loop goroutine's, as the callbacks are.
		var h world.CallbackHandle
		a.Loop.Do(func(w *world.World) { h = w.AddCallback(f.waitWriters, 0) })
		f.unpace = func() { a.Loop.Do(func(w *world.World) { w.RemoveCallback(h) }) }
	}
}

// recsChanged publishes the recordings for waitWriters. Call it with f.mu held.
func (f *Face) recsChanged() {
	recs := make([]*Recorder, 0, len(f.recs))
	for r := range f.recs {
		recs = append(recs, r)
	}
	f.pacing.Store(&recs)
}

// waitWriters is the taken world's callback at each step: it waits for the recordings'
// writers that are behind. On the world's loop goroutine.
func (f *Face) waitWriters(*world.World, float64) { f.waitAll() }

// waitAll waits for the recordings' writers that are behind: the taken world's steps and its
// sensors' readings wait in it (WaitWriter). Any goroutine.
func (f *Face) waitAll() {
	if recs := f.pacing.Load(); recs != nil {
		for _, r := range *recs {
			r.WaitWriter(nil)
		}
	}
}

// flushWait bounds how long stopping a recording waits for the frames a's cameras have taken
// and not yet drawn (a fleet's cameras hold a few each).
const flushWait = 10 * time.Second

// flushFrames waits until a's cameras have drawn and published the frames already taken, so
// that a recording stopped right after a step batch ends with the batch's last frames. It
// runs on a's loop, where no frame is taken meanwhile, or at once when the loop has stopped;
// a loop busy with a long step batch is not waited for beyond flushWait.
func flushFrames(a *app.Sim) {
	if a == nil || a.Sensors == nil || a.Loop == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), flushWait)
	defer cancel()
	err := a.Loop.Call(ctx, func(*world.World) error {
		a.Sensors.Flush()
		return nil
	})
	if err != nil {
		select {
		case <-a.Loop.Done():
			// A run to --steps ends its loop before the faces: nothing takes frames now, and
			// the last ones taken are still on their way.
			a.Sensors.Flush()
		default:
		}
	}
}

var (
	_ app.Face          = (*Face)(nil)
	_ app.Recorder      = (*Face)(nil)
	_ app.FaceValidator = (*Face)(nil)
)
