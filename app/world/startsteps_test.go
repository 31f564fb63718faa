package world

import (
	"context"
	"errors"
	"sync"
	"testing"

	"simgui/physics/drive"
)

// StartSteps sets several loops stepping from one goroutine, which then waits for them all
// at once: each runs its before function, then its steps, and reports the snapshot after the
// last; a command given in before drives those very steps.
func TestStartStepsRunsBeforeThenTheSteps(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var loops []*Loop
	for range 3 {
		l := NewLoop(newTestWorld(t, 1, nil), LoopOptions{Lockstep: true})
		go l.Run(ctx)
		loops = append(loops, l)
	}
	var wg sync.WaitGroup
	seen := make([]uint64, len(loops))
	snaps := make([]*Snapshot, len(loops))
	for i, l := range loops {
		wg.Add(1)
		err := l.StartSteps(func(w *World) {
			seen[i] = w.StepCount()
			w.SetCommand("car0", drive.Command{Throttle: 1})
		}, 4+i, func(s *Snapshot, err error) {
			if err != nil {
				t.Errorf("loop %d: %v", i, err)
			}
			snaps[i] = s
			wg.Done()
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	for i, s := range snaps {
		if seen[i] != 0 || s == nil || s.Step != uint64(4+i) {
			t.Fatalf("loop %d: before saw step %d, snapshot %+v; want 0 and step %d", i, seen[i], s, 4+i)
		}
		if m, _ := s.Model("car0"); m.Forward <= 0 || m.Command.Throttle != 1 {
			t.Fatalf("loop %d: before's command did not drive its steps: %+v", i, m)
		}
	}
	// No steps and a before: before runs, the snapshot comes after it.
	ran := false
	s, err := loops[0].StepAfter(ctx, func(*World) { ran = true }, 0)
	if err != nil || !ran || s.Step != 4 {
		t.Fatalf("StepAfter(0): ran %v, step %d, %v", ran, s.Step, err)
	}
	cancel()
	<-loops[1].Done()
	if err := loops[1].StartSteps(nil, 1, func(*Snapshot, error) {}); !errors.Is(err, ErrStopped) {
		t.Fatalf("StartSteps after stop: %v, want ErrStopped", err)
	}
}

// Steps still queued when a loop stops are reported as never run, so nobody waits for ever.
func TestStartStepsQueuedAtStopReportStopped(t *testing.T) {
	l := NewLoop(newTestWorld(t, 1, nil), LoopOptions{MaxSteps: 1})
	first, second := make(chan error, 1), make(chan error, 1)
	// The first batch's 5 steps reach MaxSteps, so Run returns with the second still queued.
	if err := l.StartSteps(nil, 5, func(_ *Snapshot, err error) { first <- err }); err != nil {
		t.Fatal(err)
	}
	if err := l.StartSteps(nil, 5, func(_ *Snapshot, err error) { second <- err }); err != nil {
		t.Fatal(err)
	}
	if err := l.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := <-first; err != nil {
		t.Fatalf("first batch: %v, want nil", err)
	}
	if err := <-second; !errors.Is(err, ErrStopped) {
		t.Fatalf("second batch: %v, want ErrStopped", err)
	}
	if s := l.Snapshot(); s.Step != 5 {
		t.Fatalf("loop ran to step %d, want 5", s.Step)
	}
}
