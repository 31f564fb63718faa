package world

import (
	"errors"
	"testing"
)

// BeforeReset runs first: its error fails the reset with the world untouched; it may replace
// the agents the reset spawns.
func TestBeforeReset(t *testing.T) {
	w := newTestWorld(t, 2, nil)
	for range 100 {
		w.Step()
	}
	hash := w.StateHash()
	calls := 0
	w.cfg.BeforeReset = func(c *Config) error {
		calls++
		if calls == 1 {
			c.Agents = nil // changes made before an error are undone
			return errors.New("plugin gone")
		}
		c.Agents = c.Agents[:1]
		return nil
	}
	if err := w.Reset(3); err == nil || err.Error() != "reset: plugin gone" {
		t.Fatalf("Reset = %v", err)
	}
	if w.StateHash() != hash || w.StepCount() != 100 || len(w.cfg.Agents) != 2 {
		t.Fatal("a failed BeforeReset changed the world")
	}
	if err := w.Reset(3); err != nil {
		t.Fatal(err)
	}
	if calls != 2 || len(w.Models()) != 1 || w.StepCount() != 0 {
		t.Errorf("after the second reset: %d calls, %d models, step %d", calls, len(w.Models()), w.StepCount())
	}
}
