package api

import (
	"context"
	"strconv"
	"sync"
	"testing"
)

// TestStepsAndResetsAtOnce steps and resets from several goroutines at once, as training
// clients sharing one simgui do. Step once took the service's read lock twice, and a Reset
// waiting for the write lock between the two froze every request for good; here that hangs
// the test until go test's timeout fails it.
func TestStepsAndResetsAtOnce(t *testing.T) {
	s := startServer(t, Options{})
	s.ok("/reset", `{"seed": 1}`)
	const steppers, resetters, steps, resets = 6, 2, 150, 6
	var wg sync.WaitGroup
	errs := make(chan error, steppers*steps+resetters*resets)
	for range steppers {
		wg.Go(func() {
			for range steps {
				if _, err := s.svc.Step(context.Background(), &StepRequest{Throttle: 0.3}); err != nil {
					errs <- err
				}
			}
		})
	}
	for i := range resetters {
		wg.Go(func() {
			for j := range resets {
				if _, err := s.svc.Reset(context.Background(), &ResetRequest{Seed: int64(10*i + j)}); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("a concurrent request failed: %v", err)
	}
	// The service still answers, on the last reset's episode.
	r, _ := s.ok("/step", `{"throttle": 0.5}`)
	if r.ActiveAgentID != "ego" {
		t.Errorf("after the storm the step answered for %q, want ego", r.ActiveAgentID)
	}
	if cur := s.svc.Current(); cur == nil || cur.ID != "episode-"+strconv.Itoa(1+resetters*resets) {
		t.Errorf("current episode %+v, want episode-%d", cur, 1+resetters*resets)
	}
}

// TestStepOfAClientThatLeft: a step whose client has left (its request's context ended)
// before the world's turn does not step the world.
func TestStepOfAClientThatLeft(t *testing.T) {
	s := startServer(t, Options{})
	r0, _ := s.ok("/reset", `{"seed": 1}`)
	s1, _ := s.ok("/step", `{}`)
	period := simStep(t, s1) - simStep(t, r0)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for range 5 {
		if _, err := s.svc.Step(ctx, &StepRequest{Throttle: 1}); err == nil {
			t.Fatal("a step for a client that left answered")
		}
	}
	s2, _ := s.ok("/step", `{}`)
	if got := simStep(t, s2) - simStep(t, s1); period == 0 || got != period {
		t.Fatalf("the next step advanced %d world steps, one action period is %d", got, period)
	}
}

// TestResetOfAClientThatLeft: a reset whose client has left (its request's context ended)
// before its episode is in place keeps the episode in place. A large reset whose client had
// hung up once built after a small one sent later, and replaced that client's episode.
func TestResetOfAClientThatLeft(t *testing.T) {
	s := startServer(t, Options{})
	s.ok("/reset", `{"seed": 1}`)
	before := s.svc.Current()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.svc.Reset(ctx, &ResetRequest{Seed: 2, Agents: []AgentRequest{{AgentID: "gone"}}}); err == nil {
		t.Fatal("a reset for a client that left answered")
	}
	if cur := s.svc.Current(); cur == nil || before == nil || cur.ID != before.ID {
		t.Errorf("current episode %+v after a reset whose client left, want %+v", cur, before)
	}
	r, _ := s.ok("/step", `{}`)
	if r.ActiveAgentID != "ego" || len(r.Agents) != 1 {
		t.Errorf("the step answered for %q with %d agents, want the episode in place: ego alone", r.ActiveAgentID, len(r.Agents))
	}
}
