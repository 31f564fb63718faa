package world

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"sort"

	"simgui/app/events"
)

// Reset puts the world back into its initial state for seed: the track is laid out again, the
// configured agents respawn (vehicles spawned later are gone), sim time and the step count go
// to zero, every random stream is re-seeded, callbacks and frequency accumulators restart,
// systems disabled by panics are enabled again, systems' Reset hooks run, and RESET is emitted.
// Config.BeforeReset runs first, on a copy of the config that is kept only if the reset
// succeeds.
//
// Reset is transactional: the new episode is built aside and swapped in only when it is
// complete, so on error the world is exactly as before — same state, same random streams, and
// systems, subscriptions and commands untouched (no Reset hook has run).
func (w *World) Reset(seed int64) error {
	cfg := w.cfg
	cfg.Agents = append([]AgentSpec(nil), w.cfg.Agents...)
	if cfg.BeforeReset != nil {
		if err := cfg.BeforeReset(&cfg); err != nil {
			return fmt.Errorf("reset: %w", err)
		}
	}
	ep, err := w.build(cfg, seed)
	if err != nil {
		return fmt.Errorf("reset: %w", err)
	}
	w.cfg = cfg
	old := w.space
	w.commit(ep, seed)
	// The old episode's space goes now, not two collections later (physics.Space.Release).
	defer old.Release()
	for id := range w.entities {
		if id != 0 && w.space.Body(id) == nil {
			delete(w.entities, id)
		}
	}
	for _, cb := range w.callbacks {
		cb.last = 0
	}
	for _, e := range w.systems {
		e.accNs, e.panics, e.disabled = 0, 0, false
		if r, ok := e.sys.(Resetter); ok {
			w.guard(e, "reset", func() { r.Reset(w) })
		}
	}
	w.bus.Emit(events.Reset, events.ResetInfo{Seed: seed})
	return nil
}

// rngSet holds named random streams, all derived from the episode seed.
type rngSet struct {
	seed    int64
	streams map[string]*stream
}

type stream struct {
	src *rand.PCG
	r   *rand.Rand
}

func (s *rngSet) reseed(seed int64) {
	s.seed = seed
	for name, st := range s.streams {
		st.src.Seed(streamSeed(seed, name))
	}
}

func streamSeed(seed int64, name string) (uint64, uint64) {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%s", seed, name)
	a := h.Sum64()
	h.Write([]byte{0xa5})
	return a, h.Sum64()
}

// Rand returns the random stream called name (a sensor's ID, a system's name, ...). Streams
// are independent — adding one does not change another's numbers — and re-seeded on Reset, so
// the stream keeps its identity: hold on to it.
func (w *World) Rand(name string) *rand.Rand {
	if w.rng.streams == nil {
		w.rng.streams = map[string]*stream{}
	}
	st, ok := w.rng.streams[name]
	if !ok {
		src := rand.NewPCG(streamSeed(w.rng.seed, name))
		st = &stream{src: src, r: rand.New(src)}
		w.rng.streams[name] = st
	}
	return st.r
}

// StateHash hashes every body's state (position, yaw, velocities, altitude) in ID order —
// track geometry included, so differently generated tracks differ — together with the step
// count: equal hashes mean bit-identical runs.
func (w *World) StateHash() string {
	h := fnv.New64a()
	var buf [8]byte
	put := func(v float64) {
		u := math.Float64bits(v)
		for i := range buf {
			buf[i] = byte(u >> (8 * i))
		}
		h.Write(buf[:])
	}
	put(float64(w.step))
	bodies := w.space.Bodies()
	ids := make([]int, 0, len(bodies))
	for i := range bodies {
		ids = append(ids, i)
	}
	sort.Slice(ids, func(i, j int) bool { return bodies[ids[i]].ID < bodies[ids[j]].ID })
	for _, i := range ids {
		b := bodies[i]
		p := b.Pose()
		vx, vy := b.Velocity()
		put(float64(b.ID))
		put(p.X)
		put(p.Y)
		put(p.Yaw)
		put(vx)
		put(vy)
		put(b.AngularVelocity())
		put(b.Base)
	}
	return fmt.Sprintf("%016x", h.Sum64())
}
