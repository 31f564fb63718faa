package app

import (
	"context"
	"errors"
	"slices"
	"time"

	"simgui/app/world"
)

// ShutdownTimeout bounds how long the faces get to shut down when the host stops.
const ShutdownTimeout = 5 * time.Second

// Run runs the host: its worlds and the faces, until ctx ends, the scenario world stops on its
// own (its MaxSteps) or a MainRunner face returns. Faces start in the order given, a
// MainRunner first, and shut down in reverse; a face that fails to start stops the host with
// its error. When Run returns every
// world's loop has stopped (the worlds stay readable until Close). Run may be called once, after
// SetScenario.
func (h *Host) Run(ctx context.Context, faces ...Face) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	h.mu.Lock()
	switch {
	case h.scenario == nil:
		h.mu.Unlock()
		return errors.New("host: no scenario world (SetScenario)")
	case h.ctx != nil:
		h.mu.Unlock()
		return errors.New("host: already running")
	}
	h.ctx = ctx
	scenario := h.scenario
	h.trackStart(ctx, scenario, faces)
	for _, s := range h.worldsLocked() {
		h.startLocked(s)
	}
	close(h.running)
	h.mu.Unlock()

	// A face that needs the main goroutine (the window) starts first: if it cannot come up,
	// no port has been taken yet.
	slices.SortStableFunc(faces, func(a, b Face) int {
		_, ma := a.(MainRunner)
		_, mb := b.(MainRunner)
		switch {
		case ma && !mb:
			return -1
		case mb && !ma:
			return 1
		}
		return 0
	})
	var started []Face
	err := func() error {
		for _, f := range faces {
			if err := f.Start(ctx, h); err != nil {
				h.Start.Failed(FaceName(f), err)
				return &FaceStartError{Face: FaceName(f), Err: err}
			}
			h.Start.Started(FaceName(f))
			started = append(started, f)
		}
		for _, f := range faces {
			if m, ok := f.(MainRunner); ok {
				return m.RunMain(ctx)
			}
		}
		select {
		case <-ctx.Done():
		case <-h.ended:
		}
		return nil
	}()
	cancel()
	shut, done := context.WithTimeout(context.Background(), ShutdownTimeout)
	defer done()
	for i := len(started) - 1; i >= 0; i-- {
		if serr := started[i].Shutdown(shut); serr != nil {
			h.log.Warn("face shutdown", "face", FaceName(started[i]), "err", serr)
		}
	}
	var loopErr error
	for _, s := range h.Worlds() {
		if e := h.halt(s); e != nil && s == h.Scenario() {
			loopErr = e
		}
	}
	return errors.Join(err, loopErr)
}

// FaceStartError is Run's error when a face could not start (its port taken, say): the run
// did not begin, although its worlds may have taken their first steps meanwhile, so what a
// caller set up to keep the run's output can be taken away again.
type FaceStartError struct {
	// Face is the face's name (FaceName).
	Face string
	Err  error
}

func (e *FaceStartError) Error() string { return e.Face + ": " + e.Err.Error() }
func (e *FaceStartError) Unwrap() error { return e.Err }

// halt ends a world's loop and waits for it; it returns the loop's error.
func (h *Host) halt(s *Sim) error {
	h.mu.Lock()
	r := h.runs[s]
	h.mu.Unlock()
	if r == nil {
		return nil
	}
	r.cancel()
	<-r.done
	return r.err
}

// Close closes every world. Call it after Run has returned (or instead of Run).
func (h *Host) Close() error {
	var errs []error
	for _, s := range h.Worlds() {
		h.halt(s)
		errs = append(errs, s.Close())
	}
	return errors.Join(errs...)
}

// trackStart binds the start tracker to the scenario world's systems, its sensors and the
// faces, and reports the systems and sensors once the scenario loop has run their Init. After
// StartTimeout it logs what did not start. Called with h.mu held, before the loop runs.
func (h *Host) trackStart(ctx context.Context, s *Sim, faces []Face) {
	systems := s.SystemNames()
	names := append(append([]string(nil), systems...), "sensors")
	for _, f := range faces {
		names = append(names, FaceName(f))
	}
	if err := h.Start.Bind(names...); err != nil {
		h.log.Warn("start tracker", "err", err)
		return
	}
	s.Loop.Do(func(*world.World) { // runs after World.Start has run every Init
		for _, n := range systems {
			h.Start.Started(n)
		}
		h.Start.Started("sensors")
	})
	go func() {
		err := h.Start.Wait(ctx, h.opts.StartTimeout)
		switch {
		case err == nil:
			h.log.Debug("world loaded", "parts", len(names))
		case !errors.Is(err, context.Canceled):
			h.log.Error("world not fully loaded", "err", err)
		}
	}()
}
