package world

import (
	"runtime"
	"strings"
	"testing"

	"simgui/physics/drive"
	"simgui/plugins"
)

// A reset that fails while spawning (here: an agent whose drive model does not exist, slipped
// in by BeforeReset) leaves the world exactly as it was: the same state hash, the same step,
// the commands still obeyed and every random stream where it was.
func TestFailedResetLeavesTheWorldAsItWas(t *testing.T) {
	broken := testVehicle.Clone()
	broken.ID = "vehicle.test.broken.v1"
	broken.Drive = &plugins.Drive{Model: "no_such_drive"}

	run := func(failReset bool) (hash string, draws []float64) {
		w := newTestWorld(t, 2, nil)
		r := w.Rand("noise")
		draws = append(draws, r.Float64())
		if err := w.SetCommand("car0", drive.Command{Throttle: 0.5}); err != nil {
			t.Fatal(err)
		}
		for range 50 {
			w.Step()
		}
		if failReset {
			w.cfg.BeforeReset = func(c *Config) error {
				c.Agents = append(c.Agents, AgentSpec{Name: "intruder", Vehicle: broken})
				return nil
			}
			before := w.StateHash()
			err := w.Reset(99)
			if err == nil || !strings.Contains(err.Error(), "no_such_drive") {
				t.Fatalf("Reset = %v, want the unknown drive model", err)
			}
			if w.StateHash() != before || w.StepCount() != 50 || w.Seed() != 7 || len(w.Models()) != 2 || len(w.cfg.Agents) != 2 {
				t.Fatalf("the failed reset changed the world: step %d, seed %d, %d models", w.StepCount(), w.Seed(), len(w.Models()))
			}
		}
		draws = append(draws, r.Float64(), w.Rand("noise").Float64())
		for range 50 {
			w.Step()
		}
		return w.StateHash(), draws
	}
	wantHash, wantDraws := run(false)
	gotHash, gotDraws := run(true)
	if gotHash != wantHash {
		t.Errorf("after the failed reset the run diverged: hash %s, want %s", gotHash, wantHash)
	}
	for i := range wantDraws {
		if gotDraws[i] != wantDraws[i] {
			t.Errorf("random draw %d is %v after the failed reset, want %v", i, gotDraws[i], wantDraws[i])
		}
	}
}

// A world reset again and again (a training env's) keeps one physics space, not all of them:
// cp's per-space pools would otherwise keep every old space alive until the second collection
// after it, and the heap, its collection target and the spaces kept would grow together.
func TestResetsDoNotPileUpSpaces(t *testing.T) {
	w := newTestWorld(t, 1, nil)
	var ms runtime.MemStats
	for k := range 1000 {
		if err := w.Reset(int64(k)); err != nil {
			t.Fatal(err)
		}
		w.Step()
	}
	runtime.ReadMemStats(&ms) // no forced collection: what the program would hold
	if ms.HeapAlloc > 64<<20 {
		t.Fatalf("after 1000 resets the heap holds %d MB", ms.HeapAlloc>>20)
	}
}

// A reset that fails after its space was built releases that space as a replaced one is:
// resets that keep failing (a client sending a bad episode again and again) hold no spaces.
func TestFailedResetsDoNotPileUpSpaces(t *testing.T) {
	broken := testVehicle.Clone()
	broken.ID = "vehicle.test.broken.v1"
	broken.Drive = &plugins.Drive{Model: "no_such_drive"}
	w := newTestWorld(t, 1, nil)
	w.cfg.BeforeReset = func(c *Config) error {
		c.Agents = append(c.Agents, AgentSpec{Name: "intruder", Vehicle: broken})
		return nil
	}
	var ms runtime.MemStats
	for k := range 1000 {
		if err := w.Reset(int64(k)); err == nil {
			t.Fatal("a reset with an unknown drive model succeeded")
		}
	}
	runtime.ReadMemStats(&ms) // no forced collection: what the program would hold
	if ms.HeapAlloc > 64<<20 {
		t.Fatalf("after 1000 failed resets the heap holds %d MB", ms.HeapAlloc>>20)
	}
	w.Step() // the world still steps on its own space
}
