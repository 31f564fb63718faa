package physics

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// The team: goroutines that help the kinematic solver through its passes over a large fleet.
//
// A pass over 10,000 movers takes a few hundred microseconds; handing each to a fresh
// goroutine measured no faster than one core, since the idle thread was woken too late to take
// its share, and parts handed out in turn moved the movers' cache lines between the cores on
// every pass. So the helpers are few and lasting (one per spare core, shared by every space),
// they wait for the next pass by watching a counter for a short while before they sleep, and
// a part has an owner — part p of a job of n parts belongs to worker p·workers/n — who takes
// it first: the same movers stay on the same core step after step. A worker that is done takes
// the parts nobody has begun.

// helperSpin is how long an idle helper watches for the next job before it sleeps: longer
// than the gaps between a fleet's passes and between its steps run back to back, short enough
// that a space stepped in real time leaves the core to others between steps.
const helperSpin = time.Millisecond

// maxHelpers bounds the team, beyond which a fleet's passes gain nothing.
const maxHelpers = 7

// team is the helpers and the job they serve, one at a time.
type team struct {
	helpers []*helper
	busy    atomic.Bool         // a job is being served
	gen     atomic.Uint64       // counts the jobs
	cur     atomic.Pointer[job] // the latest job
}

// helper is one helper goroutine: parked is set while it sleeps on wake.
type helper struct {
	worker int
	parked atomic.Bool
	wake   chan struct{}
}

// job is one pass cut into parts.
type job struct {
	fn      func(part int)
	parts   int
	workers int
	claimed []atomic.Bool
	pending atomic.Int32
	failure atomic.Pointer[string]
}

var (
	theTeam     *team
	theTeamOnce sync.Once
)

// sharedTeam returns the process's team, started on first use with one helper per core beyond
// the first (none on one core).
func sharedTeam() *team {
	theTeamOnce.Do(func() { theTeam = newTeam(min(runtime.GOMAXPROCS(0)-1, maxHelpers)) })
	return theTeam
}

// newTeam starts a team of n helpers. They serve for the life of the process.
func newTeam(n int) *team {
	t := &team{}
	for w := 1; w <= n; w++ {
		h := &helper{worker: w, wake: make(chan struct{}, 1)}
		t.helpers = append(t.helpers, h)
		go t.serve(h)
	}
	return t
}

// workers returns how many goroutines a job may run on at most: the caller and the helpers.
func (t *team) workers() int { return 1 + len(t.helpers) }

// run calls fn(p) for every part p in [0, parts), on the calling goroutine and on the helpers,
// and returns when all have returned. The parts must not touch the same memory. When another
// job holds the team, or there are no helpers, the caller runs every part itself, in order. A
// part that panics is re-raised here as an error-carrying panic once the others are done.
func (t *team) run(parts int, fn func(part int)) {
	if parts <= 1 || len(t.helpers) == 0 || !t.busy.CompareAndSwap(false, true) {
		for p := range parts {
			fn(p)
		}
		return
	}
	j := &job{fn: fn, parts: parts, workers: min(parts, t.workers()), claimed: make([]atomic.Bool, parts)}
	j.pending.Store(int32(parts))
	t.cur.Store(j)
	t.gen.Add(1)
	for _, h := range t.helpers[:j.workers-1] {
		if h.parked.CompareAndSwap(true, false) {
			h.wake <- struct{}{}
		}
	}
	j.work(0)
	// The helpers' last parts are under way: watch for their end, yielding once it takes
	// longer than a part should (a helper's thread may have been taken off its core).
	var yieldAfter time.Time
	for spins := 0; j.pending.Load() > 0; spins++ {
		if spins%64 == 63 {
			switch now := time.Now(); {
			case yieldAfter.IsZero():
				yieldAfter = now.Add(helperSpin)
			case now.After(yieldAfter):
				runtime.Gosched()
			}
		}
	}
	t.busy.Store(false)
	if f := j.failure.Load(); f != nil {
		panic(*f)
	}
}

// serve is helper h's life: wait for a job, take its share, again.
func (t *team) serve(h *helper) {
	seen := t.gen.Load()
	for {
		seen = t.await(h, seen)
		if j := t.cur.Load(); j != nil && h.worker < j.workers {
			j.work(h.worker)
		}
	}
}

// await returns the job counter once it has moved past seen: watched for helperSpin, then
// asleep until run wakes h.
func (t *team) await(h *helper, seen uint64) uint64 {
	deadline := time.Now().Add(helperSpin)
	for spins := 0; ; spins++ {
		if g := t.gen.Load(); g != seen {
			return g
		}
		if spins%64 == 63 && time.Now().After(deadline) {
			break
		}
	}
	h.parked.Store(true)
	if g := t.gen.Load(); g != seen {
		// A job came while h was going to sleep: take it, unless run already sent the wake
		// (then it is in the channel and must be taken from there).
		if !h.parked.CompareAndSwap(true, false) {
			<-h.wake
		}
		return g
	}
	<-h.wake
	return t.gen.Load()
}

// work runs worker w's own parts, then any part nobody has begun.
func (j *job) work(w int) {
	for p := range j.parts {
		if p*j.workers/j.parts == w {
			j.take(p)
		}
	}
	for p := range j.parts {
		j.take(p)
	}
}

// take runs part p unless another worker has claimed it.
func (j *job) take(p int) {
	if j.claimed[p].Load() || !j.claimed[p].CompareAndSwap(false, true) {
		return
	}
	defer j.pending.Add(-1)
	defer func() {
		if r := recover(); r != nil {
			msg := fmt.Sprintf("physics: a kinematic pass panicked: %v", r)
			j.failure.CompareAndSwap(nil, &msg)
		}
	}()
	j.fn(p)
}
