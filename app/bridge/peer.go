package bridge

import (
	"bytes"
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-zeromq/zmq4"
)

// activity is when a connection last did something of use: its accepting, a subscription to
// the port's tag, a tagged message, a request or a reply (unix nanoseconds).
type activity struct {
	last  atomic.Int64
	ready atomic.Bool // the ZMTP handshake is done
	// since is when the connection was accepted (UnixNano), set before it is shared.
	since int64
}

func (a *activity) touch() { a.last.Store(time.Now().UnixNano()) }

// peer is one connected client.
type peer struct {
	s   *socket
	raw net.Conn
	zc  *zmq4.Conn
	act *activity

	// PUB: subscriptions and the send queue, under s.mu (subs, wants) and qmu (queue).
	subs  map[string]int
	wants bool

	qmu   sync.Mutex
	queue [][]byte
	wake  chan struct{}

	// REQ: replies from the client, taken by Request.
	replies chan []byte

	done      chan struct{}
	closeOnce sync.Once
}

func (p *peer) close() {
	p.closeOnce.Do(func() {
		close(p.done)
		p.raw.Close()
	})
}

// send writes one message under the write deadline.
func (p *peer) send(frames ...[]byte) error {
	p.raw.SetWriteDeadline(time.Now().Add(p.s.cfg.writeTimeout))
	return p.zc.SendMsg(zmq4.NewMsgFrom(frames...))
}

// enqueue adds frame to the send queue, dropping the oldest message if the queue is full.
func (p *peer) enqueue(frame []byte) {
	p.qmu.Lock()
	if len(p.queue) >= p.s.cfg.queueLen {
		p.queue[0] = nil
		p.queue = p.queue[1:]
		p.s.dropped.Add(1)
	}
	p.queue = append(p.queue, frame)
	p.qmu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// writeLoop sends queued messages until the peer is closed or a write fails.
func (p *peer) writeLoop() {
	defer p.close()
	for {
		p.qmu.Lock()
		if len(p.queue) == 0 {
			p.qmu.Unlock()
			select {
			case <-p.done:
				return
			case <-p.wake:
				continue
			}
		}
		frame := p.queue[0]
		p.queue[0] = nil
		p.queue = p.queue[1:]
		p.qmu.Unlock()
		if err := p.send(frame); err != nil {
			p.s.cfg.log.Debug("bridge: dropping subscriber", "key", p.s.hashKey, "peer", p.raw.RemoteAddr(), "err", err)
			return
		}
		// A subscriber speaks once, to subscribe, and then only reads: what it is sent is its
		// activity, or a full port would close it first.
		p.act.touch()
		p.s.sent.Add(1)
	}
}

// readSubscriptions tracks the SUBSCRIBE (0x01 prefix) and CANCEL (0x00 prefix) messages a
// ZMTP 3.0 subscriber sends. Prefix matching and counting follow libzmq: "" subscribes to
// everything, and a prefix subscribed twice needs two cancels. Only prefixes of the port's
// tag can match its frames, so only those are kept: at most nine, whatever a peer sends.
func (p *peer) readSubscriptions() {
	for {
		msg, err := p.zc.RecvMsg()
		if err != nil {
			return
		}
		if msg.Type != zmq4.UsrMsg || len(msg.Frames) != 1 || len(msg.Frames[0]) == 0 {
			continue
		}
		f := msg.Frames[0]
		s := p.s
		if !bytes.HasPrefix(s.tag[:], f[1:]) {
			continue
		}
		topic := string(f[1:])
		p.act.touch()
		s.mu.Lock()
		if p.subs == nil {
			p.subs = map[string]int{}
		}
		switch f[0] {
		case 1:
			p.subs[topic]++
		case 0:
			if p.subs[topic] > 1 {
				p.subs[topic]--
			} else {
				delete(p.subs, topic)
			}
		}
		if wants := len(p.subs) > 0; wants != p.wants {
			p.wants = wants
			if wants {
				s.subscribed.Add(1)
			} else {
				s.subscribed.Add(-1)
			}
			s.signal()
		}
		s.mu.Unlock()
	}
}

// receive subscribes the connected publisher to our tag and hands each tagged message's
// payload to onMessage. Frames with another tag are ignored, as a libzmq SUB filters them.
func (p *peer) receive() {
	if err := p.send(append([]byte{1}, p.s.tag[:]...)); err != nil {
		return
	}
	p.raw.SetWriteDeadline(time.Time{})
	for {
		msg, err := p.zc.RecvMsg()
		if err != nil {
			return
		}
		if msg.Type != zmq4.UsrMsg || len(msg.Frames) != 1 {
			continue
		}
		f := msg.Frames[0]
		if len(f) < 8 || !bytes.Equal(f[:8], p.s.tag[:]) {
			continue
		}
		p.act.touch()
		if h := p.s.h.Load(); h.onMessage != nil {
			h.onMessage(f[8:])
		}
	}
}

// reply answers requests one at a time. A request is [envelope..., empty delimiter, body]: a
// plain REQ sends only the delimiter before the body, one with ZMQ_REQ_CORRELATE a request id
// and the delimiter. The reply echoes the envelope up to and including the delimiter, as a
// libzmq REP does, so correlating clients accept it. The body's tag is not checked (CLOiSim
// does not check it either); the reply carries ours.
func (p *peer) reply() {
	for {
		msg, err := p.zc.RecvMsg()
		if err != nil {
			return
		}
		if msg.Type != zmq4.UsrMsg {
			continue
		}
		delim := -1
		for i, f := range msg.Frames {
			if len(f) == 0 {
				delim = i
				break
			}
		}
		if delim < 0 || delim+1 >= len(msg.Frames) {
			p.s.cfg.log.Debug("bridge: malformed request (no delimiter or no body)", "key", p.s.hashKey, "frames", len(msg.Frames))
			continue
		}
		p.act.touch()
		body := msg.Frames[delim+1]
		var payload []byte
		if len(body) > 8 {
			payload = body[8:]
		}
		var rep []byte
		if h := p.s.h.Load(); h.onRequest != nil {
			rep = h.onRequest(payload)
		}
		out := p.s.Frame(len(rep))
		out = append(out, rep...)
		frames := append(msg.Frames[:delim+1:delim+1], out)
		if err := p.send(frames...); err != nil {
			return
		}
		p.s.sent.Add(1)
	}
}

// readReplies takes a REP client's answers ([delimiter, body]) and hands the payload after the
// tag to the Request waiting for it; an answer nobody waits for is dropped.
func (p *peer) readReplies() {
	for {
		msg, err := p.zc.RecvMsg()
		if err != nil {
			return
		}
		if msg.Type != zmq4.UsrMsg || len(msg.Frames) == 0 {
			continue
		}
		p.act.touch()
		body := msg.Frames[len(msg.Frames)-1]
		if len(body) >= 8 {
			body = body[8:]
		}
		select {
		case p.replies <- body:
		default:
		}
	}
}

// ReqResult is one client's answer to a Request: its payload, or why there is none.
type ReqResult struct {
	Peer    string
	Payload []byte
	Err     error
}

// peerCount returns how many clients have done the handshake.
func (s *socket) peerCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.peers)
}

// Request sends payload (tagged) to every client of a REQ port and waits for each one's
// answer until timeout, or until abort closes. Clients are asked in parallel; the results are
// in no set order.
func (s *socket) Request(payload []byte, timeout time.Duration, abort <-chan struct{}) []ReqResult {
	s.reqMu.Lock()
	defer s.reqMu.Unlock()
	s.mu.Lock()
	peers := make([]*peer, 0, len(s.peers))
	for p := range s.peers {
		peers = append(peers, p)
	}
	s.mu.Unlock()
	out := make([]ReqResult, len(peers))
	var wg sync.WaitGroup
	for i, p := range peers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = p.request(payload, timeout, abort)
		}()
	}
	wg.Wait()
	return out
}

func (p *peer) request(payload []byte, timeout time.Duration, abort <-chan struct{}) ReqResult {
	r := ReqResult{Peer: p.raw.RemoteAddr().String()}
	select {
	case <-p.replies: // a late answer to an earlier request
	default:
	}
	frame := append(p.s.Frame(len(payload)), payload...)
	if r.Err = p.send([]byte{}, frame); r.Err != nil {
		return r
	}
	p.s.sent.Add(1)
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case r.Payload = <-p.replies:
	case <-t.C:
		r.Err = errReqTimeout
		// A REQ client that never answered leaves the exchange stuck: drop it, so that it
		// reconnects with a fresh socket.
		p.close()
	case <-p.done:
		r.Err = errors.New("the client disconnected")
	case <-abort:
		r.Err = errors.New("not waited for: the bridge is closing")
	}
	return r
}

var errReqTimeout = errors.New("TIMEOUT")
