package httpguard

import (
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultMaxConns is ConnLimit's Max when it is 0.
const DefaultMaxConns = 1024

// ConnLimit bounds the connections an http.Server holds: set the server's ConnState to its
// Track method. A connection beyond Max closes the one idle the longest (a keep-alive
// between requests, which its client opens again when it wants one, or a connection that has
// not sent a byte yet: a thousand silent ones locked every client out), or, with none idle,
// is closed itself. Without it, one local program holding thousands of idle connections
// took the process's file descriptors from every face. A connection taken over by a
// WebSocket (hijacked) leaves the count: the service bounds its sessions.
type ConnLimit struct {
	// Max is how many connections may be open at once; 0 means DefaultMaxConns.
	Max int
	// Refused counts connections closed at once for want of room, Evicted idle ones closed
	// to make room.
	Refused, Evicted atomic.Uint64

	mu   sync.Mutex
	open map[net.Conn]connState
}

type connState struct {
	idle  bool // between requests, or before the first (never active)
	since time.Time
}

// Track is an http.Server's ConnState hook.
func (l *ConnLimit) Track(c net.Conn, st http.ConnState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open == nil {
		l.open = map[net.Conn]connState{}
	}
	switch st {
	case http.StateNew:
		l.open[c] = connState{idle: true, since: time.Now()}
		limit := l.Max
		if limit <= 0 {
			limit = DefaultMaxConns
		}
		if len(l.open) <= limit {
			return
		}
		var oldest net.Conn
		for o, s := range l.open {
			if o != c && s.idle && (oldest == nil || s.since.Before(l.open[oldest].since)) {
				oldest = o
			}
		}
		if oldest != nil {
			delete(l.open, oldest)
			l.Evicted.Add(1) // counted before its client can see it closed
			oldest.Close()
			return
		}
		delete(l.open, c)
		l.Refused.Add(1)
		c.Close()
	case http.StateIdle:
		if _, ok := l.open[c]; ok {
			l.open[c] = connState{idle: true, since: time.Now()}
		}
	case http.StateActive:
		if _, ok := l.open[c]; ok {
			l.open[c] = connState{since: time.Now()}
		}
	case http.StateClosed, http.StateHijacked:
		delete(l.open, c)
	}
}

// Open returns how many connections are counted open.
func (l *ConnLimit) Open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.open)
}
