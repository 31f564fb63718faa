package bridge

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/go-zeromq/zmq4/security/null"
	"google.golang.org/protobuf/proto"

	"simgui/app/lograte"
)

// socketKind is the role of a device port, seen from the simulator.
type socketKind int

const (
	kindPub socketKind = iota // sensor data out; clients connect SUB sockets
	kindSub                   // commands in; clients connect PUB sockets
	kindRep                   // Info requests; clients connect REQ sockets
	kindReq                   // world Control requests to clients, which connect REP sockets
)

func (k socketKind) zmqType() zmq4.SocketType {
	switch k {
	case kindPub:
		return zmq4.Pub
	case kindSub:
		return zmq4.Sub
	case kindReq:
		return zmq4.Req
	default:
		return zmq4.Rep
	}
}

func (k socketKind) String() string { return string(k.zmqType()) }

// socketConfig is what every socket of a bridge shares.
type socketConfig struct {
	queueLen         int           // per-subscriber send queue of a PUB port, in messages
	handshakeTimeout time.Duration // ZMTP greeting and READY exchange
	writeTimeout     time.Duration // a peer that takes longer to accept one message is dropped
	maxMessage       int           // largest inbound message in bytes (frameScanner)
	maxPeers         int           // connections served at once, handshakes included
	budget           *connBudget   // the connections of every port together; nil: unbounded
	log              *slog.Logger
}

// socket is one bound device port speaking ZMTP 3.0 with the NULL mechanism, as libzmq's
// tcp://*:port sockets do. go-zeromq/zmq4 does the wire protocol (greeting, handshake,
// framing); the socket-level fan-out is ours, because zmq4's own PUB writes every subscriber
// from one goroutine with no write deadline, queues without bound unless given a high-water
// mark, and then drops for everyone alike; its listener also performs each handshake on the
// accept goroutine. Here every connection does its handshake on its own goroutine under a
// deadline, and each subscriber has its own bounded queue that drops its oldest message when
// full (libzmq's per-pipe high-water mark), so a slow or vanished client costs only itself.
//
// Every frame is the 8-byte tag of hashKey followed by the payload.
type socket struct {
	kind    socketKind
	hashKey string
	tag     [8]byte
	ln      net.Listener
	cfg     socketConfig

	// h is the socket's callbacks; a Retarget that keeps the socket for the new world's
	// device swaps them (rebind), while peers' goroutines read them.
	h atomic.Pointer[handlers]

	// Warnings a peer can cause as fast as it connects: a burst, then one a second (lograte).
	evictLog, overLimitLog lograte.Limiter

	mu     sync.Mutex
	closed bool
	conns  map[net.Conn]*activity // accepted, including those still in the handshake
	peers  map[*peer]struct{}     // handshake done
	wg     sync.WaitGroup

	// demand receives a value whenever the number of subscribed peers of a PUB port changes.
	demand     chan struct{}
	subscribed atomic.Int32

	sent, dropped atomic.Uint64

	// reqMu serializes Request on a REQ port: one request at a time per client, as a REQ
	// socket's state machine wants.
	reqMu sync.Mutex
}

// handlers are a socket's callbacks; they run on the peer's goroutine, concurrently for
// different clients.
type handlers struct {
	// onRequest (REP) maps a request payload (after the tag) to a reply payload.
	onRequest func(payload []byte) []byte
	// onMessage (SUB) takes a command payload (after the tag).
	onMessage func(payload []byte)
}

// bindSocket binds a socket of kind on ip:port and starts accepting.
func bindSocket(kind socketKind, ip string, port uint16, hashKey string, cfg socketConfig, h handlers) (*socket, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort(ip, strconv.Itoa(int(port))))
	if err != nil {
		return nil, fmt.Errorf("bridge: bind %s port for %s: %w", kind, hashKey, err)
	}
	s := &socket{
		kind: kind, hashKey: hashKey, tag: TagBytes(hashKey), ln: ln, cfg: cfg,
		conns: map[net.Conn]*activity{}, peers: map[*peer]struct{}{},
		demand: make(chan struct{}, 1),
	}
	s.h.Store(&h)
	s.wg.Add(1)
	go s.accept()
	return s, nil
}

// rebind gives the socket the callbacks of another device with its key (the same device of
// the next world), and signals demand, so that the device's new feed, which has not seen the
// clients subscribe, looks at them.
func (s *socket) rebind(h handlers) {
	s.h.Store(&h)
	s.signal()
}

// Port returns the bound TCP port.
func (s *socket) Port() uint16 { return uint16(s.ln.Addr().(*net.TCPAddr).Port) }

// Subscribed reports whether a client subscribes to this PUB port's tag now.
func (s *socket) Subscribed() bool { return s.subscribed.Load() > 0 }

// Demand signals (capacity 1, never closed) when Subscribed may have changed.
func (s *socket) Demand() <-chan struct{} { return s.demand }

// Frame returns an empty frame: the tag, with room for n payload bytes.
func (s *socket) Frame(n int) []byte {
	f := make([]byte, 8, 8+n)
	copy(f, s.tag[:])
	return f
}

// frameOf returns a frame carrying m.
func (s *socket) frameOf(m proto.Message) ([]byte, error) {
	return proto.MarshalOptions{}.MarshalAppend(s.Frame(proto.Size(m)), m)
}

// Publish queues frame (from Frame, tag included) for every subscribed peer and returns at
// once. The frame is shared by the peers' queues: the caller must not modify it afterwards.
func (s *socket) Publish(frame []byte) {
	s.mu.Lock()
	for p := range s.peers {
		if p.wants {
			p.enqueue(frame)
		}
	}
	s.mu.Unlock()
}

func (s *socket) accept() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			s.cfg.log.Debug("bridge: accept", "key", s.hashKey, "err", err)
			time.Sleep(10 * time.Millisecond) // for example EMFILE: do not spin
			continue
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			c.Close()
			return
		}
		if len(s.conns) >= s.cfg.maxPeers {
			// A connection makes room (victim): refusing the newcomer let 64 silent
			// connections lock the real client out. A client of libzmq's that loses its
			// connection makes a new one.
			idle, ia := victim(s.conns, time.Now())
			idle.Close() // its serve goroutine takes it out of conns
			delete(s.conns, idle)
			if s.cfg.budget != nil {
				s.cfg.budget.leave(idle)
			}
			if ok, leftOut := s.evictLog.Allow(); ok {
				s.cfg.log.Warn("bridge: too many connections on a port; closed one to make room (the one idle the longest, or the newest when all are busy)", "key", s.hashKey,
					"closed", idle.RemoteAddr(), "idle", time.Since(time.Unix(0, ia.last.Load())).Round(time.Millisecond), "limit", s.cfg.maxPeers,
					"notLoggedSinceLast", leftOut)
			}
		}
		a := &activity{since: time.Now().UnixNano()}
		a.last.Store(a.since) // not used yet: victim closes such connections first
		if s.cfg.budget != nil {
			s.cfg.budget.admit(c, a)
		}
		s.conns[c] = a
		s.wg.Add(1)
		s.mu.Unlock()
		go s.serve(c, a)
	}
}

// serve runs one connection: handshake, then the role's loop. Every byte the peer sends
// passes a frameScanner, so a message over the limit ends the connection before zmq4
// allocates for it; a panic in zmq4 or a handler ends only this connection.
func (s *socket) serve(c net.Conn, a *activity) {
	defer s.wg.Done()
	defer func() {
		c.Close()
		s.mu.Lock()
		if s.conns[c] == a {
			delete(s.conns, c)
		}
		s.mu.Unlock()
		if s.cfg.budget != nil {
			s.cfg.budget.leave(c)
		}
	}()
	lc := newLimitedConn(c, s.cfg.maxMessage)
	defer recovered(s.cfg.log, "bridge: a peer's connection failed; disconnected it", "key", s.hashKey, "peer", c.RemoteAddr())
	defer func() {
		if lc.err == nil {
			return
		}
		if ok, leftOut := s.overLimitLog.Allow(); ok {
			s.cfg.log.Warn("bridge: peer sent a message over the limit; disconnected it", "key", s.hashKey, "peer", c.RemoteAddr(), "err", lc.err,
				"notLoggedSinceLast", leftOut)
		}
	}()
	c.SetDeadline(time.Now().Add(s.cfg.handshakeTimeout))
	zc, err := zmq4.Open(lc, null.Security(), s.kind.zmqType(), nil, true, nil)
	if err != nil {
		if lc.err == nil {
			s.cfg.log.Debug("bridge: handshake failed", "key", s.hashKey, "peer", c.RemoteAddr(), "err", err)
		}
		return
	}
	c.SetDeadline(time.Time{})
	a.ready.Store(true)
	p := &peer{s: s, raw: c, zc: zc, act: a, wake: make(chan struct{}, 1), done: make(chan struct{}), replies: make(chan []byte, 1)}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.peers[p] = struct{}{}
	s.mu.Unlock()
	defer s.removePeer(p)

	switch s.kind {
	case kindPub:
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer recovered(s.cfg.log, "bridge: writing to a subscriber failed; disconnected it", "key", s.hashKey, "peer", c.RemoteAddr())
			p.writeLoop() // closes p however it ends

		}()
		p.readSubscriptions()
	case kindSub:
		p.receive()
	case kindRep:
		p.reply()
	case kindReq:
		p.readReplies()
	}
}

func (s *socket) removePeer(p *peer) {
	p.close()
	s.mu.Lock()
	delete(s.peers, p)
	if p.wants {
		p.wants = false
		s.subscribed.Add(-1)
		s.signal()
	}
	s.mu.Unlock()
}

func (s *socket) signal() {
	select {
	case s.demand <- struct{}{}:
	default:
	}
}

// Close stops accepting, disconnects every client and waits for the connection goroutines
// (and so for running handlers) to end.
func (s *socket) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	err := s.ln.Close()
	for c := range s.conns {
		c.Close()
	}
	for p := range s.peers {
		p.close()
	}
	s.mu.Unlock()
	s.wg.Wait()
	return err
}

// Peers returns the number of connected clients that completed the handshake.
func (s *socket) Peers() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.peers)
}
