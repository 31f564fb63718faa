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
	l, b := s.world()
	if l != nil {
		l.Do(func(w *world.World) { w.SetOverlay(markers.OverlayKey, set) })
	}
	if b != nil {
		var stamp time.Duration
		if l != nil {
			stamp = l.Snapshot().SimTime
		}
		if err := b.Publish(markers.Topic, set.Proto(stamp), stamp); err != nil {
			s.log.Warn("control: publishing markers", "err", err)
		}
	}
}

// WorldChanged hands the current markers to the world Options.World answers now: call it
// when that world changes, so markers follow the world on show.
func (s *Service) WorldChanged() {
	s.publishMarkers(s.markers.Set())
}
