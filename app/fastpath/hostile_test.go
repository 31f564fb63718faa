package fastpath

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"simgui/app/scenario"
)

// Requests from a client are hostile until checked: bad values are answered with an error and
// change nothing; malformed messages end the session; sizes are checked before allocating.
func TestHostileRequests(t *testing.T) {
	_, f := startFace(t, scenario.Default())
	wantErr := func(t *testing.T, c *client, contains string) (field string) {
		t.Helper()
		typ, body, _, err := c.recv()
		if typ != msgError || err == nil || !strings.Contains(err.Error(), contains) {
			t.Fatalf("want an error with %q, got 0x%02x %v", contains, typ, err)
		}
		var e struct{ Field string }
		json.Unmarshal(body, &e)
		return e.Field
	}
	wantClosed := func(t *testing.T, c *client) {
		t.Helper()
		c.conn.SetReadDeadline(time.Now().Add(20 * time.Second))
		var b [1]byte
		// A read that times out found the session open too: only an end of stream or a
		// reset says it closed.
		if n, err := c.conn.Read(b[:]); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("the session is still open (read %d bytes, %v)", n, err)
		}
	}

	t.Run("bad header", func(t *testing.T) {
		c := dial(t, f.Addr())
		c.conn.Write([]byte("GET / HTTP/1.1\r\n\r\n"))
		wantErr(t, c, "not a fast path message")
		wantClosed(t, c)
	})
	t.Run("open with more after its JSON", func(t *testing.T) {
		c := dial(t, f.Addr())
		c.send(msgOpen, []byte(`{"protocol": 2, "envs": 1}xyz`))
		wantErr(t, c, "the request has more after its JSON object")
		wantClosed(t, c)
	})
	t.Run("huge length", func(t *testing.T) {
		c := dial(t, f.Addr())
		h := header(msgOpen, 0)
		binary.LittleEndian.PutUint32(h[4:], math.MaxUint32)
		c.conn.Write(h[:])
		wantErr(t, c, "over its limit")
		wantClosed(t, c)
	})
	t.Run("step before open", func(t *testing.T) {
		c := dial(t, f.Addr())
		c.send(msgStep, stepMessage([]byte{kindStep}, make([][3]float64, 1), make([]int64, 1)))
		wantErr(t, c, "not a request expected now")
		wantClosed(t, c)
	})
	for _, tc := range []struct {
		name, want string
		req        OpenRequest
		raw        string
		field      string // the request field the error names, if any
	}{
		{name: "protocol", want: "protocol 9", raw: `{"protocol": 9, "envs": 1}`},
		{name: "unknown field", want: "unknown field", raw: `{"protocol": 1, "envs": 1, "path": "/etc/passwd"}`},
		{name: "no envs", want: "outside 1..64", req: OpenRequest{Envs: 0}, field: "envs"},
		{name: "too many envs", want: "outside 1..64", req: OpenRequest{Envs: 65}, field: "envs"},
		{name: "frame too small", want: "16..1024", req: OpenRequest{Envs: 1, FrameWidth: 8, FrameHeight: 8}, field: "frameWidth"},
		{name: "frame too big", want: "16..1024", req: OpenRequest{Envs: 1, FrameWidth: 84, FrameHeight: 5000}, field: "frameHeight"},
		{name: "one side the camera's", want: "frame 84×0: give both sides, or 0×0 for the camera's size", req: OpenRequest{Envs: 1, FrameWidth: 84}, field: "frameHeight"},
		{name: "faces", want: "faces block", req: OpenRequest{Envs: 1, Scenario: "world: {trackId: track.cardboard_corridor.v1, params: {length: 2, width: 0.6}}\nvehicle: {vehicleId: vehicle.ks0223.v1}\nfaces: {api: false}\n"}, field: "scenario"},
		{name: "bad yaml", want: "open:", req: OpenRequest{Envs: 1, Scenario: "world: [\n"}, field: "scenario"},
		{name: "big scenario", want: "limit", req: OpenRequest{Envs: 1, Scenario: strings.Repeat("#", MaxScenarioBytes+1)}, field: "scenario"},
		{name: "label", want: "printable", req: OpenRequest{Envs: 1, Label: "a\x1b[2Jb"}},
		{name: "action period", want: "actionPeriod 1e+308 s is outside 0..10", raw: `{"protocol": 1, "envs": 1, "actionPeriod": 1e308}`, field: "actionPeriod"},
		{name: "negative action period", want: "actionPeriod", req: OpenRequest{Envs: 1, ActionPeriod: -0.1}, field: "actionPeriod"},
		{name: "action period between steps", want: "open: actionPeriod 0.0123 s is not a whole number of 0.005 s physics steps", req: OpenRequest{Envs: 1, ActionPeriod: 0.0123}, field: "actionPeriod"},
		{name: "randomization", want: "randomization", req: OpenRequest{Envs: 1, Randomization: map[string]string{"vehicle.wings": "1"}}, field: "randomization"},
		{name: "sensor", want: "no sensor \"lidar.top\" (it has camera.front.rgb, ", req: OpenRequest{Envs: 1, Sensors: []string{"lidar.top"}}},
		{name: "vehicle param", want: "camera.width", req: OpenRequest{Envs: 1, VehicleParams: map[string]any{"camera.width": "84.5"}}},
		{name: "a profile past the frame sides", want: "the camera's frame is 1600×900", req: OpenRequest{Envs: 1, VehicleParams: map[string]any{"camera.profile": "ultra"}}, field: "frameWidth"},
		{name: "a long key", want: "randomization: a key of 10000 bytes (at most 256)", req: OpenRequest{Envs: 1, Randomization: map[string]string{strings.Repeat("k", 10000): "1"}}, field: "randomization"},
		{name: "300 track params", want: "trackParams has 300 entries; at most 256", req: OpenRequest{Envs: 1, TrackParams: manyKeys(300)}, field: "trackParams"},
	} {
		t.Run("open/"+tc.name, func(t *testing.T) {
			c := dial(t, f.Addr())
			raw := []byte(tc.raw)
			if tc.raw == "" {
				tc.req.Protocol = ProtocolVersion
				raw, _ = json.Marshal(tc.req)
			}
			c.send(msgOpen, raw)
			if field := wantErr(t, c, tc.want); field != tc.field {
				t.Errorf("the error names field %q, want %q", field, tc.field)
			}
			wantClosed(t, c)
		})
	}

	t.Run("bad steps leave the session as it was", func(t *testing.T) {
		c := dial(t, f.Addr())
		c.open(OpenRequest{Envs: 2, FrameWidth: 16, FrameHeight: 16})
		if _, err := c.step([]byte{kindStep, kindStep}, make([][3]float64, 2), make([]int64, 2)); err == nil || !strings.Contains(err.Error(), "not been reset") {
			t.Fatalf("a step before a reset: %v", err)
		}
		c.resetAll(3)
		x := c.state(0, "x")
		if _, err := c.step([]byte{kindStep, kindStep}, [][3]float64{{math.NaN(), 0}, {1, 0}}, make([]int64, 2)); err == nil || !strings.Contains(err.Error(), "not finite") {
			t.Fatalf("a NaN action: %v", err)
		}
		if _, err := c.step([]byte{kindStep, 7}, make([][3]float64, 2), make([]int64, 2)); err == nil || !strings.Contains(err.Error(), "kind 7") {
			t.Fatalf("kind 7: %v", err)
		}
		if c.state(0, "x") != x || c.state(1, "actions") != 0 {
			t.Fatal("a refused step moved an env")
		}
		c.stepAll([3]float64{0.5, 0}) // still serving
		// A step message for another number of envs is malformed: the session ends.
		c.send(msgStep, stepMessage([]byte{kindStep}, make([][3]float64, 1), make([]int64, 1)))
		wantErr(t, c, "want 64 for 2 envs")
		wantClosed(t, c)
	})

	t.Run("sessions at once and memory", func(t *testing.T) {
		g := &Face{Socket: filepath.Join(shortTempDir(t), "s.sock"), MaxSessions: 1, MaxMemoryMB: 1}
		testHost(t, scenario.Default(), g)
		m := dial(t, g.Addr())
		if err := m.tryOpen(OpenRequest{Envs: 8, FrameWidth: 320, FrameHeight: 240}); err == nil || !strings.Contains(err.Error(), "shared memory") {
			t.Fatalf("8 envs of 320×240 with 1 MiB: %v", err)
		}
		wantClosed(t, m)
		a := dial(t, g.Addr())
		a.open(OpenRequest{Envs: 1, FrameWidth: 16, FrameHeight: 16})
		b := dial(t, g.Addr())
		// The refusal says how to serve more: the face's setting, where it is set.
		if err := b.tryOpen(OpenRequest{Envs: 1, FrameWidth: 16, FrameHeight: 16}); err == nil || !strings.Contains(err.Error(), "1 sessions are open") ||
			!strings.Contains(err.Error(), "faces: {fastpath: {maxSessions: N}}") {
			t.Fatalf("a second session with maxSessions 1: %v", err)
		}
		wantClosed(t, b)
	})

	// Connections that have sent nothing yet do not take session slots (four silent ones
	// locked every client out for messageTimeout): they are bounded on their own, and past the
	// bound the one waiting longest is closed, told why, to make room for the newcomer (a
	// refused newcomer let silent connections, renewed as they timed out, lock clients out).
	t.Run("silent connections", func(t *testing.T) {
		g := &Face{Socket: filepath.Join(shortTempDir(t), "s.sock"), MaxSessions: 1}
		testHost(t, scenario.Default(), g)
		var silent []*client
		for range 4 {
			silent = append(silent, dial(t, g.Addr()))
			// In order: the next is newer than this one once the face has it.
			pollFor(t, "the connection counted", func() bool { return g.waiting() == len(silent) })
		}
		a := dial(t, g.Addr())
		wantErr(t, silent[0], "closed to make room: 4 connections were waiting to open a session")
		wantClosed(t, silent[0])
		a.open(OpenRequest{Envs: 1, FrameWidth: 16, FrameHeight: 16})
		a.resetAll(1)
		runtime.KeepAlive(silent) // held open until now
	})

	// A newcomer that finds every slot taken closes the session without requests longest if
	// that is yieldAfter or more (a notebook's env never closed locked everyone out); one used
	// more recently keeps its slot, and the refusal says when a slot frees.
	t.Run("idle sessions give way", func(t *testing.T) {
		g := &Face{Socket: filepath.Join(shortTempDir(t), "s.sock"), MaxSessions: 2}
		h := testHost(t, scenario.Default(), g)
		small := OpenRequest{Envs: 1, FrameWidth: 16, FrameHeight: 16}
		left, used := dial(t, g.Addr()), dial(t, g.Addr())
		left.open(small)
		left.resetAll(1)
		used.open(small)
		used.resetAll(1)
		b := dial(t, g.Addr())
		if err := b.tryOpen(small); err == nil || !strings.Contains(err.Error(), "a session 5m0s without requests gives its slot up (yieldAfter)") {
			t.Fatalf("a third session, both slots used just now: %v", err)
		}
		wantClosed(t, b)
		// left's last request was 6 minutes ago, used's 4 (once both are done answering).
		pollFor(t, "both sessions answered", func() bool {
			g.mu.Lock()
			defer g.mu.Unlock()
			for s := range g.open {
				if s.state.Load() == answering {
					return false
				}
			}
			return true
		})
		g.mu.Lock()
		for s := range g.open {
			ago := map[string]time.Duration{"train-1": 6 * time.Minute, "train-2": 4 * time.Minute}[s.id]
			s.lastUse.Store(time.Now().Add(-ago).UnixNano())
		}
		g.mu.Unlock()
		c := dial(t, g.Addr())
		c.open(small)
		wantErr(t, left, "closed to make room: this session had no request for 6m0s and another client found all 2 session slots taken")
		wantClosed(t, left)
		c.resetAll(2)
		c.stepAll([3]float64{0.5, 0})
		used.stepAll([3]float64{0.5, 0})
		pollFor(t, "the closed session's worlds gone", func() bool {
			for _, w := range h.Worlds() {
				if strings.HasPrefix(w.ID, "train-1/") {
					return false
				}
			}
			return true
		})
		// used, 4 minutes idle, keeps its slot: a fourth is refused.
		if err := dial(t, g.Addr()).tryOpen(small); err == nil || !strings.Contains(err.Error(), "2 sessions are open") {
			t.Fatalf("a fourth session: %v", err)
		}
	})

	// A session whose slot reserve gave up as its next request came in (read between reserve's
	// scan and its closing the session) answers that request with why, and nothing else:
	// reserve wrote the reason from the newcomer's goroutine while the session, unaware,
	// stepped its worlds and wrote its reply too.
	t.Run("a request that meets its session's yielding", func(t *testing.T) {
		g := &Face{Socket: filepath.Join(shortTempDir(t), "s.sock"), MaxSessions: 1}
		h := testHost(t, scenario.Default(), g)
		left := dial(t, g.Addr())
		left.open(OpenRequest{Envs: 1, FrameWidth: 16, FrameHeight: 16})
		left.resetAll(1)
		var s *session
		pollFor(t, "the session answered", func() bool {
			g.mu.Lock()
			defer g.mu.Unlock()
			for o := range g.open {
				s = o
			}
			return s != nil && s.state.Load() == idle
		})
		// What reserve does under the lock, its reading not stopped yet.
		g.mu.Lock()
		s.yieldErr = errors.New("closed to make room: test")
		if !s.state.CompareAndSwap(idle, yielded) {
			t.Fatal("the session is not idle")
		}
		delete(g.open, s)
		g.mu.Unlock()
		_, err := left.step([]byte{kindStep}, [][3]float64{{0.5, 0}}, []int64{0})
		if err == nil || err.Error() != "closed to make room: test" {
			t.Fatalf("the request after the session yielded: %v, want why it closed", err)
		}
		wantClosed(t, left)
		pollFor(t, "the session's worlds gone", func() bool {
			for _, w := range h.Worlds() {
				if strings.HasPrefix(w.ID, "train-") {
					return false
				}
			}
			return true
		})
	})

	// A client that stops half-way through a request (or before its open request) is cut
	// off after messageTimeout, freeing its slot; one idle between requests is not.
	t.Run("stalled clients", func(t *testing.T) {
		g := &Face{Socket: filepath.Join(shortTempDir(t), "s.sock"), MaxSessions: 3, MessageTimeout: 300 * time.Millisecond}
		testHost(t, scenario.Default(), g)
		small := OpenRequest{Envs: 1, FrameWidth: 16, FrameHeight: 16}
		idle := dial(t, g.Addr())
		idle.open(small)
		idle.resetAll(1)
		half := dial(t, g.Addr())
		half.open(small)
		h := header(msgStep, stepPayloadLen(1, 2))
		half.conn.Write(append(h[:], kindStep, 0, 0, 0)) // 4 of its 40 payload bytes
		silent := dial(t, g.Addr())                      // never sends its open request
		wantClosed(t, silent)
		wantClosed(t, half)
		// idle had waited longer than messageTimeout when silent was cut off.
		idle.stepAll([3]float64{0.5, 0})
		late := dial(t, g.Addr())
		late.open(small)
		late.resetAll(2)
		late.stepAll([3]float64{0.5, 0})
	})
}

// The socket: a stale file from a dead process is replaced, anything else is refused, and
// the file goes at shutdown.
func TestSocketFile(t *testing.T) {
	dir := shortTempDir(t)
	path := filepath.Join(dir, "plain")
	os.WriteFile(path, []byte("x"), 0o600)
	if err := removeStale(path); err == nil || !strings.Contains(err.Error(), "not a socket") {
		t.Fatalf("a plain file: %v", err)
	}
	f := &Face{Socket: filepath.Join(dir, "fp.sock")}
	h := testHost(t, scenario.Default(), f)
	if err := removeStale(f.Addr()); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Fatalf("a live socket: %v", err)
	}
	g := &Face{Socket: f.Socket}
	if err := g.Start(t.Context(), h); err == nil {
		g.Shutdown(t.Context())
		t.Fatal("a second face started on a live socket")
	}
	if err := (&Face{Socket: strings.Repeat("s", 200)}).Validate(); err == nil {
		t.Fatal("a 200-byte socket path validated")
	}
	// A timeout under a millisecond made the watcher's ticker panic at start.
	if err := (&Face{IdleTimeout: time.Nanosecond}).Validate(); err == nil || !strings.Contains(err.Error(), "idleTimeout 1ns is outside 1ms..1h") {
		t.Errorf("idleTimeout 1ns: %v", err)
	}
	if err := (&Face{MessageTimeout: time.Nanosecond}).Validate(); err == nil {
		t.Error("messageTimeout 1ns accepted")
	}
	if err := (&Face{MaxEnvs: 5000}).Validate(); err == nil {
		t.Fatal("maxEnvs 5000 validated")
	}
	if err := (&Face{}).Start(t.Context(), h); !errors.Is(err, errNoSocket) {
		t.Fatalf("no socket: %v", err)
	}
	if err := f.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(f.Addr()); !os.IsNotExist(err) {
		t.Fatalf("the socket file is still there after shutdown: %v", err)
	}
}

// Shutdown ends sessions that wait for their client's next request (a read in blocking
// mode, which closing the socket alone does not end): one that opened envs and one that never
// sent a byte. Both clients see the connection end and the envs' worlds go.
func TestShutdownEndsWaitingSessions(t *testing.T) {
	dir := shortTempDir(t)
	f := &Face{Socket: filepath.Join(dir, "fp.sock"), IdleTimeout: time.Minute}
	h := testHost(t, scenario.Default(), f)
	open := dial(t, f.Addr())
	open.open(OpenRequest{Envs: 2, FrameWidth: 16, FrameHeight: 16})
	open.resetAll(1)
	quiet := dial(t, f.Addr())
	waitFor(t, h, "the envs' worlds", func() bool { return h.World(open.rep.Worlds[1]) != nil })
	// The quiet connection is a session once accepted (before that, shutdown resets it).
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(time.Millisecond) {
		f.mu.Lock()
		n := len(f.open)
		f.mu.Unlock()
		if n == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d sessions open, want 2", n)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	if err := f.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown with two waiting sessions: %v", err)
	}
	for name, c := range map[string]*client{"open": open, "quiet": quiet} {
		c.conn.SetReadDeadline(time.Now().Add(20 * time.Second))
		if _, _, _, err := c.recv(); !errors.Is(err, io.EOF) {
			t.Errorf("%s session after shutdown: %v, want EOF", name, err)
		}
	}
	for _, id := range open.rep.Worlds {
		if h.World(id) != nil {
			t.Errorf("world %s is still there after shutdown", id)
		}
	}
}

// manyKeys returns a map of n distinct keys.
func manyKeys(n int) map[string]any {
	m := map[string]any{}
	for i := range n {
		m[fmt.Sprint("k", i)] = 1
	}
	return m
}
