package main

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"simgui/app"
	"simgui/app/record"
)

// recordingSummary is what a run's --record file holds.
type recordingSummary struct {
	Path     string `json:"path"`
	Messages uint64 `json:"messages"`
	Topics   int    `json:"topics"`
	// Dropped counts messages the writer could not keep up with (see record.Stats).
	Dropped uint64 `json:"dropped"`
	// TopicsLeftOut counts topics past what a file holds (record.MaxChannels).
	TopicsLeftOut int `json:"topicsLeftOut,omitempty"`
}

func (r *recordingSummary) String() string {
	s := fmt.Sprintf("recording: %s, %d messages on %d topics", r.Path, r.Messages, r.Topics)
	if r.Dropped > 0 {
		s += fmt.Sprintf(", %d dropped (the writer fell behind)", r.Dropped)
	}
	if r.TopicsLeftOut > 0 {
		s += fmt.Sprintf(", %d topics left out (a file holds %d)", r.TopicsLeftOut, record.MaxChannels)
	}
	return s
}

// recordPath is --record's file: .mcap is added to a name without it.
func recordPath(name string) string {
	if !strings.EqualFold(filepath.Ext(name), ".mcap") {
		name += ".mcap"
	}
	return name
}

// beginRecording starts --record's recording of sim through the record face among faces,
// before the host runs, so that the run's first step is in it.
func beginRecording(faces []app.Face, sim *app.Sim, name string, log *slog.Logger) (*record.Recorder, error) {
	if strings.TrimSpace(name) == "" || strings.HasSuffix(name, "/") || strings.HasSuffix(name, string(filepath.Separator)) ||
		strings.HasPrefix(filepath.Base(name), ".") {
		return nil, fmt.Errorf("--record %q: want a file's name, not starting with a dot (run1 records into run1.mcap)", name)
	}
	if fi, err := os.Stat(name); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("--record %s is a folder: want a file's name in it (%s)", name, filepath.Join(name, "run1"))
	}
	for _, f := range faces {
		if rf, ok := f.(*record.Face); ok {
			r, err := rf.Begin(sim, recordPath(name), log)
			if err != nil {
				return nil, fmt.Errorf("--record: %w", err)
			}
			return r, nil
		}
	}
	return nil, errors.New("--record: the scenario turns the recorder off (faces: {record: false})")
}

// endRecording closes r (the host has closed it already when it ran) and sums it up.
func endRecording(r *record.Recorder) (*recordingSummary, error) {
	st, err := r.Stop()
	return &recordingSummary{Path: st.Path, Messages: st.Messages, Topics: st.Topics, Dropped: st.Dropped, TopicsLeftOut: st.TopicsLeftOut}, err
}
