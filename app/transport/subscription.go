package transport

import (
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/protobuf/proto"
)

// Message is one published message as a subscriber receives it.
type Message struct {
	// Topic is the topic it was published on.
	Topic string
	// Type is the full message name, for example "gz.msgs.Twist".
	Type string
	// Stamp is the sim time the publisher gave.
	Stamp time.Duration
	// Msg is the message; shared by all subscribers, so read-only.
	Msg proto.Message
	// Seq is the topic's publish count with this message (from 1): a gap between two that a
	// subscriber receives is messages it lost (its queue dropped them), so that a recording
	// can tell its readers where it lacks some.
	Seq uint64

	t    *topic // for drop accounting when the message is dropped from a queue
	size int64  // proto.Size of Msg, counted by a subscription WithMaxBytes
}

// Subscription is a bounded queue of messages from one topic (Subscribe) or
// from all topics (SubscribeAll). Read it through C; close it with Close.
type Subscription struct {
	bus   *Bus
	topic string // "" for SubscribeAll
	ch    chan Message

	// mu serialises deliveries and Close, so the drop-oldest step is atomic
	// and nothing is sent on a closed channel.
	mu      sync.Mutex
	closed  bool
	dropped atomic.Uint64

	// maxBytes bounds bytes, the size of the messages queued or received and not yet
	// Released; 0 for no bound (WithMaxBytes).
	maxBytes int64
	bytes    atomic.Int64
}

// SubscribeOption configures one subscription.
type SubscribeOption func(*subscribeConfig)

type subscribeConfig struct {
	queueLen int
	maxBytes int64
}

// WithQueueLen sets how many messages the subscription buffers before the
// oldest is dropped; values below 1 are raised to 1.
func WithQueueLen(n int) SubscribeOption {
	return func(c *subscribeConfig) { c.queueLen = max(n, 1) }
}

// WithMaxBytes bounds the bytes (proto.Size) of the messages a subscription holds: those
// queued and those received and not yet given back with Release. Past it the oldest queued
// are dropped, and a message is dropped itself when the reader holds the whole budget. For
// readers that keep messages a while (the recorder): a queue of camera frames bounded only
// by count could hold gigabytes. Values below 1 mean no bound.
func WithMaxBytes(n int64) SubscribeOption {
	return func(c *subscribeConfig) { c.maxBytes = max(n, 0) }
}

// Subscribe returns a subscription to topic. The topic need not exist yet;
// messages published from now on are delivered. On a closed bus the returned
// subscription is already closed. It panics on an empty topic name, a
// programming error.
func (b *Bus) Subscribe(topicName string, opts ...SubscribeOption) *Subscription {
	if topicName == "" {
		panic("transport: Subscribe with an empty topic name")
	}
	s := b.newSubscription(topicName, opts)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		s.closeChan()
		return s
	}
	t := b.topicLocked(topicName)
	t.subs = append(slices.Clip(t.subs), s)
	t.listened.Store(true)
	t.made.Add(1)
	if !t.heard {
		t.heard = true
		b.heard.Load().stale.Store(true)
	}
	return s
}

// SubscribeAll returns a subscription receiving every message published on
// any topic, including topics created after this call (the recorder uses
// it). While it is open HasSubscribers reports true for every topic.
func (b *Bus) SubscribeAll(opts ...SubscribeOption) *Subscription {
	s := b.newSubscription("", opts)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		s.closeChan()
		return s
	}
	b.all = append(slices.Clip(b.all), s)
	b.every.Store(true)
	b.allMade.Add(1)
	return s
}

func (b *Bus) newSubscription(topicName string, opts []SubscribeOption) *Subscription {
	cfg := subscribeConfig{queueLen: b.queueLen}
	for _, o := range opts {
		o(&cfg)
	}
	return &Subscription{bus: b, topic: topicName, ch: make(chan Message, cfg.queueLen), maxBytes: cfg.maxBytes}
}

// Release gives back the bytes of a message received from a subscription WithMaxBytes, once
// the reader is done with it. It does nothing for other subscriptions.
func (s *Subscription) Release(m Message) {
	if m.size > 0 {
		s.bytes.Add(-m.size)
	}
}

// C returns the channel messages arrive on, in publish order per publishing
// goroutine. It is closed by Close or Bus.Close; messages still buffered can
// be read after that. Read with select and default to drain without blocking.
func (s *Subscription) C() <-chan Message { return s.ch }

// Topic returns the subscribed topic, "" for a SubscribeAll subscription.
func (s *Subscription) Topic() string { return s.topic }

// Dropped returns how many messages were dropped because the queue was full.
func (s *Subscription) Dropped() uint64 { return s.dropped.Load() }

// Backlog returns how many messages are queued, and the bytes held (queued, or received and
// not yet Released; 0 without WithMaxBytes): what a reader that keeps up leaves near zero.
func (s *Subscription) Backlog() (n int, bytes int64) { return len(s.ch), s.bytes.Load() }

// Close stops deliveries and closes C. It is idempotent and safe to call from
// any goroutine, including while publishers deliver.
func (s *Subscription) Close() {
	s.bus.remove(s)
	s.closeChan()
}

func (s *Subscription) closeChan() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closed = true
		close(s.ch)
	}
}

// deliver enqueues m, dropping the oldest queued message while the queue is
// full. It never blocks on the reader: under s.mu only the reader can remove
// messages, so after one successful drop the send succeeds.
func (s *Subscription) deliver(m Message) {
	first := false
	if s.maxBytes > 0 {
		m.size = int64(proto.Size(m.Msg))
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	for {
		if s.maxBytes > 0 && s.bytes.Load()+m.size > s.maxBytes {
			select {
			case old := <-s.ch: // room made by the oldest queued, as when the queue is full
				s.bytes.Add(-old.size)
				first = s.dropped.Add(1) == 1 || first
				old.t.dropped.Add(1)
				continue
			default: // the reader holds the budget: this one goes
				s.dropped.Add(1)
				m.t.dropped.Add(1)
				s.mu.Unlock()
				return
			}
		}
		select {
		case s.ch <- m:
			s.bytes.Add(m.size)
			s.mu.Unlock()
			if first {
				s.bus.log.Debug("transport: subscriber queue full, dropping oldest messages",
					slog.String("topic", m.Topic), slog.Int("queue", cap(s.ch)))
			}
			return
		default:
		}
		select {
		case old := <-s.ch:
			s.bytes.Add(-old.size)
			first = s.dropped.Add(1) == 1
			old.t.dropped.Add(1)
		default:
			// The reader emptied a slot meanwhile; try the send again.
		}
	}
}

// remove takes s out of the bus's delivery lists.
func (b *Bus) remove(s *Subscription) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if s.topic == "" {
		b.all = without(b.all, s)
		b.every.Store(!b.closed && len(b.all) > 0)
		return
	}
	if t := b.topics[s.topic]; t != nil {
		t.subs = without(t.subs, s)
		t.listened.Store(!b.closed && len(t.subs) > 0)
	}
}

// without returns a new slice of list minus s (copy-on-write: a publisher may
// be iterating the old one).
func without(list []*Subscription, s *Subscription) []*Subscription {
	i := slices.Index(list, s)
	if i < 0 {
		return list
	}
	out := make([]*Subscription, 0, len(list)-1)
	out = append(out, list[:i]...)
	return append(out, list[i+1:]...)
}
