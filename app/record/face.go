package record

import (
	"context"
	"errors"
	"os"
	"sync"

	"simgui/app"
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

	h        *app.Host
	mu       sync.Mutex
	recs     map[*Recorder]bool
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
	f.h, f.recs, f.stop = h, map[*Recorder]bool{}, make(chan struct{})
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
					r.Switch(a.Bus)
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
	r, err := StartFile(a.Bus, file, Options{Compression: f.Compression, Logger: f.h.Logger()})
	if err != nil {
		return nil, err
	}
	f.recs[r] = true
	return func() error {
		// Stopped before it leaves the list, so that a Shutdown meanwhile waits for its
		// footer (Stop waits for a Stop under way) rather than find nothing to close.
		st, err := r.Stop()
		f.mu.Lock()
		delete(f.recs, r)
		f.mu.Unlock()
		if st.Dropped > 0 {
			f.h.Logger().Warn("the recording lacks messages the writer could not keep up with",
				"path", st.Path, "written", st.Messages, "dropped", st.Dropped)
		}
		return err
	}, nil
}

// Shutdown withdraws the recorder and closes every recording cleanly; it may be called again.
func (f *Face) Shutdown(context.Context) error {
	if f.h == nil {
		return nil
	}
	f.h.SetRecorder(nil)
	f.stopOnce.Do(func() { close(f.stop) })
	f.wg.Wait()
	f.mu.Lock()
	recs := f.recs
	f.recs = nil
	f.mu.Unlock()
	var errs []error
	for r := range recs {
		_, err := r.Stop()
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

var (
	_ app.Face          = (*Face)(nil)
	_ app.Recorder      = (*Face)(nil)
	_ app.FaceValidator = (*Face)(nil)
)
