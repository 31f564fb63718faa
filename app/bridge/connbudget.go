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
		out, va := victim(b.conns, time.Now())
		out.Close()
		delete(b.conns, out)
		if ok, leftOut := b.evictLog.Allow(); ok {
			b.log.Warn("bridge: too many connections on the device ports together; closed one to make room (the one idle the longest, or the newest when all are busy)",
				"closed", out.RemoteAddr(), "port", out.LocalAddr(), "idle", time.Since(time.Unix(0, va.last.Load())).Round(time.Millisecond),
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

// busyWithin is how recently a connection must have sent or been sent a message to count as
// busy: a subscriber of a port that publishes (a clock at 50 Hz, a camera) is sent one every
// few tens of milliseconds.
const busyWithin = 2 * time.Second

// victim returns the connection to close to make room, at now, the first of these there is:
//   - one still in its handshake, the one idle the longest: connections that never speak
//     ZMTP must not push out a quiet subscriber that did;
//   - one that has done the handshake and nothing since (no subscription, no request, sent
//     nothing), the oldest;
//   - one idle for busyWithin or longer, the one idle the longest;
//   - else, all busy, the newest: a flood of subscribers that connect again and again pushes
//     out its own connections, not the client that was there before it (of busy ones, the
//     one idle the longest is only the one the last message reached first).
//
// conns must not be empty.
func victim(conns map[net.Conn]*activity, now time.Time) (net.Conn, *activity) {
	const busy = 3
	rank := func(a *activity) int {
		switch last := a.last.Load(); {
		case !a.ready.Load():
			return 0
		case last == a.since:
			return 1
		case now.Sub(time.Unix(0, last)) >= busyWithin:
			return 2
		}
		return busy
	}
	var out net.Conn
	var oa *activity
	best := busy + 1
	for c, a := range conns {
		r := rank(a)
		switch {
		case r < best:
		case r > best:
			continue
		case r == busy && a.since > oa.since:
		case r < busy && a.last.Load() < oa.last.Load():
		default:
			continue
		}
		out, oa, best = c, a, r
	}
	return out, oa
}
