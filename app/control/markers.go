package control

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"simgui/app/markers"
	"simgui/app/world"
)

// markersRequest answers one /markers request (see package markers for the shapes).
func (s *Service) markersRequest(_ context.Context, data []byte) []byte {
	var r markers.Response
	if req, err := markers.DecodeRequest(fixQuotes(data)); err != nil {
		r = markers.ErrorResponse(err)
	} else {
		r = s.markers.Apply(req)
	}
	b, err := json.Marshal(r)
	if err != nil {
		s.log.Error("control: encoding a markers answer", "err", err)
		return markersError("internal error: " + err.Error())
	}
	return b
}

func markersError(msg string) []byte {
	b, _ := json.Marshal(markers.Response{Err: errors.New(msg)})
	return b
}

// markersEvery is how often, at most, the marker set is published on the bus: each change
// publishes the whole set (up to 4 MB), and a client modifying markers in a loop filled a
// recording's 4 GiB in 15 s. Changes in between are published together, as the latest set.
const markersEvery = 100 * time.Millisecond

// markerPub holds the set waiting to be published (markersEvery).
type markerPub struct {
	mu      sync.Mutex
	last    time.Time
	pending *markers.Set
	timer   *time.Timer
}

// publishMarkers hands the new set to the world at once (as an overlay, applied at the start
// of the next step, so snapshots and the window see it) and to the bus at most once every
// markersEvery.
func (s *Service) publishMarkers(set *markers.Set) {
	if l, _ := s.world(); l != nil {
		s.overlay.hand(l, set)
	}
	p := &s.markerPub
	p.mu.Lock()
	if wait := markersEvery - time.Since(p.last); wait > 0 || p.timer != nil {
		p.pending = set
		if p.timer == nil {
			p.timer = time.AfterFunc(wait, s.flushMarkers)
		}
		p.mu.Unlock()
		return
	}
	p.last = time.Now()
	p.mu.Unlock()
	s.busMarkers(set)
}

// overlayPub hands marker sets to a world loop with at most one command waiting there: a
// loop running a step batch (a /control step of a million steps takes minutes in a fleet)
// runs no commands, and a client changing markers meanwhile queued a set per change, each
// holding the whole store (770 MB in 30 s from four Python clients). The command that waits
// takes the latest set when it runs.
type overlayPub struct {
	mu     sync.Mutex
	loop   *world.Loop // where the waiting command is queued
	queued bool        // a command waits on loop
	set    *markers.Set
}

// hand makes set the next overlay of l's world.
func (o *overlayPub) hand(l *world.Loop, set *markers.Set) {
	o.mu.Lock()
	o.set = set
	if o.queued && o.loop == l {
		o.mu.Unlock()
		return
	}
	o.loop, o.queued = l, true
	o.mu.Unlock()
	taken := func() *markers.Set {
		o.mu.Lock()
		defer o.mu.Unlock()
		if o.loop == l { // a command left on a world no longer on show does not count
			o.queued = false
		}
		return o.set
	}
	if err := l.Do(func(w *world.World) { w.SetOverlay(markers.OverlayKey, taken()) }); err != nil {
		taken() // the loop has stopped: the next set queues again
	}
}

// flushMarkers publishes the set that waited.
func (s *Service) flushMarkers() {
	p := &s.markerPub
	p.mu.Lock()
	set := p.pending
	p.pending, p.timer, p.last = nil, nil, time.Now()
	p.mu.Unlock()
	if set != nil {
		s.busMarkers(set)
	}
}

// busMarkers publishes set on the bus of the world on show.
func (s *Service) busMarkers(set *markers.Set) {
	l, b := s.world()
	if b == nil {
		return
	}
	var stamp time.Duration
	if l != nil {
		stamp = l.Snapshot().SimTime
	}
	if err := b.Publish(markers.Topic, set.Proto(stamp), stamp); err != nil {
		s.log.Warn("control: publishing markers", "err", err)
	}
}

// WorldChanged hands the current markers to the world Options.World answers now: call it
// when that world changes, so markers follow the world on show.
func (s *Service) WorldChanged() {
	s.publishMarkers(s.markers.Set())
}
