package record

// Behind says whether the writer has fallen half its queue behind the bus (Options.QueueLen
// messages or QueueBytes bytes): a publisher waiting in WaitWriter loses nothing, where one
// that goes on fills the queue and has its oldest messages dropped. False once the recording
// has stopped or let go of the bus.
func (r *Recorder) Behind() bool {
	r.subMu.Lock()
	sub, queueLen, done := r.sub, r.queueLen, r.stopped || r.detached
	r.subMu.Unlock()
	if done {
		return false
	}
	n, bytes := sub.Backlog()
	return n > queueLen/2 || bytes > r.queueBytes/2
}

// stepRoom is the room a recording's queue has for each robot of the world it records, beyond
// Options.QueueLen. The world waits for the writer once a step, at its start, until the queue
// is at most half full; the step then publishes its messages without waiting: a robot's pose
// every step, its wheels and MICOM every fourth (the sensors' readings wait for the writer
// each). Half of stepRoom holds them. A queue of the same length for every world let a fleet's
// step overrun it: 10,000 KS0223s, cameras off, lost 1.2 million of 3.6 million messages in one
// second of sim time, and 3,000 of them lost 4,757, although the world waited for the writer.
const stepRoom = 8

// queueFor is the queue length of a recording's subscription to world w: base
// (Options.QueueLen) for the world's own topics and stepRoom for each of its robots.
func queueFor(base int, w World) int { return base + stepRoom*max(w.Models, 0) }

// WaitWriter returns once the writer is not Behind, the recording ends, or stop closes. The
// record face has the world it records call it at every step and before each sensor reading
// it publishes (a camera's worker publishes between steps), so that a world faster than the
// writer (a run to --steps as fast as possible, a training episode, a fleet's cameras) waits
// for it, as it waits for its cameras, rather than has messages dropped. Any goroutine.
func (r *Recorder) WaitWriter(stop <-chan struct{}) {
	if !r.Behind() {
		return // the usual case, at every step and reading: no waiter to count
	}
	for {
		// Counted, and the wake-up channel taken, before looking: the writer, which looks
		// after every message it takes, then cannot catch up unseen between the look and
		// the wait.
		r.waitMu.Lock()
		woken := r.caughtUp
		r.waiters.Add(1)
		r.waitMu.Unlock()
		behind := r.Behind()
		if behind {
			select {
			case <-woken:
			case <-r.done:
				behind = false
			case <-stop:
				behind = false
			}
		}
		r.waiters.Add(-1)
		if !behind {
			return
		}
	}
}

// pokeWaiter wakes every WaitWriter once the writer is no longer Behind. Writer goroutine.
func (r *Recorder) pokeWaiter() {
	if r.waiters.Load() > 0 && !r.Behind() {
		r.waitMu.Lock()
		close(r.caughtUp)
		r.caughtUp = make(chan struct{})
		r.waitMu.Unlock()
	}
}
