// Package lograte bounds how often a log line that outside peers can cause is written: a
// client that repeats a refused request, or connects and misbehaves, as fast as it can must
// not fill the disk with the log. A Limiter lets a burst of lines through, then one an
// interval, each saying how many were left out since the last.
package lograte

import (
	"sync"
	"time"
)

// Defaults of a Limiter's zero fields.
const (
	DefaultEvery = time.Second
	DefaultBurst = 20
)

// Limiter is a token bucket of log lines: Burst at once, then one each Every. The zero value
// is ready (DefaultBurst, DefaultEvery); it is safe for concurrent use.
type Limiter struct {
	Every time.Duration
	Burst int

	mu      sync.Mutex
	started bool
	tokens  float64
	last    time.Time
	dropped int64
}

// Allow reports whether a line may be written now and, when it may, how many were held back
// since the last one (log it with the line).
func (l *Limiter) Allow() (ok bool, leftOut int64) {
	every, burst := l.Every, l.Burst
	if every <= 0 {
		every = DefaultEvery
	}
	if burst <= 0 {
		burst = DefaultBurst
	}
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.started {
		l.started, l.tokens = true, float64(burst)
	} else {
		l.tokens = min(float64(burst), l.tokens+float64(now.Sub(l.last))/float64(every))
	}
	l.last = now
	if l.tokens < 1 {
		l.dropped++
		return false, 0
	}
	l.tokens--
	leftOut, l.dropped = l.dropped, 0
	return true, leftOut
}
