package control

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/gorilla/websocket"

	"simgui/app/httpguard"
	"simgui/app/lograte"
	"simgui/app/markers"
	"simgui/app/transport"
	"simgui/app/world"
)

// Defaults of Options.
const (
	// DefaultPort is CLOiSim's SimulationService port; PortEnv overrides it.
	DefaultPort = 8080
	PortEnv     = "CLOISIM_SERVICE_PORT"
	// DefaultMaxMessage is the largest request accepted, in bytes.
	DefaultMaxMessage = 1 << 20
	// DefaultSimVersion is the sim_version answered; cloisim_ros refuses versions below 5.3.1.
	DefaultSimVersion = "5.4.2"
	// DefaultMaxSessions bounds the open WebSocket sessions.
	DefaultMaxSessions = 64
	// loopSlots bounds the commands of all sessions waiting on the world loop at once, so that
	// flooding clients add at most this many queued items to a step.
	loopSlots = 4
	// writeTimeout is how long a reply may take to reach a client before the session is closed.
	writeTimeout = 10 * time.Second
)

// Options configure a Service. Only Loop is needed for the world commands; without Bus there
// is no recording and markers are not published on the bus; without Bridge device_list and
// port_list answer empty maps.
type Options struct {
	// Addr is the listen address; "" means 127.0.0.1 and DefaultPort, or the port in the
	// CLOISIM_SERVICE_PORT environment variable (see DefaultAddr). Port 0 picks a free port.
	Addr string
	// AllowOrigins are browser origins (scheme://host[:port]) allowed to open a session besides
	// same-host ones; "*" allows any. AllowHosts are host names a request's Host may carry
	// besides IP addresses and localhost (see package httpguard).
	AllowOrigins, AllowHosts []string
	// Token, when set, must come as ?token= or "Authorization: Bearer <token>".
	Token string
	// MaxMessage is the largest request in bytes (default 1 MiB); larger ones are answered with
	// an error, and ones over 8 × MaxMessage close the session.
	MaxMessage int64
	// SimVersion is the sim_version in every /control answer (default "5.4.2").
	SimVersion string
	// MaxSessions bounds open sessions (default 64). A new session beyond it closes the one
	// idle the longest; only when every session is answering a request is it refused (503).
	MaxSessions int

	// World returns the world the service acts on, asked at every command: its loop and bus
	// (the host's active world). Without it world commands answer "world is unavailable".
	World func() (*world.Loop, *transport.Bus)
	// Devices returns the device bridge's port lists for device_list and port_list, asked at
	// every command; nil (or a nil answer) gives empty maps.
	Devices func() Devices

	// RecordDir is where start_record files go (default the working directory). Filenames must be
	// relative paths inside it; ".mcap" is added when missing. No file is written through a
	// symlink (see openRecordFile).
	RecordDir string
	// StartRecording starts recording into f, a new file in RecordDir, and returns the
	// function that stops it (and closes f); default record.StartFile on Bus.
	StartRecording func(f *os.File) (stop func() error, err error)

	// Logger receives session and command errors; default slog.Default().
	Logger *slog.Logger
}

// Devices is what device_list and port_list answer from: model → device type → parts → topic
// → port, and hashKey → port, filtered by a hashKey prefix. app.Devices (the bridge's) is one.
type Devices interface {
	DeviceList(filter string) map[string]map[string]map[string]map[string]uint16
	PortList(filter string) map[string]uint16
}

// Fixed returns an Options.World that always answers loop and bus.
func Fixed(loop *world.Loop, bus *transport.Bus) func() (*world.Loop, *transport.Bus) {
	return func() (*world.Loop, *transport.Bus) { return loop, bus }
}

// world returns the world to act on now (nil, nil without one).
func (s *Service) world() (*world.Loop, *transport.Bus) {
	if s.opts.World == nil {
		return nil, nil
	}
	return s.opts.World()
}

// track counts a goroutine of the service's in s.wg (Shutdown waits for them), unless the
// service is shutting down.
func (s *Service) track() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.wg.Add(1)
	return true
}

// devices returns the port lists to answer from, or nil.
func (s *Service) devices() Devices {
	if s.opts.Devices == nil {
		return nil
	}
	return s.opts.Devices()
}

// DefaultAddr returns 127.0.0.1 with DefaultPort or the port in CLOISIM_SERVICE_PORT.
func DefaultAddr() (string, error) {
	port, err := httpguard.PortFromEnv(PortEnv, DefaultPort)
	if err != nil {
		return "", err
	}
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), nil
}

// ErrClosed is returned by Serve after Shutdown.
var ErrClosed = errors.New("control: service closed")

// Service is the WebSocket SimulationService: /control and /markers. Make it with New, run it
// with Serve, stop it with Shutdown (or by cancelling Serve's context).
type Service struct {
	markerPub markerPub
	overlay   overlayPub
	// refusedLog bounds the log lines of refused requests (lograte); evictLog those of
	// sessions closed to make room, which a client reconnecting in a loop causes as fast as
	// it connects.
	refusedLog, evictLog lograte.Limiter

	opts     Options
	log      *slog.Logger
	ln       net.Listener
	srv      *http.Server
	upgrader websocket.Upgrader
	guard    *httpguard.Guard
	markers  *markers.Store

	// ctx ends at Shutdown and cancels the commands sessions are waiting on.
	ctx    context.Context
	cancel context.CancelFunc

	slots     chan struct{}
	resetting atomic.Bool

	recMu   sync.Mutex
	recStop func() error
	recPath string
	recName string // recPath as the client named it, for replies

	mu     sync.Mutex
	closed bool
	// shutDone closes when the first Shutdown has finished (the recording closed): a second
	// Shutdown waits for it, or the process could exit with the file's footer unwritten.
	shutDone chan struct{}
	// ahead is the bytes of the messages sessions have read ahead (aheadBudget).
	ahead    atomic.Int64
	sessions map[*websocket.Conn]*sessionState
	upgrades int // sessions being opened, counted against MaxSessions
	wg       sync.WaitGroup
}

// New checks opts and opens the listener, so that a port in use is reported here and Addr is
// known before Serve.
func New(opts Options) (*Service, error) {
	if opts.Addr == "" {
		addr, err := DefaultAddr()
		if err != nil {
			return nil, err
		}
		opts.Addr = addr
	}
	if opts.MaxMessage <= 0 {
		opts.MaxMessage = DefaultMaxMessage
	}
	if opts.SimVersion == "" {
		opts.SimVersion = DefaultSimVersion
	}
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = DefaultMaxSessions
	}
	if opts.RecordDir == "" {
		opts.RecordDir = "."
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return nil, fmt.Errorf("control service: listen on %s: %w (set --control-port or %s to use another port)", opts.Addr, err, PortEnv)
	}
	s := &Service{
		opts: opts, log: opts.Logger, ln: ln,
		guard:    httpguard.New(opts.AllowOrigins, opts.AllowHosts, opts.Token),
		slots:    make(chan struct{}, loopSlots),
		sessions: map[*websocket.Conn]*sessionState{},
		shutDone: make(chan struct{}),
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	// Host, origin and token are checked before Upgrade; the upgrader's own check would
	// refuse the origins AllowOrigins lets in.
	s.upgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true },
		// The library's answer is a bare status: a client that came with plain HTTP (curl, a
		// POST) is told what the endpoint wants.
		Error: func(w http.ResponseWriter, r *http.Request, status int, reason error) {
			http.Error(w, fmt.Sprintf("%s is a WebSocket endpoint: connect with a WebSocket client and send JSON commands (%v)", r.URL.Path, reason), status)
		}}
	s.markers = markers.NewStore(s.publishMarkers)
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
		ConnState: (&httpguard.ConnLimit{}).Track} // sessions, once upgraded, are bounded by MaxSessions
	return s, nil
}

// Addr returns the address the service listens on.
func (s *Service) Addr() net.Addr { return s.ln.Addr() }

// Markers returns the marker store behind /markers.
func (s *Service) Markers() *markers.Store { return s.markers }

// Serve answers connections until ctx is cancelled or Shutdown is called; then it shuts the
// service down and returns nil. It returns other errors of the listener.
func (s *Service) Serve(ctx context.Context) error {
	stop := context.AfterFunc(ctx, func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s.Shutdown(sctx)
	})
	defer stop()
	err := s.srv.Serve(s.ln)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown closes the listener and every session (with a going-away close frame), cancels the
// commands they wait on, stops a running recording cleanly, and waits for the sessions to end
// or ctx to expire. It is idempotent: a second call waits for the first to finish.
func (s *Service) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	already := s.closed
	s.closed = true
	conns := make([]*websocket.Conn, 0, len(s.sessions))
	for c := range s.sessions {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	s.markerPub.mu.Lock()
	if t := s.markerPub.timer; t != nil { // a set waiting for the bus goes with the service
		t.Stop()
		s.markerPub.timer, s.markerPub.pending = nil, nil
	}
	s.markerPub.mu.Unlock()
	err := s.srv.Shutdown(ctx)
	if already {
		select {
		case <-s.shutDone:
		case <-ctx.Done():
			if err == nil {
				err = ctx.Err()
			}
		}
		return err
	}
	defer close(s.shutDone)
	s.cancel()
	msg := websocket.FormatCloseMessage(websocket.CloseGoingAway, "simulator shutting down")
	for _, c := range conns {
		c.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second))
		c.Close()
	}
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		if err == nil {
			err = ctx.Err()
		}
	}
	if rerr := s.stopRecording(); rerr != nil && err == nil {
		err = rerr
	}
	return err
}

// ServeHTTP routes /control and /markers after the token and origin checks.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var ep endpoint
	switch r.URL.Path {
	case "/control":
		ep = endpoint{handle: s.control, fail: s.controlError}
	case "/markers":
		ep = endpoint{handle: s.markersRequest, fail: markersError}
	default:
		http.Error(w, "not found: the endpoints are /control and /markers", http.StatusNotFound)
		return
	}
	if ref := s.guard.Check(r); ref != nil {
		if ok, leftOut := s.refusedLog.Allow(); ok { // a client repeating it must not fill the log
			s.log.Warn("control: refused a session", "peer", r.RemoteAddr, "host", r.Host, "origin", r.Header.Get("Origin"), "status", ref.Status,
				"refusalsNotLoggedSinceLast", leftOut)
		}
		http.Error(w, ref.Message, ref.Status)
		return
	}
	s.mu.Lock()
	if s.closed || !s.makeRoomLocked(r.RemoteAddr) {
		s.mu.Unlock()
		http.Error(w, fmt.Sprintf("all %d sessions are busy, or the service is shutting down; try again later", s.opts.MaxSessions),
			http.StatusServiceUnavailable)
		return
	}
	s.upgrades++
	s.mu.Unlock()
	conn, err := s.upgrader.Upgrade(w, r, nil)
	s.mu.Lock()
	s.upgrades--
	if err != nil {
		s.mu.Unlock()
		return // the upgrader has answered
	}
	if s.closed {
		s.mu.Unlock()
		conn.Close()
		return
	}
	state := &sessionState{lastUsed: time.Now()}
	s.sessions[conn] = state
	s.wg.Add(1)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.sessions, conn)
		s.mu.Unlock()
		conn.Close()
		s.wg.Done()
	}()
	defer s.recoverSession(r.RemoteAddr)
	s.session(conn, state, ep)
}

// endpoint is what a session serves: handle answers a request, fail answers one that could not
// be read.
type endpoint struct {
	handle func(ctx context.Context, request []byte) []byte
	fail   func(msg string) []byte
}

var errTooLarge = errors.New("message too large")

// readLimited appends rd to buf up to max bytes. A longer message is read to its end and
// dropped (errTooLarge), so the session can go on; the connection's read limit still ends a
// session whose message is far too large.
func readLimited(rd io.Reader, buf []byte, max int64) ([]byte, error) {
	b := bytes.NewBuffer(buf)
	n, err := b.ReadFrom(io.LimitReader(rd, max+1))
	if err != nil {
		return b.Bytes(), err
	}
	if n > max {
		if _, err := io.Copy(io.Discard, rd); err != nil {
			return b.Bytes(), err
		}
		return b.Bytes(), errTooLarge
	}
	return b.Bytes(), nil
}

// session reads requests one at a time and answers each in order; state says when it is
// answering one (a session is busy from a complete request to its answer).
func (s *Service) session(conn *websocket.Conn, state *sessionState, ep endpoint) {
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	max := s.opts.MaxMessage
	conn.SetReadLimit(8 * max)
	// Messages are read on their own goroutine, so that a client that leaves while its command
	// runs is noticed at once: its command is cancelled (a queued step batch stops) and its
	// session ends, rather than holding a place in the queue and a session for minutes.
	msgs, spare := make(chan message), make(chan []byte, 1)
	go s.readMessages(ctx, cancel, conn, msgs, spare)
	for m := range msgs {
		s.ahead.Add(-int64(cap(m.buf)))
		if m.drop != nil {
			busy := ep.fail(fmt.Sprintf("too many requests waiting for answers (more than %d): this one was not run; wait for the answers before sending more", maxAhead))
			for range m.drop.take() {
				conn.SetWriteDeadline(time.Now().Add(writeTimeout))
				if conn.WriteMessage(websocket.TextMessage, busy) != nil {
					return
				}
			}
			continue
		}
		var reply []byte
		switch {
		case errors.Is(m.err, errTooLarge):
			reply = ep.fail(fmt.Sprintf("message too large (max %d bytes)", max))
		case m.err != nil:
			return // read limit or broken connection
		case m.typ == websocket.TextMessage && !utf8.Valid(m.buf):
			// RFC 6455 §8.1: a text message that is not UTF-8 fails the connection, with 1007.
			msg := websocket.FormatCloseMessage(websocket.CloseInvalidFramePayloadData, "text message is not valid UTF-8")
			_ = conn.WriteControl(websocket.CloseMessage, msg, time.Now().Add(writeTimeout))
			return
		default:
			s.setBusy(state, true)
			reply = ep.handle(ctx, m.buf)
		}
		if cap(m.buf) <= 64<<10 { // do not keep a large request's buffer per idle session
			select {
			case spare <- m.buf[:0]:
			default:
			}
		}
		conn.SetWriteDeadline(time.Now().Add(writeTimeout))
		err := conn.WriteMessage(websocket.TextMessage, reply)
		s.setBusy(state, false)
		if err != nil {
			return
		}
	}
}

// message is one client message as readMessages read it, or (drop set) the place of the
// messages it read past without keeping them.
type message struct {
	typ  int
	buf  []byte
	err  error
	drop *dropped
}

// dropped counts the messages a session's reader read past because too many waited already:
// each gets an error answer in its turn, after those queued before it.
type dropped struct {
	mu      sync.Mutex
	n       int
	pending bool // a marker for them is queued; later messages join them until it is answered
}

// take returns the count and lets messages queue again.
func (d *dropped) take() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := d.n
	d.n, d.pending = 0, false
	return n
}

// readMessages reads conn's messages (each up to the service's MaxMessage, into a spare
// buffer when there is one) and hands them to msgs until the connection fails or ctx ends;
// then it cancels the session and closes msgs. Up to maxAhead messages are read ahead of the
// session, so that a client that queues commands and leaves is noticed while the first runs:
// the reading goroutine cancels the session the moment the connection fails.
func (s *Service) readMessages(ctx context.Context, cancel context.CancelFunc, conn *websocket.Conn, msgs chan<- message, spare <-chan []byte) {
	defer close(msgs)
	// One place more than maxAhead, for the marker of messages read past (dropped).
	in := make(chan message, maxAhead+1)
	drop := &dropped{}
	go func() {
		defer close(in)
		// Whatever ends the reading ends the session at once, even with messages waiting:
		// the client has gone, or its connection broke mid-message.
		defer cancel()
		for {
			typ, rd, err := conn.NextReader()
			if err != nil {
				if !websocket.IsCloseError(err, websocket.CloseNormalClosure, websocket.CloseGoingAway, websocket.CloseNoStatusReceived) &&
					!errors.Is(err, net.ErrClosed) && ctx.Err() == nil {
					s.log.Debug("control: session ended", "err", err)
				}
				return
			}
			// With maxAhead messages waiting (or the service's read-ahead budget spent), a
			// message is read past and answered with an error in its turn: the reader goes on
			// reading, so a client that queues requests and leaves is noticed and its running
			// command cancelled, and what sessions hold stays bounded.
			drop.mu.Lock()
			full := drop.pending || len(in) >= maxAhead || s.ahead.Load() > aheadBudget
			first := full && !drop.pending
			if full {
				drop.n++
				drop.pending = true
			}
			drop.mu.Unlock()
			if full {
				if first {
					in <- message{drop: drop} // the spare place: nothing else queues meanwhile
				}
				if _, err := io.Copy(io.Discard, rd); err != nil {
					return
				}
				continue
			}
			var buf []byte
			select {
			case buf = <-spare:
			default:
				buf = make([]byte, 0, 4096)
			}
			buf, err = readLimited(rd, buf, s.opts.MaxMessage)
			s.ahead.Add(int64(cap(buf)))
			select {
			case in <- message{typ: typ, buf: buf, err: err}:
			case <-ctx.Done():
				s.ahead.Add(-int64(cap(buf)))
				return
			}
			if err != nil && !errors.Is(err, errTooLarge) {
				return
			}
		}
	}()
	for m := range in {
		select {
		case msgs <- m:
		case <-ctx.Done():
			// What is left is dropped with the session; the budget gets its bytes back.
			s.ahead.Add(-int64(cap(m.buf)))
			for m := range in {
				s.ahead.Add(-int64(cap(m.buf)))
			}
			return
		}
	}
}

// maxAhead is how many messages a session's reader takes ahead of the one being answered.
const maxAhead = 4

// aheadBudget bounds the bytes every session's read-ahead holds together: 64 sessions each
// queueing a few messages of a megabyte held 1.5 GB.
const aheadBudget = 32 << 20
