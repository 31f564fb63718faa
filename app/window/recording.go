package window

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// recording is a recording F9 started: its file and how to stop it.
type recording struct {
	path  string
	stop  func() error
	since time.Time
	// busy: a start or a stop is under way on the worker.
	busy bool
}

// toggleRecording starts recording every topic of the world on show to a new MCAP file in
// Options.RecordDir (simgui-<time>.mcap), or stops the recording it started, on the worker:
// the recorder waits for the frames the cameras have taken.
func (s *simScreen) toggleRecording() {
	if s.rec.busy {
		return
	}
	if stop, path := s.rec.stop, s.rec.path; stop != nil {
		since := s.rec.since
		s.rec.busy = s.g.async(func() func() {
			err := stop()
			return func() {
				s.rec = recording{}
				if err != nil {
					s.status("recording: " + err.Error())
					return
				}
				s.status(fmt.Sprintf("recording saved to %s (%s); Foxglove opens it", path, time.Since(since).Round(time.Second)))
			}
		})
		return
	}
	r := s.g.host.Recorder()
	if r == nil {
		s.status("recording is off in this run (the scenario's faces: {record: false})")
		return
	}
	dir := s.g.opts.RecordDir
	if dir == "" {
		dir = "."
	}
	base := filepath.Join(dir, "simgui-"+time.Now().Format("20060102-150405"))
	s.rec.busy = s.g.async(func() func() {
		stop, path, err := startRecording(r.StartRecording, base)
		return func() {
			s.rec.busy = false
			if err != nil {
				s.status("recording: " + err.Error())
				return
			}
			s.rec = recording{path: path, stop: stop, since: time.Now()}
			s.othersAt = time.Time{} // look again: this one is the window's
			msg := "recording every topic to " + path + "; F9 stops"
			if len(s.others) > 0 {
				msg += " (beside " + strings.Join(s.others, ", ") + ", which F9 does not stop)"
			}
			s.status(msg)
		}
	})
}

// othersEvery is how often the window asks which recordings others run.
const othersEvery = 500 * time.Millisecond

// otherRecordings returns the base names of the files recorded by others than F9 (the control
// socket's start_record, --record), asked at most every othersEvery.
func (s *simScreen) otherRecordings(now time.Time) []string {
	if now.Sub(s.othersAt) < othersEvery {
		return s.others
	}
	s.othersAt = now
	s.others = s.others[:0]
	r := s.g.host.Recorder()
	if r == nil {
		return nil
	}
	for _, p := range r.Recordings() {
		if s.rec.path == "" || filepath.Clean(p) != filepath.Clean(s.rec.path) {
			s.others = append(s.others, filepath.Base(p))
		}
	}
	return s.others
}

// recClock is a recording's length as the HUD shows it: m:ss, h:mm:ss past an hour.
func recClock(d time.Duration) string {
	s := int(d / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// startRecording creates base.mcap, new (base-2.mcap, base-3.mcap, ... when a recording of
// the same second has it), and starts a recording into it; a file it made for a recording
// that did not start is removed.
func startRecording(start func(*os.File) (func() error, error), base string) (stop func() error, path string, err error) {
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
		return nil, "", err
	}
	var f *os.File
	for n := 1; ; n++ {
		path = base + ".mcap"
		if n > 1 {
			path = fmt.Sprintf("%s-%d.mcap", base, n)
		}
		f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if !errors.Is(err, fs.ErrExist) || n == 100 {
			break
		}
	}
	if err != nil {
		return nil, "", err
	}
	stop, err = start(f) // it owns f from here, closed on failure too
	if err != nil {
		os.Remove(path)
		return nil, "", err
	}
	return stop, path, nil
}
