package bridge

import (
	"io"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"
)

// knownPanics are panics of zmq4 v0.17.0 that serve contains (recovers and logs), both in
// the handshake, from one READY command: its metadata parser (Property.Write, protocol.go)
// slices past the end of a body whose property lengths run over it, and SocketType.IsCompatible
// (socket_types.go) panics on a Socket-Type it does not know.
var knownPanics = []string{"zmq4.(*Property).Write", "zmq4.SocketType.IsCompatible"}

// FuzzFrameReader feeds a peer's byte stream to a real socket connection (handshake, then the
// role's loop) of each kind, under a 256-byte limit. Whatever the bytes, the connection ends
// without a panic escaping or an unknown one logged, and no handler sees a message over the
// limit.
func FuzzFrameReader(f *testing.F) {
	const key = "fuzzData"
	g := zmtpGreeting()
	tag := TagBytes(key)
	f.Add(byte(kindSub), concat(g, zmtpReady("PUB"), zmtpFrame(0, append(tag[:], 1, 2, 3))))
	f.Add(byte(kindRep), concat(g, zmtpReady("REQ"), zmtpFrame(flagMore, nil), zmtpFrame(0, append(tag[:], "request"...))))
	f.Add(byte(kindPub), concat(g, zmtpReady("SUB"), zmtpFrame(0, append([]byte{1}, tag[:3]...)), zmtpFrame(0, []byte{0})))
	f.Add(byte(kindSub), concat(g, zmtpHeader(flagCommand|flagLong, 1<<62)))
	f.Add(byte(kindRep), concat(g, zmtpReady("REQ"), zmtpHeader(flagLong, 1<<40)))
	f.Add(byte(kindPub), concat(g, zmtpFrame(flagCommand, []byte("\x05READY\x01"))))
	f.Add(byte(kindSub), concat(g, zmtpReady("PUB"), zmtpFrame(flagCommand, []byte("\x04PING\x00\x01"))))
	f.Fuzz(func(t *testing.T, k byte, stream []byte) {
		const max = 256
		rec := &logRecorder{}
		check := func(p []byte) {
			if len(p)+len(tag) > max {
				t.Errorf("a handler got %d payload bytes; the limit is %d with the tag", len(p), max)
			}
		}
		s := &socket{
			kind: socketKind(k % 3), hashKey: key, tag: tag,
			cfg: socketConfig{queueLen: 2, handshakeTimeout: 2 * time.Second, writeTimeout: 2 * time.Second,
				maxMessage: max, maxPeers: 1, log: slog.New(rec)},
			conns: map[net.Conn]*activity{}, peers: map[*peer]struct{}{}, demand: make(chan struct{}, 1),
		}
		s.h.Store(&handlers{onMessage: check, onRequest: func(p []byte) []byte { check(p); return p }})
		server, client := net.Pipe()
		go io.Copy(io.Discard, client) // what the server sends
		go func() {
			client.Write(stream)
			client.Close()
		}()
		a := &activity{}
		s.conns[server] = a
		s.wg.Add(1)
		s.serve(server, a)
		s.wg.Wait()
		if l, ok := rec.find("panic"); ok && !containsAny(l, knownPanics) {
			t.Fatalf("serve recovered an unknown panic: %s", l)
		}
	})
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
