package record

// Behind says whether the writer has fallen half its queue behind the bus (Options.QueueLen
// messages or QueueBytes bytes): a world waiting in WaitWriter loses nothing, where one that
// runs on fills the queue and has its oldest messages dropped. False once the recording has
// stopped or let go of the bus.
func (r *Recorder) Behind() bool {
	r.subMu.Lock()
	sub, done := r.sub, r.stopped || r.detached
	r.subMu.Unlock()
	if done {
		return false
	}
	n, bytes := sub.Backlog()
	return n > r.queueLen/2 || bytes > r.queueBytes/2
}

// WaitWriter returns once the writer is not Behind, the recording ends, or stop closes. The
// record face calls it from the world it records, at every step, so that a world faster
// than the writer (a run to --steps as fast as possible, a training episode) waits for it,
// as it waits for its cameras, rather than has messages dropped.
func (r *Recorder) WaitWriter(stop <-chan struct{}) {
	for {
		// Said before looking, so that the writer, which looks after every message it
		// takes, cannot catch up unseen between the look and the wait.
		r.waiting.Store(true)
		if !r.Behind() {
			r.waiting.Store(false)
			return
		}
		select {
		case <-r.caughtUp:
		case <-r.done:
			return
		case <-stop:
			return
		}
	}
}

// pokeWaiter wakes a WaitWriter once the writer is no longer Behind. Writer goroutine.
func (r *Recorder) pokeWaiter() {
	if r.waiting.Load() && !r.Behind() {
		r.waiting.Store(false)
		select {
		case r.caughtUp <- struct{}{}:
		default:
		}
	}
}
