package fastpath

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"simgui/app"
)

// FaceID is the fast path's face in the app's registry.
const FaceID = "faces.fastpath"

// Defaults and limits of the settings.
const (
	DefaultMaxEnvs     = 64
	DefaultMaxSessions = 4
	DefaultMaxMemoryMB = 512
	DefaultIdleTimeout = 10 * time.Second
	// DefaultMessageTimeout bounds how long a request may take to arrive whole, from its first
	// byte, and the open request from connecting: a client a few microseconds away that
	// stops half-way is stuck, and would hold its session slot for good.
	DefaultMessageTimeout = 10 * time.Second
	// DefaultYieldAfter is how long a session goes without requests before a newcomer that
	// finds every slot taken may close it: longer than any policy update between two steps,
	// so that only sessions left behind (a notebook's env never closed) give way.
	DefaultYieldAfter = 5 * time.Minute
	maxSocketPath     = 104 // sun_path holds 108 bytes on Linux, 104 on the BSDs
)

func init() {
	app.RegisterFace(app.FaceModule{
		ID: FaceID, Default: false, OnWith: "socket", New: func() app.Face { return &Face{} },
		Doc: "binary fast path for vectorized training: N envs per request, frames in shared memory (--fast-path SOCKET)",
	})
}

// Face is the fast path as a face of the host: a Unix socket where each connection opens a
// session of N envs — worlds of the host, added as one episode so the window can watch any of
// them — and steps them all with one request, the frames landing in shared memory.
type Face struct {
	// Socket is the Unix socket's path; required. A stale socket file (nobody listening) is
	// replaced; the file is removed at shutdown.
	Socket string `yaml:"socket"`
	// MaxEnvs bounds a session's envs (default 64, at most 1024).
	MaxEnvs int `yaml:"maxEnvs"`
	// MaxSessions bounds the sessions open at once (default 4, at most 64).
	MaxSessions int `yaml:"maxSessions"`
	// MaxMemoryMB bounds a session's shared memory (default 512, at most 16384).
	MaxMemoryMB int `yaml:"maxMemoryMB"`
	// IdleTimeout is how long a session without requests stays on show (default 10 s).
	IdleTimeout time.Duration `yaml:"idleTimeout"`
	// MessageTimeout ends a session whose request has not arrived whole this long after its
	// first byte, or whose open request has not this long after connecting (default 10 s).
	MessageTimeout time.Duration `yaml:"messageTimeout"`
	// YieldAfter is how long a session must have gone without requests for a newcomer that
	// finds all maxSessions slots taken to close it and take its slot (default 5 min).
	YieldAfter time.Duration `yaml:"yieldAfter"`

	h        *app.Host
	ln       *net.UnixListener
	path     string
	sessions atomic.Uint64 // sessions opened so far, for their ids

	mu       sync.Mutex
	open     map[*session]bool
	wg       sync.WaitGroup
	stop     chan struct{}
	stopOnce sync.Once
	closeErr error
}

// Validate checks the settings.
func (f *Face) Validate() error {
	switch {
	case len(f.Socket) > maxSocketPath:
		return fmt.Errorf("socket: %q is longer than %d bytes", f.Socket, maxSocketPath)
	case f.MaxEnvs < 0 || f.MaxEnvs > 1024:
		return fmt.Errorf("maxEnvs %d is outside 0..1024 (0: %d)", f.MaxEnvs, DefaultMaxEnvs)
	case f.MaxSessions < 0 || f.MaxSessions > 64:
		return fmt.Errorf("maxSessions %d is outside 0..64 (0: %d)", f.MaxSessions, DefaultMaxSessions)
	case f.MaxMemoryMB < 0 || f.MaxMemoryMB > 16384:
		return fmt.Errorf("maxMemoryMB %d is outside 0..16384 (0: %d)", f.MaxMemoryMB, DefaultMaxMemoryMB)
	case f.IdleTimeout != 0 && (f.IdleTimeout < time.Millisecond || f.IdleTimeout > time.Hour):
		return fmt.Errorf("idleTimeout %v is outside 1ms..1h (0: %v)", f.IdleTimeout, DefaultIdleTimeout)
	case f.MessageTimeout != 0 && (f.MessageTimeout < time.Millisecond || f.MessageTimeout > time.Hour):
		return fmt.Errorf("messageTimeout %v is outside 1ms..1h (0: %v)", f.MessageTimeout, DefaultMessageTimeout)
	case f.YieldAfter != 0 && (f.YieldAfter < time.Second || f.YieldAfter > 24*time.Hour):
		return fmt.Errorf("yieldAfter %v is outside 1s..24h (0: %v)", f.YieldAfter, DefaultYieldAfter)
	}
	return nil
}

func (f *Face) maxEnvs() int     { return orDefault(f.MaxEnvs, DefaultMaxEnvs) }
func (f *Face) maxSessions() int { return orDefault(f.MaxSessions, DefaultMaxSessions) }
func (f *Face) maxMemory() int   { return orDefault(f.MaxMemoryMB, DefaultMaxMemoryMB) << 20 }

func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// errNoSocket is the fast path turned on without its socket.
var errNoSocket = errors.New("needs its Unix socket: faces: {fastpath: {socket: PATH}}, or --fast-path PATH")

// CheckReady refuses a fast path turned on without its socket (app.FaceReadyChecker).
func (f *Face) CheckReady() error {
	if f.Socket == "" {
		return errNoSocket
	}
	return nil
}

// Start listens on the socket and serves sessions until Shutdown.
func (f *Face) Start(ctx context.Context, h *app.Host) error {
	if err := f.CheckReady(); err != nil {
		return err
	}
	path, err := filepath.Abs(f.Socket)
	if err != nil {
		return err
	}
	if err := removeStale(path); err != nil {
		return err
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return fmt.Errorf("fast path: listen on %s: %w", path, err)
	}
	ln.SetUnlinkOnClose(true)
	// Only this user may connect: a session builds worlds and takes cores.
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return fmt.Errorf("fast path: %w", err)
	}
	f.h, f.ln, f.path = h, ln, path
	f.open, f.stop = map[*session]bool{}, make(chan struct{})
	idle := cmp.Or(f.IdleTimeout, DefaultIdleTimeout)
	stalled := cmp.Or(f.MessageTimeout, DefaultMessageTimeout)
	f.wg.Add(2)
	go func() {
		defer f.wg.Done()
		f.accept(ctx)
	}()
	go func() {
		defer f.wg.Done()
		f.watch(idle, stalled)
	}()
	h.Logger().Info("fast path listening", "socket", path)
	return nil
}

// removeStale removes a socket file nobody listens on; a live one, or another kind of file, is
// an error.
func removeStale(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if fi.Mode().Type() != os.ModeSocket {
		return fmt.Errorf("fast path: %s exists and is not a socket", path)
	}
	if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
		c.Close()
		return fmt.Errorf("fast path: %s is in use by another process", path)
	}
	return os.Remove(path)
}

// Addr returns the socket's path, "" before Start.
func (f *Face) Addr() string { return f.path }

// maxWaiting bounds the connections that have not opened a session yet: each holds a file
// descriptor and a goroutine until its open request or messageTimeout.
func (f *Face) maxWaiting() int { return 4 * f.maxSessions() }

func (f *Face) accept(ctx context.Context) {
	var delay time.Duration
	for {
		c, err := f.ln.AcceptUnix()
		if err != nil {
			select {
			case <-f.stop:
				return
			default:
			}
			if errors.Is(err, net.ErrClosed) {
				return
			}
			// Out of file descriptors, or another passing failure: the face stays, as
			// net/http's does, and tries again a little later. Returning stopped it for good,
			// its socket still there for clients to hang on.
			delay = min(max(2*delay, 5*time.Millisecond), time.Second)
			if delay == 5*time.Millisecond {
				f.h.Logger().Error("fast path: accept (trying again)", "err", err)
			}
			select {
			case <-f.stop:
				return
			case <-time.After(delay):
			}
			continue
		}
		delay = 0
		s := &session{f: f, h: f.h, conn: c}
		if !peerIsUser(c) {
			// The socket is the user's alone (0600), but a client of another user could
			// connect in the moment between listening and the chmod.
			s.fail(errors.New("the fast path serves the user simgui runs as only"))
			c.Close()
			continue
		}
		f.mu.Lock()
		// Past the bound, the connection that has waited longest for its open request makes
		// room, as httpguard's limit does: refusing the newcomer let 16 silent connections,
		// renewed as they timed out, lock every client out.
		var oldest *session
		waiting := 0
		for o := range f.open {
			if !o.opened.Load() {
				waiting++
				if oldest == nil || o.lastUse.Load() < oldest.lastUse.Load() {
					oldest = o
				}
			}
		}
		if waiting >= f.maxWaiting() && oldest != nil {
			delete(f.open, oldest)
		} else {
			oldest = nil
		}
		f.open[s] = true
		f.mu.Unlock()
		if oldest != nil {
			// Told why, on a goroutine of its own: the accepting goes on meanwhile.
			go func() {
				oldest.fail(fmt.Errorf("closed to make room: %d connections were waiting to open a session, the most this simgui keeps (4 × maxSessions); send the open request on connecting", waiting))
				oldest.hangUp()
			}()
		}
		now := time.Now().UnixNano()
		s.lastUse.Store(now)
		s.pendingSince.Store(now) // the open request is due
		f.wg.Add(1)
		go func() {
			defer f.wg.Done()
			defer func() {
				if r := recover(); r != nil {
					f.h.Logger().Error("fast path: session failed", "session", s.id, "panic", r)
					s.close()
				}
				// close frees the slot; this frees it even when close itself panicked.
				f.release(s)
			}()
			s.serve()
		}()
	}
}

// reserve takes a session slot for s, whose open request has come: only sessions opening or
// open count against maxSessions, not connections that have sent nothing yet.
//
// When every slot is taken, the session that has gone without requests longest gives its
// slot up if that is yieldAfter or more: it is closed, told why. Sessions a client left open
// (a notebook's env never closed, a trainer stopped in a debugger) otherwise locked every
// later client out until simgui restarted.
func (f *Face) reserve(s *session) error {
	f.mu.Lock()
	n := 0
	var idlest *session
	for o := range f.open {
		if !o.opened.Load() {
			continue
		}
		n++
		if o.pendingSince.Load() == 0 && o.state.Load() == idle && (idlest == nil || o.lastUse.Load() < idlest.lastUse.Load()) {
			idlest = o
		}
	}
	yield := cmp.Or(f.YieldAfter, DefaultYieldAfter)
	var unused time.Duration
	if n >= f.maxSessions() {
		if idlest != nil {
			if unused = time.Since(time.Unix(0, idlest.lastUse.Load())); unused >= yield {
				idlest.yieldErr = fmt.Errorf("closed to make room: this session had no request for %v and another client found all %d "+
					"session slots taken (a session without requests for yieldAfter, %v, gives its slot up)", unused.Round(time.Second), n, yield)
			}
		}
		// A request it began answering since the scan keeps it its slot.
		if idlest == nil || unused < yield || !idlest.state.CompareAndSwap(idle, yielded) {
			f.mu.Unlock()
			return fmt.Errorf("%d sessions are open, the most this simgui serves (maxSessions): close one, or start "+
				"simgui with a scenario that serves more (faces: {fastpath: {maxSessions: N}}, N up to 64); "+
				"a session %v without requests gives its slot up (yieldAfter)", n, yield)
		}
		delete(f.open, idlest) // its slot is the newcomer's; its worlds go as it closes
	} else {
		idlest = nil
	}
	s.opened.Store(true)
	f.mu.Unlock()
	if idlest != nil {
		f.h.Logger().Warn("fast path: closed an idle session to make room", "session", idlest.id, "idle", unused.Round(time.Second))
		// Its own goroutine, woken, says why and closes it: it may be writing a reply.
		_ = idlest.conn.CloseRead()
	}
	return nil
}

// release frees s's session slot.
func (f *Face) release(s *session) {
	f.mu.Lock()
	delete(f.open, s)
	f.mu.Unlock()
}

// watch marks sessions without requests for idle as idle with the host, and ends those
// whose request is stalled for longer than stalled.
func (f *Face) watch(idle, stalled time.Duration) {
	t := time.NewTicker(min(time.Second, idle/2, stalled/2))
	defer t.Stop()
	for {
		select {
		case <-f.stop:
			return
		case <-t.C:
		}
		f.mu.Lock()
		for s := range f.open {
			s.idle(idle)
			s.endIfStalled(stalled)
		}
		f.mu.Unlock()
	}
}

// Shutdown stops accepting, ends every session (removing their worlds) and removes the socket.
func (f *Face) Shutdown(ctx context.Context) error {
	if f.ln == nil {
		return nil
	}
	f.stopOnce.Do(func() {
		close(f.stop)
		f.closeErr = f.ln.Close()
	})
	f.mu.Lock()
	for s := range f.open {
		s.hangUp()
	}
	f.mu.Unlock()
	done := make(chan struct{})
	go func() {
		f.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		return ctx.Err()
	}
	return f.closeErr
}

var (
	_ app.Face          = (*Face)(nil)
	_ app.FaceValidator = (*Face)(nil)
)
