package world

import (
	"context"
	"errors"
	"strings"
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

// Steps still queued when a loop stops are reported as never run, so nobody waits for ever; a
// batch under way stops where the run does (MaxSteps), however many steps it asked for.
func TestStartStepsQueuedAtStopReportStopped(t *testing.T) {
	l := NewLoop(newTestWorld(t, 1, nil), LoopOptions{MaxSteps: 1})
	first, second := make(chan error, 1), make(chan error, 1)
	// The first batch reaches MaxSteps after one of its 5 steps, so Run returns with the
	// second still queued.
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
	if s := l.Snapshot(); s.Step != 1 {
		t.Fatalf("loop ran to step %d, want MaxSteps, 1", s.Step)
	}
}

// StartReset runs before, the reset and then in one hand-over, in that order, and tells done;
// a before that fails leaves the world unreset and skips then; one still queued when the loop
// stops is told ErrStopped.
func TestStartResetRunsBeforeTheResetAndThen(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	l := NewLoop(newTestWorld(t, 1, nil), LoopOptions{Lockstep: true})
	go l.Run(ctx)
	if _, err := l.Step(ctx, 30); err != nil {
		t.Fatal(err)
	}
	type result struct {
		order []string
		step  uint64
		seed  int64
		err   error
	}
	reset := func(seed int64, failBefore bool) result {
		var r result
		done := make(chan struct{})
		err := l.StartReset(seed, func(w *World) error {
			r.order = append(r.order, "before")
			if failBefore {
				return errors.New("no episode")
			}
			return nil
		}, func(w *World) error {
			r.order = append(r.order, "then")
			r.step, r.seed = w.StepCount(), w.Seed()
			return nil
		}, func(err error) {
			r.err = err
			close(done)
		})
		if err != nil {
			t.Fatal(err)
		}
		<-done
		return r
	}
	if r := reset(42, true); r.err == nil || len(r.order) != 1 || l.Snapshot().Step != 30 {
		t.Fatalf("failing before: %+v, world at step %d; want the error, no reset, no then", r, l.Snapshot().Step)
	}
	r := reset(42, false)
	if r.err != nil || len(r.order) != 2 || r.order[1] != "then" || r.step != 0 || r.seed != 42 {
		t.Fatalf("reset: %+v; want before then then, at step 0 with seed 42", r)
	}
	if s := l.Snapshot(); s.Step != 0 || s.Seed != 42 {
		t.Fatalf("published snapshot at step %d seed %d; want 0 and 42", s.Step, s.Seed)
	}

	stopped := NewLoop(newTestWorld(t, 1, nil), LoopOptions{MaxSteps: 1})
	if err := stopped.StartSteps(nil, 5, func(*Snapshot, error) {}); err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	if err := stopped.StartReset(1, nil, nil, func(err error) { got <- err }); err != nil {
		t.Fatal(err)
	}
	if err := stopped.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := <-got; !errors.Is(err, ErrStopped) {
		t.Fatalf("reset queued at stop: %v, want ErrStopped", err)
	}
	if err := stopped.StartReset(1, nil, nil, func(error) {}); !errors.Is(err, ErrStopped) {
		t.Fatalf("StartReset after stop: %v, want ErrStopped", err)
	}
}

// failingInit is a system that will not start.
type failingInit struct{}

func (failingInit) Init(*World) error { return errors.New("camera: film gamma 0.1 refused") }

// TestStoppedLoopSaysWhy starts a world whose system will not start: work queued before and
// after says the loop stopped, and why.
func TestStoppedLoopSaysWhy(t *testing.T) {
	w := newTestWorld(t, 1, nil)
	if err := w.AddSystem(failingInit{}, SystemOptions{Name: "bad"}); err != nil {
		t.Fatal(err)
	}
	l := NewLoop(w, LoopOptions{})
	queued := make(chan error, 1)
	if err := l.StartSteps(nil, 1, func(_ *Snapshot, err error) { queued <- err }); err != nil {
		t.Fatal(err)
	}
	if err := l.Run(context.Background()); err == nil {
		t.Fatal("Run of a world whose system fails to start returned nil")
	}
	for name, err := range map[string]error{"queued": <-queued, "later": l.Call(context.Background(), func(*World) error { return nil })} {
		if !errors.Is(err, ErrStopped) || !strings.Contains(err.Error(), "film gamma 0.1 refused") {
			t.Errorf("%s work: %v, want ErrStopped saying why", name, err)
		}
	}
}
