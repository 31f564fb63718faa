package record

import (
	"time"

	"simgui/app/transport"
)

// ReorderWindow is how long, in wall time, a message waits for earlier-stamped ones before
// it is written; maxPending bounds how many wait.
const (
	ReorderWindow = 250 * time.Millisecond
	maxPending    = 4096
)

// held is a message waiting in the reorder buffer, with its episode (episodes.of).
type held struct {
	m     transport.Message
	at    time.Time
	seq   uint64
	epoch int
}

// reorder is a min-heap of held messages by episode, stamp, then arrival.
type reorder []held

func (q reorder) Len() int { return len(q) }
func (q reorder) Less(i, j int) bool {
	if q[i].epoch != q[j].epoch {
		return q[i].epoch < q[j].epoch
	}
	if q[i].m.Stamp != q[j].m.Stamp {
		return q[i].m.Stamp < q[j].m.Stamp
	}
	return q[i].seq < q[j].seq
}
func (q reorder) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *reorder) Push(x any)   { *q = append(*q, x.(held)) }
func (q *reorder) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// episodes tells the episodes of one world's messages apart: a reset sends its clock back,
// and the reorder buffer must not write the new episode's early stamps before the old
// episode's late ones.
type episodes struct {
	n        int           // the current episode, from 0
	clock    time.Duration // its latest /clock stamp
	hasClock bool
	latest   time.Duration // its latest stamp, for a bus without /clock
}

// of returns the episode m belongs to.
func (e *episodes) of(m transport.Message) int {
	if m.Topic == transport.ClockTopic {
		// The clock is published on the loop goroutine, in order: going back is a reset.
		if e.hasClock && m.Stamp < e.clock {
			e.n++
		}
		e.clock, e.hasClock = m.Stamp, true
		return e.n
	}
	if e.hasClock {
		if e.n > 0 && m.Stamp > e.clock+aheadOfClock {
			return e.n - 1 // rendered before the reset, published after it
		}
		return e.n
	}
	if m.Stamp+rebaseAfter < e.latest {
		e.n++
		e.latest = m.Stamp
	}
	e.latest = max(e.latest, m.Stamp)
	return e.n
}
