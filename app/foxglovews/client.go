package foxglovews

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// pendingData is a subscription's newest message not yet written: its Message Data header and
// its payload, which every subscriber of the channel shares (read-only).
type pendingData struct {
	header  [messageHeader]byte
	payload []byte
}

// client is one connected viewer. Its subscriptions (subs, gone) are guarded by Server.mu; its
// queue by its own mu, written by the server's goroutines and read by its write loop.
//
// The queue holds server messages (JSON) in order, written first, and for each subscription
// only its newest message: a viewer that reads slower than the world publishes gets the
// latest frame of every topic, not frames that grow older the longer it watches, and what
// waits for it is at most a message a subscription.
type client struct {
	conn    *websocket.Conn
	since   time.Time
	dropped atomic.Uint64 // messages replaced by newer ones before they were written
	done    chan struct{}
	once    sync.Once
	wake    chan struct{}

	mu      sync.Mutex
	text    [][]byte
	pending map[uint32]pendingData
	order   []uint32 // subscriptions with a pending message, oldest first

	// subs maps the client's subscription IDs to channel IDs; nil once it has left. gone holds
	// the IDs of subscriptions an unadvertise ended, which the client may still unsubscribe.
	subs map[uint32]uint32
	gone map[uint32]bool
}

// maxText bounds the server messages waiting for a client: one that lets this many pile up
// is not reading, and is cut off rather than left behind on the channel list.
const maxText = 64

func newClient(conn *websocket.Conn) *client {
	return &client{conn: conn, since: time.Now(), done: make(chan struct{}), wake: make(chan struct{}, 1),
		pending: map[uint32]pendingData{}, subs: map[uint32]uint32{}, gone: map[uint32]bool{}}
}

func (c *client) hasSub(id uint32) bool {
	_, ok := c.subs[id]
	return ok
}

// close ends the client's connection and its write loop; it may be called again.
func (c *client) close() {
	c.once.Do(func() {
		close(c.done)
		c.conn.Close()
	})
}

// evict closes the client to make room for another, saying why (close code 1013, try again
// later).
func (c *client) evict() {
	c.closeWith(websocket.CloseTryAgainLater, "the live view is full and this client watches nothing", time.Second)
}

// goAwayWait bounds how long the server, stopping, waits for a client to take its Close frame:
// one that has stopped reading is cut off without it.
const goAwayWait = 250 * time.Millisecond

// goAway closes the client because the server is stopping (close code 1001, going away), as
// RFC 6455 has an endpoint that goes away say, rather than dropping the connection (which a
// client sees as 1006, abnormal closure).
func (c *client) goAway() {
	c.closeWith(websocket.CloseGoingAway, "simgui's live view is stopping", goAwayWait)
}

// closeWith closes the client after sending it a Close frame with code and reason, waiting at
// most wait for the frame to go out.
func (c *client) closeWith(code int, reason string, wait time.Duration) {
	msg := websocket.FormatCloseMessage(code, reason)
	c.conn.WriteControl(websocket.CloseMessage, msg, time.Now().Add(wait))
	c.close()
}

func (c *client) signal() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// sendJSON queues a server message.
func (c *client) sendJSON(v any) { c.sendText(marshalJSON(v)) }

// sendText queues a server message already encoded; clients share it, read-only.
func (c *client) sendText(data []byte) {
	c.mu.Lock()
	full := len(c.text) >= maxText
	if !full {
		c.text = append(c.text, data)
	}
	c.mu.Unlock()
	if full {
		c.close()
		return
	}
	c.signal()
}

// status queues a Status message.
func (c *client) status(level int, msg string) {
	c.sendJSON(status{Op: "status", Level: level, Message: msg})
}

// sendData queues a message of subscription sub, in place of one still waiting.
func (c *client) sendData(sub uint32, ns uint64, payload []byte) {
	c.mu.Lock()
	if _, waiting := c.pending[sub]; waiting {
		c.dropped.Add(1)
	} else {
		c.order = append(c.order, sub)
	}
	c.pending[sub] = pendingData{header: messageData(sub, ns), payload: payload}
	c.mu.Unlock()
	c.signal()
}

// forget drops what waits for subscription sub: it ended, and the client may give its ID to
// another channel.
func (c *client) forget(sub uint32) {
	c.mu.Lock()
	if _, waiting := c.pending[sub]; waiting {
		delete(c.pending, sub)
		c.order = slices.DeleteFunc(c.order, func(s uint32) bool { return s == sub })
	}
	c.mu.Unlock()
}

// next takes what to write next: a server message first, else the oldest subscription's
// newest message. ok is false when nothing waits.
func (c *client) next() (text []byte, data pendingData, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.text) > 0 {
		text = c.text[0]
		c.text[0] = nil
		c.text = c.text[1:]
		return text, pendingData{}, true
	}
	if len(c.order) > 0 {
		sub := c.order[0]
		c.order = c.order[1:]
		data = c.pending[sub]
		delete(c.pending, sub)
		return nil, data, true
	}
	return nil, pendingData{}, false
}

// writeLoop writes the client's queue until it leaves or a write fails or stalls.
func (c *client) writeLoop() {
	defer c.close()
	for {
		text, data, ok := c.next()
		if !ok {
			select {
			case <-c.done:
				return
			case <-c.wake:
				continue
			}
		}
		c.conn.SetWriteDeadline(time.Now().Add(writeTimeout))
		if text != nil {
			if err := c.conn.WriteMessage(websocket.TextMessage, text); err != nil {
				return
			}
			continue
		}
		if err := c.writeData(data); err != nil {
			return
		}
	}
}

// writeData writes a Message Data frame: the header, then the shared payload.
func (c *client) writeData(d pendingData) error {
	w, err := c.conn.NextWriter(websocket.BinaryMessage)
	if err != nil {
		return err
	}
	if _, err := w.Write(d.header[:]); err != nil {
		return err
	}
	if _, err := w.Write(d.payload); err != nil {
		return err
	}
	return w.Close()
}
