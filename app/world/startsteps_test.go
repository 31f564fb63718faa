package world

import (
	"context"
	"errors"
	"testing"

	"simgui/physics/drive"
)

// StartSteps sets several loops stepping from one goroutine: each runs its before function,
// then its steps, and delivers the snapshot after the last; a command given in before drives
// those very steps.
func TestStartStepsRunsBeforeThenTheSteps(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var loops []*Loop
	for range 3 {
		l := NewLoop(newTestWorld(t, 1, nil), LoopOptions{Lockstep: true})
		go l.Run(ctx)
		loops = append(loops, l)
	}
	var dones []<-chan *Snapshot
	seen := make([]uint64, len(loops))
	for i, l := range loops {
		done, err := l.StartSteps(func(w *World) {
			seen[i] = w.StepCount()
			w.SetCommand("car0", drive.Command{Throttle: 1})
		}, 4+i)
		if err != nil {
			t.Fatal(err)
		}
		dones = append(dones, done)
	}
	for i, l := range loops {
		s, err := l.Wait(ctx, dones[i])
		if err != nil {
			t.Fatal(err)
		}
		if seen[i] != 0 || s.Step != uint64(4+i) {
			t.Fatalf("loop %d: before saw step %d, snapshot at step %d; want 0 and %d", i, seen[i], s.Step, 4+i)
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
	if _, err := loops[1].StartSteps(nil, 1); !errors.Is(err, ErrStopped) {
		t.Fatalf("StartSteps after stop: %v, want ErrStopped", err)
	}
}
