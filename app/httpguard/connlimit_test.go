package httpguard

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"
)

// A server under ConnLimit holds at most Max connections: a newcomer closes the keep-alive
// idle the longest, and with none idle (requests being answered) is closed itself; answered
// requests go on being answered.
func TestConnLimit(t *testing.T) {
	l := &ConnLimit{Max: 4}
	blocked, release := make(chan struct{}, 4), make(chan struct{})
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/block" {
			blocked <- struct{}{}
			<-release
		}
		fmt.Fprint(w, "ok")
	}))
	srv.Config.ConnState = l.Track
	srv.Start()
	defer srv.Close()
	defer close(release) // before Close, which waits for the blocked requests
	addr := srv.Listener.Addr().String()

	get := func(c net.Conn) error {
		c.SetDeadline(time.Now().Add(30 * time.Second))
		if _, err := fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"); err != nil {
			return err
		}
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err == nil {
			resp.Body.Close()
		}
		return err
	}
	waitOpen := func(n int) {
		for deadline := time.Now().Add(30 * time.Second); l.Open() != n; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%d connections counted open, want %d", l.Open(), n)
			}
		}
	}
	idleCount := func() int {
		l.mu.Lock()
		defer l.mu.Unlock()
		n := 0
		for _, s := range l.open {
			if s.idle {
				n++
			}
		}
		return n
	}
	// Four keep-alive connections, each idle after a request, one after the other (the
	// server marks a connection idle after its reply has gone).
	var idle []net.Conn
	for i := range 4 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if err := get(c); err != nil {
			t.Fatal(err)
		}
		idle = append(idle, c)
		for deadline := time.Now().Add(30 * time.Second); idleCount() != i+1; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%d connections idle, want %d", idleCount(), i+1)
			}
		}
	}
	waitOpen(4)
	// A fifth is answered: the oldest idle one made room.
	c5, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c5.Close()
	if err := get(c5); err != nil {
		t.Fatalf("the fifth connection: %v", err)
	}
	if l.Evicted.Load() != 1 || l.Open() > 4 {
		t.Fatalf("evicted %d, open %d", l.Evicted.Load(), l.Open())
	}
	if err := get(idle[0]); err == nil {
		t.Error("the oldest idle connection still answers")
	}
	// Four connections whose requests are being answered: a newcomer is closed itself.
	for _, c := range append(idle, c5) {
		c.Close()
	}
	waitOpen(0)
	for range 4 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "GET /block HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	}
	for range 4 {
		<-blocked
	}
	c6, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c6.Close()
	if err := get(c6); err == nil || l.Refused.Load() != 1 {
		t.Errorf("a connection beyond four busy ones: %v, refused %d, evicted %d, open %d", err, l.Refused.Load(), l.Evicted.Load(), l.Open())
	}
}

// Connections that have not sent a byte count as idle: a newcomer closes the oldest of them
// and is answered.
func TestConnLimitClosesSilentConnections(t *testing.T) {
	l := &ConnLimit{Max: 4}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "ok") }))
	srv.Config.ConnState = l.Track
	srv.Start()
	defer srv.Close()
	for range 4 {
		c, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	for deadline := time.Now().Add(30 * time.Second); l.Open() != 4; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d connections counted open, want 4", l.Open())
		}
	}
	resp, err := srv.Client().Get(srv.URL)
	if err != nil {
		t.Fatalf("a client after four silent connections: %v", err)
	}
	resp.Body.Close()
	if l.Evicted.Load() != 1 || l.Refused.Load() != 0 {
		t.Errorf("evicted %d, refused %d", l.Evicted.Load(), l.Refused.Load())
	}
}

// A connection whose request body stalls makes room for a newcomer once it has given no
// bytes for a second; a request being answered (its body read) does not.
func TestConnLimitClosesStalledBodies(t *testing.T) {
	l := &ConnLimit{Max: 3}
	release := make(chan struct{})
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, done := l.Body(r)
		_, err := io.ReadAll(body)
		done()
		if err != nil {
			return
		}
		if r.URL.Path == "/block" {
			<-release
		}
		fmt.Fprint(w, "ok")
	}))
	srv.Config.ConnState, srv.Config.ConnContext = l.Track, l.ConnContext
	srv.Start()
	defer srv.Close()
	defer close(release)
	addr := srv.Listener.Addr().String()
	// The clients' ends close first: the server's Close waits for the stalled bodies.
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	dial := func() net.Conn {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		c.SetDeadline(time.Now().Add(60 * time.Second))
		return c
	}
	reading := func() (n int) {
		l.mu.Lock()
		defer l.mu.Unlock()
		for _, s := range l.open {
			if s.body {
				n++
			}
		}
		return n
	}
	// One request being answered, its body read, and two bodies that stop after a byte.
	busy := dial()
	fmt.Fprintf(busy, "POST /block HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\nok")
	for range 2 {
		fmt.Fprintf(dial(), "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\nx")
	}
	for deadline := time.Now().Add(30 * time.Second); l.Open() != 3 || reading() != 2; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d open, %d reading bodies; want 3 and 2", l.Open(), reading())
		}
	}
	// A newcomer is refused until a body has stalled a second, then answered.
	var got string
	for deadline := time.Now().Add(30 * time.Second); got != "ok"; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no answer for a newcomer: %d open, %d evicted, %d refused", l.Open(), l.Evicted.Load(), l.Refused.Load())
		}
		c := dial()
		fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
		if resp, err := http.ReadResponse(bufio.NewReader(c), nil); err == nil {
			b, _ := io.ReadAll(resp.Body)
			got = string(b)
		}
		c.Close()
	}
	if l.Evicted.Load() == 0 {
		t.Error("answered without a stalled body closed")
	}
	// The request being answered is still there: its connection was not taken.
	busy.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	if _, err := busy.Read(make([]byte, 1)); err == nil || !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("the connection being answered: %v, want it open and waiting", err)
	}
}
