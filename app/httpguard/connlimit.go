package httpguard

import (
	"context"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultMaxConns is ConnLimit's Max when it is 0.
const DefaultMaxConns = 1024

// ConnLimit bounds the connections an http.Server holds: set the server's ConnState to its
// Track method (and its ConnContext to ConnContext, for Body). A connection beyond Max closes
// the one idle the longest (a keep-alive between requests, which its client opens again when
// it wants one, or a connection that has not sent a byte yet: a thousand silent ones locked
// every client out); with none idle, the one whose request body has waited longest on its
// client, a second or more (a thousand half-sent bodies locked every client out until the
// server's read timeout); with neither, it is closed itself. Without it, one local program holding thousands of idle connections
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
	// body: its handler reads the request's body (Body), which last gave bytes at since.
	body bool
}

// stalledBody is how long a request body must have given no bytes for its connection to
// make room: a body of the largest size the servers take arrives in milliseconds on a
// working connection.
const stalledBody = time.Second

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
		if oldest == nil {
			now := time.Now()
			for o, s := range l.open {
				if o != c && s.body && now.Sub(s.since) >= stalledBody && (oldest == nil || s.since.Before(l.open[oldest].since)) {
					oldest = o
				}
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

// connKey is the context key of a request's connection (ConnContext).
type connKey struct{}

// ConnContext is an http.Server's ConnContext hook: it lets Body find a request's connection.
func (*ConnLimit) ConnContext(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, c)
}

// Body returns r's body, read through which the connection counts as waiting on its client,
// from the last bytes it gave, until done is called: a connection whose body stalls may be
// closed to make room (see ConnLimit). Without ConnContext set, it is r.Body itself.
func (l *ConnLimit) Body(r *http.Request) (body io.Reader, done func()) {
	c, _ := r.Context().Value(connKey{}).(net.Conn)
	if c == nil {
		return r.Body, func() {}
	}
	l.mark(c, true)
	return &progressReader{r: r.Body, l: l, c: c}, func() { l.mark(c, false) }
}

// mark notes that c's body is read (from now) or no longer.
func (l *ConnLimit) mark(c net.Conn, body bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if s, ok := l.open[c]; ok && !s.idle {
		l.open[c] = connState{since: time.Now(), body: body}
	}
}

// progressReader notes each read that gives bytes as the body's progress.
type progressReader struct {
	r io.Reader
	l *ConnLimit
	c net.Conn
}

func (p *progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if n > 0 {
		p.l.mark(p.c, true)
	}
	return n, err
}

// Open returns how many connections are counted open.
func (l *ConnLimit) Open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.open)
}
