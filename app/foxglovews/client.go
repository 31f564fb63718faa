package foxglovews

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// frame is one WebSocket message waiting to be written.
type frame struct {
	typ  int
	data []byte
}

// client is one connected viewer. Its subscriptions are guarded by Server.mu; its queue is
// written by the server's goroutines and read by its own write loop.
type client struct {
	conn *websocket.Conn
	out  chan frame
	// queued is the bytes waiting in out; dropped counts the messages left out for it.
	queued  atomic.Int64
	dropped atomic.Uint64
	done    chan struct{}
	once    sync.Once

	// subs maps the client's subscription IDs to channel IDs; nil once it has left.
	subs map[uint32]uint32
}

func newClient(conn *websocket.Conn) *client {
	return &client{conn: conn, out: make(chan frame, queueFrames), done: make(chan struct{}), subs: map[uint32]uint32{}}
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

// sendJSON queues a server message. A client whose queue is full of them is not reading:
// it is cut off rather than left behind on the channel list.
func (c *client) sendJSON(v any) {
	select {
	case c.out <- frame{websocket.TextMessage, marshalJSON(v)}:
	default:
		c.close()
	}
}

// status queues a Status message.
func (c *client) status(level int, msg string) {
	c.sendJSON(status{Op: "status", Level: level, Message: msg})
}

// sendData queues a Message Data frame, or leaves it out when the client is that far behind.
func (c *client) sendData(data []byte) {
	if c.queued.Load()+int64(len(data)) > queueBytes {
		c.dropped.Add(1)
		return
	}
	select {
	case c.out <- frame{websocket.BinaryMessage, data}:
		c.queued.Add(int64(len(data)))
	default:
		c.dropped.Add(1)
	}
}

// writeLoop writes the client's queue until it leaves or a write fails or stalls.
func (c *client) writeLoop() {
	defer c.close()
	for {
		select {
		case <-c.done:
			return
		case f := <-c.out:
			if f.typ == websocket.BinaryMessage {
				c.queued.Add(-int64(len(f.data)))
			}
			c.conn.SetWriteDeadline(time.Now().Add(writeTimeout))
			if err := c.conn.WriteMessage(f.typ, f.data); err != nil {
				return
			}
		}
	}
}
