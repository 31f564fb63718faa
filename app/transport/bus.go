package transport

import (
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"simgui/app/transport/msgs"
)

// Sentinel errors; the bus wraps them with the topic or service name, so test
// them with errors.Is.
var (
	// ErrClosed is returned by every call on a closed Bus.
	ErrClosed = errors.New("transport: bus closed")
	// ErrTypeMismatch is returned when a message's type differs from the type
	// its topic or service was fixed to.
	ErrTypeMismatch = errors.New("transport: message type mismatch")
	// ErrNoService is returned by Call for a service nobody advertises.
	ErrNoService = errors.New("transport: no such service")
	// ErrServiceExists is returned by Advertise for a name already advertised.
	ErrServiceExists = errors.New("transport: service already advertised")
	// ErrTimeout is returned by Call when the handler did not answer in time.
	ErrTimeout = errors.New("transport: service call timed out")
)

// DefaultQueueLen is the subscriber queue length used when Options.QueueLen is 0.
const DefaultQueueLen = 64

// Options configures a Bus. The zero value is usable.
type Options struct {
	// QueueLen is the default number of messages a subscription buffers before
	// the oldest is dropped; 0 means DefaultQueueLen.
	QueueLen int
	// Logger receives handler panics and first drops; nil means slog.Default().
	Logger *slog.Logger
}

// Bus carries typed topics (publish/subscribe) and services (request/reply)
// between the goroutines of one process. Make it with NewBus. All methods are
// safe for concurrent use; see the package doc for the guarantees.
type Bus struct {
	log      *slog.Logger
	queueLen int

	// mu guards everything below. Slices of subscriptions are copy-on-write,
	// so Publish can deliver from a snapshot after releasing the read lock.
	mu       sync.RWMutex
	closed   bool
	topics   map[string]*topic
	all      []*Subscription
	services map[string]*service

	// What HasSubscribers reads, without mu: every sensor of every world asks it every
	// step, and a read lock's shared counter bounced between the cores. every says a
	// SubscribeAll subscription listens; heard maps the topics that ever had a subscription
	// of their own to themselves, and a topic's listened flag says whether it has one now.
	// A subscription marks heard stale only when its topic is heard of for the first time,
	// and the next HasSubscribers remakes it (under remake): remaking it at every
	// subscription made the start of a fleet, which subscribes per robot, quadratic in its
	// robots.
	every  atomic.Bool
	heard  atomic.Pointer[heard]
	remake sync.Mutex
	// allMade counts the SubscribeAll subscriptions made (SubscriptionsTo).
	allMade atomic.Uint64
}

// heard is a snapshot of the topics that ever had a subscription, never changed after it is
// made but for stale, set (under Bus.mu) when one more topic is heard of.
type heard struct {
	topics map[string]*topic
	stale  atomic.Bool
}

// reheard returns a fresh snapshot of the heard topics, remade if the current one is stale.
// The new one is stored while mu is held, so a subscription that comes after marks it.
func (b *Bus) reheard() *heard {
	b.remake.Lock()
	defer b.remake.Unlock()
	if h := b.heard.Load(); !h.stale.Load() {
		return h // another caller remade it meanwhile
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
	h := &heard{topics: map[string]*topic{}}
	for name, t := range b.topics {
		if t.heard {
			h.topics[name] = t
		}
	}
	b.heard.Store(h)
	return h
}

// topic is one named, typed stream.
type topic struct {
	name string
	// typ (full message name, "" until fixed) and mt are written once under
	// Bus.mu and read under it.
	typ  string
	mt   protoreflect.MessageType
	subs []*Subscription // copy-on-write under Bus.mu
	// listened is len(subs) > 0 on an open bus, set under Bus.mu; heard (under Bus.mu) says
	// the topic is in Bus.heard's snapshots.
	listened atomic.Bool
	heard    bool

	published atomic.Uint64
	dropped   atomic.Uint64
	// made counts the subscriptions made to the topic (SubscriptionsTo).
	made atomic.Uint64
}

// TopicInfo describes a topic at the moment Topics was called.
type TopicInfo struct {
	Name string
	// Type is the full message name, "" if nothing fixed it yet (only subscribed).
	Type string
	// Published counts messages published on the topic.
	Published uint64
	// Subscribers counts subscriptions receiving the topic, SubscribeAll ones included.
	Subscribers int
	// Dropped counts this topic's messages dropped from full subscriber queues.
	Dropped uint64
}

// NewBus returns an empty bus.
func NewBus(opts Options) *Bus {
	b := &Bus{
		log:      opts.Logger,
		queueLen: opts.QueueLen,
		topics:   map[string]*topic{},
		services: map[string]*service{},
	}
	b.heard.Store(&heard{})
	if b.log == nil {
		b.log = slog.Default()
	}
	if b.queueLen <= 0 {
		b.queueLen = DefaultQueueLen
	}
	return b
}

// Publish sends m, stamped with sim time stamp, to every current subscriber of
// topic and to every SubscribeAll subscription. The first Publish (or
// DeclareTopic) fixes the topic's type; publishing another type returns
// ErrTypeMismatch. Publish never blocks on a subscriber: a full queue drops
// its oldest message.
//
// All subscribers share m itself, so the caller must not modify m after
// Publish, and subscribers must treat it as read-only (clone to change it).
func (b *Bus) Publish(topicName string, m proto.Message, stamp time.Duration) error {
	if m == nil {
		return fmt.Errorf("publish %s: nil message", topicName)
	}
	if topicName == "" {
		return errors.New("publish: empty topic name")
	}
	mt := m.ProtoReflect().Type()

	b.mu.RLock()
	if b.closed {
		b.mu.RUnlock()
		return fmt.Errorf("publish %s: %w", topicName, ErrClosed)
	}
	t := b.topics[topicName]
	var subs, all []*Subscription
	var err error
	// Decided under the lock: another publisher may be typing the topic now.
	typed := t != nil && t.mt != nil
	if typed {
		err = t.check(mt)
		subs, all = t.subs, b.all
	}
	b.mu.RUnlock()

	if !typed {
		// First publish on this topic: create or type it under the write lock.
		b.mu.Lock()
		if b.closed {
			b.mu.Unlock()
			return fmt.Errorf("publish %s: %w", topicName, ErrClosed)
		}
		t = b.topicLocked(topicName)
		if t.mt == nil {
			t.mt, t.typ = mt, string(mt.Descriptor().FullName())
		}
		err = t.check(mt)
		subs, all = t.subs, b.all
		b.mu.Unlock()
	}
	if err != nil {
		return fmt.Errorf("publish %s: %w", topicName, err)
	}

	msg := Message{Topic: topicName, Type: t.typ, Stamp: stamp, Msg: m, Seq: t.published.Add(1), t: t}
	for _, s := range subs {
		s.deliver(msg)
	}
	for _, s := range all {
		s.deliver(msg)
	}
	return nil
}

// DeclareTopic fixes the type of topic to the full message name typeName
// without publishing, so that subscribers and Topics see it before the first
// message. It fails for an unknown type name or a topic already fixed to
// another type.
func (b *Bus) DeclareTopic(topicName, typeName string) error {
	if topicName == "" {
		return errors.New("declare topic: empty topic name")
	}
	mt, err := msgs.Lookup(typeName)
	if err != nil {
		return fmt.Errorf("declare topic %s: %w", topicName, err)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return fmt.Errorf("declare topic %s: %w", topicName, ErrClosed)
	}
	t := b.topicLocked(topicName)
	if t.mt == nil {
		t.mt, t.typ = mt, string(mt.Descriptor().FullName())
	}
	if err := t.check(mt); err != nil {
		return fmt.Errorf("declare topic %s: %w", topicName, err)
	}
	return nil
}

// DeclareBuiltin declares topics named by this package's functions (BuiltinType) with their
// types, so that Topics lists them before they are published (some only are while someone
// subscribes) and a publisher of another type is refused at once. A name that is not one is
// left alone.
func (b *Bus) DeclareBuiltin(topics ...string) {
	for _, topic := range topics {
		if typ, ok := BuiltinType(topic); ok {
			b.DeclareTopic(topic, typ)
		}
	}
}

// check reports whether a message of type mt may go on t. Types are compared
// by full name; the pointer comparison is the fast path.
func (t *topic) check(mt protoreflect.MessageType) error {
	if mt == t.mt {
		return nil
	}
	if got := string(mt.Descriptor().FullName()); got != t.typ {
		return fmt.Errorf("%w: topic carries %s, got %s", ErrTypeMismatch, t.typ, got)
	}
	return nil
}

// topicLocked returns the topic named name, creating an untyped one. Bus.mu
// must be held for writing.
func (b *Bus) topicLocked(name string) *topic {
	t := b.topics[name]
	if t == nil {
		t = &topic{name: name}
		b.topics[name] = t
	}
	return t
}

// HasSubscribers reports whether a message published on topic now would reach
// anyone: a subscription to topic or any SubscribeAll subscription. It is a
// lock-free map lookup, cheap enough to ask per robot per step before
// building a message. False after Close.
func (b *Bus) HasSubscribers(topicName string) bool {
	if b.every.Load() {
		return true
	}
	h := b.heard.Load()
	if h.stale.Load() {
		h = b.reheard()
	}
	t, ok := h.topics[topicName]
	return ok && t.listened.Load()
}

// SubscriptionsTo counts the subscriptions made so far that hear topic: its own and
// SubscribeAll ones. A publisher of state on topic compares it between publications, and
// sends the state again for the listeners that came since, whoever else subscribed elsewhere.
func (b *Bus) SubscriptionsTo(topicName string) uint64 {
	n := b.allMade.Load()
	h := b.heard.Load()
	if h.stale.Load() {
		h = b.reheard()
	}
	if t, ok := h.topics[topicName]; ok {
		n += t.made.Load()
	}
	return n
}

// Topics returns every topic published, declared or subscribed to, sorted by name.
func (b *Bus) Topics() []TopicInfo {
	b.mu.RLock()
	defer b.mu.RUnlock()
	out := make([]TopicInfo, 0, len(b.topics))
	for _, t := range b.topics {
		out = append(out, TopicInfo{
			Name:        t.name,
			Type:        t.typ,
			Published:   t.published.Load(),
			Subscribers: len(t.subs) + len(b.all),
			Dropped:     t.dropped.Load(),
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Close closes every subscription's channel and forgets all services; later
// calls return ErrClosed (Subscribe returns an already closed subscription).
// Service calls in progress run to their end. Close is idempotent.
func (b *Bus) Close() {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return
	}
	b.closed = true
	subs := b.all
	for _, t := range b.topics {
		subs = append(subs[:len(subs):len(subs)], t.subs...)
		t.subs = nil
	}
	b.all = nil
	b.services = map[string]*service{}
	b.every.Store(false)
	for _, t := range b.topics {
		t.listened.Store(false)
	}
	b.mu.Unlock()

	// Closed outside b.mu: deliver holds a subscription's lock and never takes b.mu,
	// but keeping the two locks unnested makes that obvious.
	for _, s := range subs {
		s.closeChan()
	}
}
