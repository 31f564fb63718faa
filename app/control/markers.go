package control

import (
	"context"
	"encoding/json"
	"errors"
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

// publishMarkers hands the new set to the world (as an overlay, applied at the start of the
// next step, so snapshots and the window see it) and to the bus.
func (s *Service) publishMarkers(set *markers.Set) {
	if l := s.opts.Loop; l != nil {
		l.Do(func(w *world.World) { w.SetOverlay(markers.OverlayKey, set) })
	}
	if b := s.opts.Bus; b != nil {
		stamp := s.simTime()
		if err := b.Publish(markers.Topic, set.Proto(stamp), stamp); err != nil {
			s.log.Warn("control: publishing markers", "err", err)
		}
	}
}

func (s *Service) simTime() (t time.Duration) {
	if s.opts.Loop != nil {
		t = s.opts.Loop.Snapshot().SimTime
	}
	return t
}
