package bridge

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

// TestPubFiltersByTag: a subscriber to the port's tag gets every frame, one subscribed to
// another tag gets nothing, and the demand signal follows subscriptions and disconnects.
func TestPubFiltersByTag(t *testing.T) {
	const key = "cloi0lidarData"
	s := bindTest(t, kindPub, key, testConfig(), handlers{})
	if s.Subscribed() {
		t.Fatal("subscribed before anyone connected")
	}
	tag := TagBytes(key)
	good := dialSub(t, s.Port(), tag[:])
	other := TagBytes("cloi0lidarInfo")
	bad := dialSub(t, s.Port(), other[:])
	waitFor(t, "the subscription", s.Subscribed)
	select {
	case <-s.Demand():
	default:
		t.Error("no demand signal after the subscription")
	}

	for i := range 5 {
		s.Publish(append(s.Frame(1), byte(i)))
	}
	for i := range 5 {
		m := recvTimeout(t, good, 2*time.Second)
		if len(m.Frames) != 1 || !bytes.Equal(m.Frames[0], append(tag[:], byte(i))) {
			t.Fatalf("message %d: %s", i, fmtFrames(m))
		}
	}
	badGot := make(chan zmq4.Msg, 1)
	go func() {
		if m, err := bad.Recv(); err == nil {
			badGot <- m
		}
	}()
	select {
	case m := <-badGot:
		t.Fatalf("subscriber to another tag received %s", fmtFrames(m))
	case <-time.After(200 * time.Millisecond):
	}

	good.Close()
	waitFor(t, "the subscriber's departure", func() bool { return !s.Subscribed() })
	if s.sent.Load() != 5 {
		t.Errorf("sent %d, want 5", s.sent.Load())
	}
}

// TestPubPrefixAndCancel: libzmq semantics — "" matches every tag, a prefix subscribed twice
// needs two cancels.
func TestPubPrefixAndCancel(t *testing.T) {
	const key = "WorldSimulationWorldClock"
	s := bindTest(t, kindPub, key, testConfig(), handlers{})
	tag := TagBytes(key)
	p := dialRaw(t, s.Port(), zmq4.Sub)
	sendSub := func(on bool, topic []byte) {
		t.Helper()
		flag := byte(0)
		if on {
			flag = 1
		}
		if err := p.zc.SendMsg(zmq4.NewMsg(append([]byte{flag}, topic...))); err != nil {
			t.Fatal(err)
		}
	}
	sendSub(true, tag[:3])
	sendSub(true, tag[:3])
	waitFor(t, "prefix subscription", s.Subscribed)
	sendSub(false, tag[:3])
	// A peer's subscriptions are read in order, one at a time: once a later one (to a longer
	// prefix) is counted, the cancel before it has been too.
	sendSub(true, tag[:5])
	waitFor(t, "the subscription sent after the cancel", func() bool { return subCount(s, tag[:5]) == 1 })
	if n := subCount(s, tag[:3]); n != 1 {
		t.Fatalf("one cancel of a prefix subscribed twice left it subscribed %d times, want 1", n)
	}
	sendSub(false, tag[:5])
	waitFor(t, "the cancel of the longer prefix", func() bool { return subCount(s, tag[:5]) == 0 })
	if !s.Subscribed() {
		t.Fatal("one cancel of a prefix subscribed twice ended the subscription")
	}
	sendSub(false, tag[:3])
	waitFor(t, "second cancel", func() bool { return !s.Subscribed() })
	sendSub(true, nil)
	waitFor(t, "subscription to everything", s.Subscribed)
	s.Publish(append(s.Frame(2), 'h', 'i'))
	if m := p.recv(t); !bytes.Equal(m.Frames[0], append(tag[:], 'h', 'i')) {
		t.Fatalf("got %s", fmtFrames(m))
	}
}

// TestSlowSubscriberCostsOnlyItself: one subscriber completes the handshake, subscribes and
// never reads. Publish keeps returning, a second subscriber on the same port receives every
// frame, and the stalled one's queue drops its oldest frames.
func TestSlowSubscriberCostsOnlyItself(t *testing.T) {
	const key = "botcamData"
	cfg := testConfig()
	cfg.queueLen = 16              // room for a busy machine to delay the fast reader
	cfg.writeTimeout = time.Minute // the stalled client must stay connected for this test
	s := bindTest(t, kindPub, key, cfg, handlers{})
	tag := TagBytes(key)

	stalled := dialRaw(t, s.Port(), zmq4.Sub)
	if err := stalled.zc.SendMsg(zmq4.NewMsg(append([]byte{1}, tag[:]...))); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the stalled subscriber", s.Subscribed)
	fast := dialSub(t, s.Port(), tag[:])
	waitFor(t, "two subscribers", func() bool { return s.subscribed.Load() == 2 })

	const frames, size = 60, 1 << 20 // 60 MiB: more than loopback buffers and the queue hold
	got := make(chan int, 1)
	var read atomic.Int64
	go func() {
		n := 0
		for n < frames {
			m, err := fast.Recv()
			if err != nil {
				break
			}
			f := m.Frames[0]
			if len(f) != 8+size || int(f[8]) != n {
				break
			}
			n++
			read.Store(int64(n))
		}
		got <- n
	}()
	for i := range frames {
		// Pace the publisher by the fast reader, a few frames ahead of it, so that its queue
		// never overflows however loaded the machine is; the stalled one's does.
		for deadline := time.Now().Add(30 * time.Second); read.Load() < int64(i-cfg.queueLen/2); time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("the fast subscriber stalled at frame %d of %d", read.Load(), i)
			}
		}
		f := s.Frame(size)
		f = f[:8+size]
		f[8] = byte(i)
		s.Publish(f)
	}
	select {
	case n := <-got:
		if n != frames {
			t.Fatalf("fast subscriber received %d of %d frames in order", n, frames)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("fast subscriber stalled behind the slow one")
	}
	if d := s.dropped.Load(); d == 0 {
		t.Error("the stalled subscriber's queue dropped nothing")
	} else {
		t.Logf("stalled subscriber: %d frames dropped", d)
	}
}

// TestStalledWriterIsDisconnected: a subscriber that stops reading is dropped after the write
// timeout and its subscription no longer counts.
func TestStalledWriterIsDisconnected(t *testing.T) {
	const key = "botcamData"
	cfg := testConfig()
	cfg.writeTimeout = 200 * time.Millisecond
	s := bindTest(t, kindPub, key, cfg, handlers{})
	tag := TagBytes(key)
	stalled := dialRaw(t, s.Port(), zmq4.Sub)
	if err := stalled.zc.SendMsg(zmq4.NewMsg(append([]byte{1}, tag[:]...))); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the subscriber", s.Subscribed)
	for range 64 {
		s.Publish(s.Frame(1 << 20)[:8+1<<20])
	}
	waitFor(t, "the stalled subscriber's disconnection", func() bool { return s.Peers() == 0 && !s.Subscribed() })
}

// TestHandshakeDoesNotBlockOthers: a client that connects and says nothing does not keep
// others from connecting, and is closed after the handshake timeout.
func TestHandshakeDoesNotBlockOthers(t *testing.T) {
	const key = "WorldSimulationWorldClock"
	cfg := testConfig()
	cfg.handshakeTimeout = 300 * time.Millisecond
	s := bindTest(t, kindPub, key, cfg, handlers{})
	silent, err := net.Dial("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(int(s.Port()))))
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	tag := TagBytes(key)
	sub := dialSub(t, s.Port(), tag[:])
	waitFor(t, "the second client", s.Subscribed)
	s.Publish(append(s.Frame(1), 7))
	if m := recvTimeout(t, sub, 2*time.Second); !bytes.Equal(m.Frames[0], append(tag[:], 7)) {
		t.Fatalf("got %s", fmtFrames(m))
	}
	// The silent client is cut off once the handshake timeout passes.
	silent.SetReadDeadline(time.Now().Add(3 * time.Second))
	buf := make([]byte, 256)
	for {
		if _, err := silent.Read(buf); err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				t.Fatal("silent client still connected after 3 s")
			}
			break // EOF or reset: closed by the server
		}
	}
}

// TestRepEchoesEnvelope: the reply repeats the request's envelope (ZMQ_REQ_CORRELATE's
// request id and the delimiter) and carries our tag before the handler's payload.
func TestRepEchoesEnvelope(t *testing.T) {
	const key = "ks0223MicomInfo"
	var gotPayload []byte
	s := bindTest(t, kindRep, key, testConfig(), handlers{onRequest: func(p []byte) []byte {
		gotPayload = append([]byte(nil), p...)
		return []byte("reply:" + string(p))
	}})
	// As a correlating REQ: [request id, "", body].
	p := dialRaw(t, s.Port(), zmq4.Req)
	id := []byte{0, 0, 0, 42}
	if err := p.zc.SendMsg(zmq4.NewMsgFrom(id, nil, tagged(key, []byte("ping")))); err != nil {
		t.Fatal(err)
	}
	m := p.recv(t)
	want := [][]byte{id, {}, tagged(key, []byte("reply:ping"))}
	if len(m.Frames) != 3 || !bytes.Equal(m.Frames[0], want[0]) || len(m.Frames[1]) != 0 || !bytes.Equal(m.Frames[2], want[2]) {
		t.Fatalf("reply frames:\n%swant id 0000002a, empty, tag+reply:ping", fmtFrames(m))
	}
	if string(gotPayload) != "ping" {
		t.Errorf("handler got %q, want the body without its tag", gotPayload)
	}
	// As a plain REQ (zmq4's own): ["", body].
	req := zmq4.NewReq(context.Background(), zmq4.WithLogger(zlog))
	defer req.Close()
	if err := req.Dial(endpoint(s.Port())); err != nil {
		t.Fatal(err)
	}
	if err := req.Send(zmq4.NewMsg(tagged(key, []byte("two")))); err != nil {
		t.Fatal(err)
	}
	r := recvTimeout(t, req, 2*time.Second)
	if len(r.Frames) != 1 || !bytes.Equal(r.Frames[0], tagged(key, []byte("reply:two"))) {
		t.Fatalf("plain REQ got %s", fmtFrames(r))
	}
	// A request of only the tag reaches the handler as an empty payload.
	if err := req.Send(zmq4.NewMsg(tagged(key, nil))); err != nil {
		t.Fatal(err)
	}
	if r := recvTimeout(t, req, 2*time.Second); !bytes.Equal(r.Frames[0], tagged(key, []byte("reply:"))) {
		t.Fatalf("tag-only request got %s", fmtFrames(r))
	}
}

// TestSubReceivesTaggedCommands: our SUB subscribes connecting publishers to its tag, passes
// payloads without the tag, and ignores frames with another tag.
func TestSubReceivesTaggedCommands(t *testing.T) {
	const key = "ks0223MicomRx"
	got := make(chan string, 16)
	s := bindTest(t, kindSub, key, testConfig(), handlers{onMessage: func(p []byte) { got <- string(p) }})
	p := dialRaw(t, s.Port(), zmq4.Pub)
	// The first thing our SUB says is its subscription.
	m := p.recv(t)
	if tag := TagBytes(key); len(m.Frames) != 1 || !bytes.Equal(m.Frames[0], append([]byte{1}, tag[:]...)) {
		t.Fatalf("subscription message %s", fmtFrames(m))
	}
	for i, f := range [][]byte{tagged("otherRx", []byte("no")), tagged(key, []byte("cmd1")), {1, 2, 3}, tagged(key, []byte("cmd2"))} {
		if err := p.zc.SendMsg(zmq4.NewMsg(f)); err != nil {
			t.Fatalf("send %d: %v", i, err)
		}
	}
	for _, want := range []string{"cmd1", "cmd2"} {
		select {
		case g := <-got:
			if g != want {
				t.Fatalf("got %q, want %q", g, want)
			}
		case <-time.After(2 * time.Second):
			t.Fatalf("no %s", want)
		}
	}

	// A zmq4 PUB socket connecting to us works the same way.
	pub := zmq4.NewPub(context.Background(), zmq4.WithLogger(zlog))
	defer pub.Close()
	if err := pub.Dial(endpoint(s.Port())); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the publisher to learn our subscription", func() bool { return len(pub.(zmq4.Topics).Topics()) == 1 })
	if err := pub.Send(zmq4.NewMsg(tagged(key, []byte("cmd3")))); err != nil {
		t.Fatal(err)
	}
	select {
	case g := <-got:
		if g != "cmd3" {
			t.Fatalf("got %q", g)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("no cmd3 from the zmq4 publisher")
	}
}

// TestCloseDisconnectsAndReturns: Close ends connected clients' sessions and returns even
// with a handler in progress elsewhere finished.
func TestCloseDisconnectsAndReturns(t *testing.T) {
	s, err := bindSocket(kindPub, "127.0.0.1", 0, "xData", testConfig(), handlers{})
	if err != nil {
		t.Fatal(err)
	}
	tag := TagBytes("xData")
	dialSub(t, s.Port(), tag[:])
	waitFor(t, "subscriber", s.Subscribed)
	done := make(chan error, 1)
	go func() { done <- s.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close hung")
	}
	if _, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", s.Port())); err == nil {
		t.Error("port still accepts connections after Close")
	}
}
