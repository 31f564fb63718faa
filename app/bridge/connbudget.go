package bridge

import (
	"log/slog"
	"net"
	"sync"
	"time"

	"simgui/app/lograte"
)

// DefaultMaxConns is the default of Config.MaxConns: connections every port of a bridge serves
// together. cloisim_ros opens one per port, and a bridge serves at most DefaultMaxModels
// models of about eight ports each.
const DefaultMaxConns = 8192

// connBudget bounds the connections of every port of a bridge together. Each port holds at
// most MaxPeers, but a bridge has hundreds of ports: 19,000 connections spread over 800 of
// them took every file descriptor of the process (20,000 here), and the training API and the
// control socket could accept nobody. Past the budget the connection idle the longest, of
// any port, makes room, as on a full port.
type connBudget struct {
	max int
	log *slog.Logger
	// evictLog bounds the warnings a peer can cause as fast as it connects (lograte).
	evictLog lograte.Limiter

	mu    sync.Mutex
	conns map[net.Conn]*activity
}

func newConnBudget(max int, log *slog.Logger) *connBudget {
	return &connBudget{max: max, log: log, conns: map[net.Conn]*activity{}}
}

// admit counts c in, closing the connection idle the longest first when the budget is spent.
// Its serve goroutine takes the closed one out of its port.
func (b *connBudget) admit(c net.Conn, a *activity) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.conns) >= b.max {
		victim, va := idlest(b.conns)
		victim.Close()
		delete(b.conns, victim)
		if ok, leftOut := b.evictLog.Allow(); ok {
			b.log.Warn("bridge: too many connections on the device ports together; closed the one idle the longest",
				"closed", victim.RemoteAddr(), "port", victim.LocalAddr(), "idle", time.Since(time.Unix(0, va.last.Load())).Round(time.Millisecond),
				"limit", b.max, "notLoggedSinceLast", leftOut)
		}
	}
	b.conns[c] = a
}

// leave takes c out of the budget once it has closed.
func (b *connBudget) leave(c net.Conn) {
	b.mu.Lock()
	delete(b.conns, c)
	b.mu.Unlock()
}

// idlest returns the connection to close to make room: one still in its handshake before any
// that has done it (connections that never speak ZMTP must not push out a quiet subscriber
// that did), and of those the one idle the longest. conns must not be empty.
func idlest(conns map[net.Conn]*activity) (net.Conn, *activity) {
	var idle net.Conn
	var ia *activity
	var since int64
	var idleReady bool
	for c, a := range conns {
		t, ready := a.last.Load(), a.ready.Load()
		if idle == nil || idleReady && !ready || idleReady == ready && t < since {
			idle, ia, since, idleReady = c, a, t, ready
		}
	}
	return idle, ia
}
