package bridge

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/go-zeromq/zmq4/security/null"
)

var (
	quiet = slog.New(slog.DiscardHandler)
	zlog  = log.New(io.Discard, "", 0)
)

func testConfig() socketConfig {
	return socketConfig{queueLen: 8, handshakeTimeout: 2 * time.Second, writeTimeout: 2 * time.Second,
		maxMessage: DefaultMaxMessage, maxPeers: DefaultMaxPeers, log: quiet}
}

// bindTest binds a socket on a free loopback port (port 0: the kernel picks).
func bindTest(t *testing.T, kind socketKind, key string, cfg socketConfig, h handlers) *socket {
	t.Helper()
	s, err := bindSocket(kind, "127.0.0.1", 0, key, cfg, h)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func endpoint(port uint16) string { return "tcp://127.0.0.1:" + strconv.Itoa(int(port)) }

// dialSub connects a zmq4 SUB client subscribed to topic.
func dialSub(t *testing.T, port uint16, topic []byte) zmq4.Socket {
	t.Helper()
	sub := zmq4.NewSub(context.Background(), zmq4.WithLogger(zlog))
	t.Cleanup(func() { sub.Close() })
	if err := sub.Dial(endpoint(port)); err != nil {
		t.Fatal(err)
	}
	if err := sub.SetOption(zmq4.OptionSubscribe, string(topic)); err != nil {
		t.Fatal(err)
	}
	return sub
}

// waitFor polls cond until it holds, failing the test if it still does not after 30 s: a
// guard against a hang, long enough for a loaded machine under the race detector.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// subCount is how many times the peers of s subscribe to topic, as their subscription readers
// have counted so far.
func subCount(s *socket, topic []byte) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for p := range s.peers {
		n += p.subs[string(topic)]
	}
	return n
}

// recvTimeout receives one message from a zmq4 socket or fails the test after d.
func recvTimeout(t *testing.T, s zmq4.Socket, d time.Duration) zmq4.Msg {
	t.Helper()
	type res struct {
		m   zmq4.Msg
		err error
	}
	ch := make(chan res, 1)
	go func() {
		m, err := s.Recv()
		ch <- res{m, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			t.Fatalf("recv: %v", r.err)
		}
		return r.m
	case <-time.After(d):
		t.Fatalf("no message within %v", d)
	}
	return zmq4.Msg{}
}

// rawPeer is a ZMTP connection made with zmq4.Open on a plain TCP connection, for tests that
// need frame-level control (envelopes, wrong tags) or a client that stops reading.
type rawPeer struct {
	raw net.Conn
	zc  *zmq4.Conn
}

func dialRaw(t *testing.T, port uint16, typ zmq4.SocketType) *rawPeer {
	t.Helper()
	c, err := net.Dial("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(int(port))))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(5 * time.Second))
	zc, err := zmq4.Open(c, null.Security(), typ, zmq4.SocketIdentity("test"), false, nil)
	if err != nil {
		t.Fatalf("handshake as %s: %v", typ, err)
	}
	c.SetDeadline(time.Time{})
	return &rawPeer{raw: c, zc: zc}
}

func (p *rawPeer) recv(t *testing.T) zmq4.Msg {
	t.Helper()
	p.raw.SetReadDeadline(time.Now().Add(5 * time.Second))
	m, err := p.zc.RecvMsg()
	if err != nil {
		t.Fatalf("recv: %v", err)
	}
	return m
}

func tagged(key string, payload []byte) []byte {
	tag := TagBytes(key)
	return append(tag[:], payload...)
}

func hasTag(f []byte, key string) bool {
	tag := TagBytes(key)
	return len(f) >= 8 && bytes.Equal(f[:8], tag[:])
}

func fmtFrames(m zmq4.Msg) string {
	var b bytes.Buffer
	for i, f := range m.Frames {
		fmt.Fprintf(&b, "[%d] % x\n", i, f)
	}
	return b.String()
}
