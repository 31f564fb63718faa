package control

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"simgui/app/lograte"
	"simgui/app/transport"
	"simgui/app/world"
)

func TestShutdownClosesSessions(t *testing.T) {
	e := start(t, Options{})
	c := e.dial(t, "/control", nil)
	askJSON(t, c, `{"command":"fps"}`)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := e.svc.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, _, err := c.ReadMessage(); !websocket.IsCloseError(err, websocket.CloseGoingAway) {
		t.Fatalf("after shutdown the client read %v, want close 1001", err)
	}
	if _, _, err := websocket.DefaultDialer.Dial("ws://"+e.addr+"/control", nil); err == nil {
		t.Fatal("dial after shutdown succeeded")
	}
}

// TestFlood has many sessions send commands as fast as they can while another steps the
// world: every request gets its own answer, in order, and the stepping client's steps all run.
func TestFlood(t *testing.T) {
	e := start(t, Options{})
	const clients, each = 12, 60
	var wg sync.WaitGroup
	errs := make(chan string, clients)
	for i := range clients {
		c := e.dial(t, "/control", nil)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range each {
				req := floodCommands[(i+j)%len(floodCommands)]
				if err := c.WriteMessage(websocket.TextMessage, req); err != nil {
					errs <- err.Error()
					return
				}
				_, b, err := c.ReadMessage()
				if err != nil {
					errs <- err.Error()
					return
				}
				var r response
				if json.Unmarshal(b, &r) != nil || r.SimVersion != "5.4.2" {
					errs <- "bad answer " + string(b)
					return
				}
				if want := wantCommand(req); r.Command != want {
					errs <- "answer for " + r.Command + " to a " + want + " request"
					return
				}
			}
		}()
	}
	stepper := e.dial(t, "/control", nil)
	for range 50 {
		askJSON(t, stepper, `{"command":"step","steps":4}`)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if s := e.loop.Snapshot().Step; s != 200 {
		t.Fatalf("world at step %d after 50 × 4 steps", s)
	}
}

func wantCommand(req []byte) string {
	var r request
	if json.Unmarshal(fixQuotes(req), &r) != nil {
		return ""
	}
	return r.Command
}

// TestMaxSessions: with MaxSessions open, a new session closes the one idle the longest
// (with a close frame saying why), so idle sessions never lock a client out; only when every
// session is answering a request is a new one refused.
func TestMaxSessions(t *testing.T) {
	e := start(t, Options{MaxSessions: 2})
	// A dial returns when the client has the handshake's answer, maybe before the service has
	// the session: each is waited for, so that a is open before b is used.
	a := e.dial(t, "/control", nil)
	e.waitIdle(t, 1)
	b := e.dial(t, "/markers", nil)
	askJSON(t, b, `{"command":"list"}`) // b has been used since a opened: a is idle the longest
	e.waitIdle(t, 2)
	c := e.dial(t, "/control", nil)
	if r := askJSON(t, c, `{"command":"fps"}`); r["command"] != "fps" {
		t.Fatalf("answer %v", r)
	}
	a.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, _, err := a.ReadMessage()
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.CloseTryAgainLater || !strings.Contains(ce.Text, "at most 2 are open") {
		t.Fatalf("the oldest idle session got %v, want a 1013 close frame", err)
	}
	if r := askJSON(t, b, `{"command":"list"}`); r["result"] != "ok" {
		t.Fatalf("the other session: %v", r)
	}

	// 64 idle sessions (the default limit) lock nobody out.
	e64 := start(t, Options{})
	for range DefaultMaxSessions + 10 {
		e64.dial(t, "/control", nil)
	}
	if r := askJSON(t, e64.dial(t, "/control", nil), `{"command":"fps"}`); r["command"] != "fps" {
		t.Fatalf("answer %v", r)
	}
	e64.svc.mu.Lock()
	open := len(e64.svc.sessions)
	e64.svc.mu.Unlock()
	if open > DefaultMaxSessions {
		t.Errorf("%d sessions open, limit %d", open, DefaultMaxSessions)
	}

	// Busy sessions are not closed: with a loop that never runs, step waits, and with both
	// sessions waiting the third is refused.
	bus := transport.NewBus(transport.Options{Logger: slog.New(slog.DiscardHandler)})
	defer bus.Close()
	w, err := newSmallWorld(bus)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := New(Options{Addr: "127.0.0.1:0", MaxSessions: 2, World: Fixed(world.NewLoop(w, world.LoopOptions{}), bus), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	go svc.Serve(context.Background())
	defer svc.Shutdown(context.Background())
	url := "ws://" + svc.Addr().String() + "/control"
	for range 2 {
		c, _, err := websocket.DefaultDialer.Dial(url, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.WriteMessage(websocket.TextMessage, []byte(`{"command":"step"}`))
	}
	deadline := time.Now().Add(10 * time.Second)
	for busy := 0; busy < 2; {
		svc.mu.Lock()
		busy = 0
		for _, st := range svc.sessions {
			if st.busy {
				busy++
			}
		}
		svc.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatal("the sessions never got busy")
		}
		time.Sleep(5 * time.Millisecond)
	}
	_, resp, err := websocket.DefaultDialer.Dial(url, nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("third session while both are busy: %v %v", err, resp)
	}
}

// A client that comes with plain HTTP is told the endpoint is a WebSocket one, not only
// "Bad Request".
func TestPlainHTTPIsToldWhatTheEndpointIs(t *testing.T) {
	e := start(t, Options{})
	resp, err := http.Post("http://"+e.addr+"/control", "application/json", strings.NewReader(`{"command":"fps"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), "/control is a WebSocket endpoint: connect with a WebSocket client") {
		t.Errorf("POST /control: %d %q", resp.StatusCode, b)
	}
}

// A client that connects again and again, each session closing the one idle the longest, is
// logged a few lines at a time, as refusals are: a line per connection once filled the log
// at 400 KB a second.
func TestMakingRoomIsLoggedSparingly(t *testing.T) {
	var log lockedBuffer
	e := start(t, Options{MaxSessions: 1, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	e.svc.evictLog.Every = time.Hour // no line comes back during the test
	const sessions = 100
	for range sessions {
		// Each session is open and idle before the next comes, which closes it to make room.
		e.dial(t, "/control", nil)
		e.waitIdle(t, 1)
	}
	if n := strings.Count(log.String(), "closed the session idle the longest"); n != lograte.DefaultBurst {
		t.Errorf("%d sessions, each closing the one before, logged %d lines, want %d (lograte's burst)", sessions, n, lograte.DefaultBurst)
	}
}

// lockedBuffer is a log's output, written by the service's goroutines and read by the test.
type lockedBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// A reset whose client hangs up while it waits for the loop is dropped without an error in
// the log: the client left, nothing failed.
func TestResetOfAClientThatLeftIsNoError(t *testing.T) {
	var log lockedBuffer
	e := start(t, Options{Logger: slog.New(slog.NewTextHandler(&log, nil))})
	release := busyLoop(t, e.loop)
	c := e.dial(t, "/control", nil)
	if err := c.WriteMessage(websocket.TextMessage, []byte(`{"command":"reset"}`)); err != nil {
		t.Fatal(err)
	}
	// The reset holds a place among the commands waiting on the loop.
	for waiting := 0; waiting == 0; {
		time.Sleep(time.Millisecond)
		waiting = len(e.svc.slots)
	}
	c.Close()
	// The session ends once its reset has returned.
	for open := 1; open > 0; {
		time.Sleep(time.Millisecond)
		e.svc.mu.Lock()
		open = len(e.svc.sessions)
		e.svc.mu.Unlock()
	}
	release()
	if strings.Contains(log.String(), "level=ERROR") {
		t.Errorf("a reset whose client left logged an error:\n%s", log.String())
	}
}
