package transport

import (
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"simgui/app/transport/msgs"
)

// recv reads one message or fails: the message must already be queued.
func recv(t *testing.T, s *Subscription) Message {
	t.Helper()
	select {
	case m, ok := <-s.C():
		if !ok {
			t.Fatal("subscription closed")
		}
		return m
	default:
		t.Fatal("no message queued")
		return Message{}
	}
}

// empty fails unless nothing is queued on s.
func empty(t *testing.T, s *Subscription) {
	t.Helper()
	select {
	case m := <-s.C():
		t.Fatalf("unexpected message %+v", m)
	default:
	}
}

func TestFanOutInOrder(t *testing.T) {
	bus := NewBus(Options{})
	defer bus.Close()
	subs := []*Subscription{bus.Subscribe("/a"), bus.Subscribe("/a"), bus.Subscribe("/a")}
	other := bus.Subscribe("/b")
	for i := range 10 {
		if err := bus.Publish("/a", &msgs.Double{Data: float64(i)}, time.Duration(i)*time.Millisecond); err != nil {
			t.Fatal(err)
		}
	}
	for si, s := range subs {
		for i := range 10 {
			m := recv(t, s)
			d, ok := m.Msg.(*msgs.Double)
			if !ok || d.Data != float64(i) {
				t.Fatalf("sub %d message %d = %v, want Double %d", si, i, m.Msg, i)
			}
			if m.Topic != "/a" || m.Type != "gz.msgs.Double" || m.Stamp != time.Duration(i)*time.Millisecond {
				t.Fatalf("sub %d message %d: topic %q type %q stamp %v", si, i, m.Topic, m.Type, m.Stamp)
			}
		}
		empty(t, s)
	}
	empty(t, other)
	info := bus.Topics()
	if len(info) != 2 || info[0] != (TopicInfo{Name: "/a", Type: "gz.msgs.Double", Published: 10, Subscribers: 3}) ||
		info[1] != (TopicInfo{Name: "/b", Subscribers: 1}) {
		t.Fatalf("Topics() = %+v", info)
	}
}

func TestTypeMismatch(t *testing.T) {
	bus := NewBus(Options{})
	defer bus.Close()
	if err := bus.Publish("/x", &msgs.Double{}, 0); err != nil {
		t.Fatal(err)
	}
	err := bus.Publish("/x", &msgs.Twist{}, 0)
	if !errors.Is(err, ErrTypeMismatch) {
		t.Fatalf("err = %v, want ErrTypeMismatch", err)
	}
	for _, want := range []string{"/x", "gz.msgs.Double", "gz.msgs.Twist"} {
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("error %q does not name %s", err, want)
		}
	}
	if err := bus.DeclareTopic("/x", "gz.msgs.Twist"); !errors.Is(err, ErrTypeMismatch) {
		t.Fatalf("DeclareTopic mismatch err = %v", err)
	}
	if err := bus.DeclareTopic("/x", "gz.msgs.Double"); err != nil {
		t.Fatalf("DeclareTopic same type: %v", err)
	}
	if err := bus.DeclareTopic("/y", "gz.msgs.NoSuch"); !errors.Is(err, msgs.ErrUnknownType) {
		t.Fatalf("DeclareTopic unknown type err = %v", err)
	}
	// A declared topic refuses other types before its first message.
	if err := bus.DeclareTopic("/z", "gz.msgs.Pose"); err != nil {
		t.Fatal(err)
	}
	if err := bus.Publish("/z", &msgs.Twist{}, 0); !errors.Is(err, ErrTypeMismatch) {
		t.Fatalf("publish on declared topic err = %v", err)
	}
	// A subscribed but unpublished topic takes its type from the first publish.
	s := bus.Subscribe("/w")
	if err := bus.Publish("/w", &msgs.Pose{Name: "p"}, 0); err != nil {
		t.Fatal(err)
	}
	if m := recv(t, s); m.Type != "gz.msgs.Pose" {
		t.Fatalf("type %q", m.Type)
	}
	if err := bus.Publish("/w", &msgs.Double{}, 0); !errors.Is(err, ErrTypeMismatch) {
		t.Fatalf("err = %v", err)
	}
	if err := bus.Publish("/w", nil, 0); err == nil {
		t.Fatal("nil message accepted")
	}
	if got := bus.Topics(); got[0].Name != "/w" || got[0].Published != 1 || got[1].Name != "/x" || got[1].Published != 1 {
		t.Fatalf("refused messages counted: %+v", got)
	}
}

func TestDropOldest(t *testing.T) {
	bus := NewBus(Options{})
	defer bus.Close()
	s := bus.Subscribe("/scan", WithQueueLen(4))
	for i := range 10 {
		if err := bus.Publish("/scan", &msgs.Int32{Data: int32(i)}, 0); err != nil {
			t.Fatal(err)
		}
	}
	for want := int32(6); want < 10; want++ {
		if got := recv(t, s).Msg.(*msgs.Int32).Data; got != want {
			t.Fatalf("got %d, want %d", got, want)
		}
	}
	empty(t, s)
	if s.Dropped() != 6 {
		t.Fatalf("Dropped() = %d, want 6", s.Dropped())
	}
	if ti := bus.Topics()[0]; ti.Dropped != 6 || ti.Published != 10 {
		t.Fatalf("TopicInfo = %+v, want Published 10 Dropped 6", ti)
	}
}

// A subscription WithMaxBytes holds at most that many bytes of messages, queued or received
// and not released: the oldest queued go first, and a message goes itself while the reader
// holds the budget.
func TestDropOverBytes(t *testing.T) {
	bus := NewBus(Options{})
	defer bus.Close()
	frame := func(i int) *msgs.StringMsg { return &msgs.StringMsg{Data: strings.Repeat("x", 1000) + strconv.Itoa(i)} }
	index := func(m Message) string { d := m.Msg.(*msgs.StringMsg).Data; return d[1000:] }
	size := int64(proto.Size(frame(0)))
	s := bus.Subscribe("/cam", WithQueueLen(100), WithMaxBytes(3*size))
	for i := range 5 {
		if err := bus.Publish("/cam", frame(i), 0); err != nil {
			t.Fatal(err)
		}
	}
	held := recv(t, s) // frames 2, 3 and 4 were queued; 2 is held now
	if got := index(held); got != "2" || s.Dropped() != 2 {
		t.Fatalf("got frame %s, %d dropped; want frame 2, 2 dropped", got, s.Dropped())
	}
	// The reader holds one and two are queued: a new one pushes the oldest queued out.
	bus.Publish("/cam", frame(5), 0)
	if got := index(recv(t, s)); got != "4" || s.Dropped() != 3 {
		t.Fatalf("got frame %s, %d dropped; want frame 4, 3 dropped", got, s.Dropped())
	}
	next := recv(t, s) // frame 5: the reader holds all three now
	bus.Publish("/cam", frame(6), 0)
	empty(t, s)
	if s.Dropped() != 4 {
		t.Fatalf("a frame over the held budget: %d dropped, want 4", s.Dropped())
	}
	s.Release(held)
	s.Release(next)
	bus.Publish("/cam", frame(7), 0)
	if got := index(recv(t, s)); got != "7" {
		t.Fatalf("after releasing, got frame %s, want 7", got)
	}
}

func TestDefaultQueueLen(t *testing.T) {
	bus := NewBus(Options{QueueLen: 3})
	defer bus.Close()
	s := bus.Subscribe("/q")
	big := bus.Subscribe("/q", WithQueueLen(0)) // raised to 1
	for i := range 5 {
		_ = bus.Publish("/q", &msgs.Int32{Data: int32(i)}, 0)
	}
	if s.Dropped() != 2 || big.Dropped() != 4 {
		t.Fatalf("dropped %d and %d, want 2 and 4", s.Dropped(), big.Dropped())
	}
	if got := recv(t, big).Msg.(*msgs.Int32).Data; got != 4 {
		t.Fatalf("queue of 1 kept %d, want 4", got)
	}
}

func TestSubscribeAllSeesLaterTopics(t *testing.T) {
	bus := NewBus(Options{})
	defer bus.Close()
	all := bus.SubscribeAll()
	if err := bus.Publish("/created/later", &msgs.StringMsg{Data: "hi"}, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	_ = bus.Publish("/clock", &msgs.WorldStatistics{SimTime: msgs.NewTime(time.Second)}, time.Second)
	m := recv(t, all)
	if m.Topic != "/created/later" || m.Type != "gz.msgs.StringMsg" || m.Stamp != 5*time.Second || m.Msg.(*msgs.StringMsg).Data != "hi" {
		t.Fatalf("got %+v", m)
	}
	if m := recv(t, all); m.Topic != "/clock" || m.Type != "gz.msgs.WorldStatistics" {
		t.Fatalf("got %+v", m)
	}
	if all.Topic() != "" {
		t.Fatalf("Topic() = %q", all.Topic())
	}
	if ti := bus.Topics(); ti[0].Subscribers != 1 || ti[1].Subscribers != 1 {
		t.Fatalf("Topics() = %+v, want the SubscribeAll counted", ti)
	}
	all.Close()
	if _, ok := <-all.C(); ok {
		t.Fatal("C() not closed after Close")
	}
	_ = bus.Publish("/clock", &msgs.WorldStatistics{}, 0) // must not panic on the closed subscription
}

func TestHasSubscribers(t *testing.T) {
	bus := NewBus(Options{})
	if bus.HasSubscribers("/a") {
		t.Fatal("unknown topic has subscribers")
	}
	s := bus.Subscribe("/a")
	if !bus.HasSubscribers("/a") || bus.HasSubscribers("/b") {
		t.Fatal("after Subscribe(/a): want /a true, /b false")
	}
	s.Close()
	s.Close() // idempotent
	if bus.HasSubscribers("/a") {
		t.Fatal("true after the only subscription closed")
	}
	all := bus.SubscribeAll()
	if !bus.HasSubscribers("/anything") {
		t.Fatal("SubscribeAll should make every topic subscribed")
	}
	keep := bus.Subscribe("/a")
	_ = bus.Publish("/a", &msgs.Empty{}, 0)
	bus.Close()
	bus.Close()
	if bus.HasSubscribers("/a") || bus.HasSubscribers("/anything") {
		t.Fatal("true after Bus.Close")
	}
	// Buffered messages stay readable, then the channels are closed.
	if m, ok := <-keep.C(); !ok || m.Type != "gz.msgs.Empty" {
		t.Fatalf("buffered message lost: %+v %v", m, ok)
	}
	for _, c := range []<-chan Message{keep.C(), all.C()} {
		for range c { // drain what is left; the loop ends only if c is closed
		}
	}
	if err := bus.Publish("/a", &msgs.Empty{}, 0); !errors.Is(err, ErrClosed) {
		t.Fatalf("Publish after Close: %v", err)
	}
	if err := bus.DeclareTopic("/a", "gz.msgs.Empty"); !errors.Is(err, ErrClosed) {
		t.Fatalf("DeclareTopic after Close: %v", err)
	}
	late := bus.Subscribe("/a")
	if _, ok := <-late.C(); ok {
		t.Fatal("Subscribe after Close should return a closed subscription")
	}
	if _, ok := <-bus.SubscribeAll().C(); ok {
		t.Fatal("SubscribeAll after Close should return a closed subscription")
	}
}

// Many goroutines publish at once on one topic while subscriptions come and
// go; every message is accounted for and each publisher's order is kept.
func TestConcurrentPublish(t *testing.T) {
	const publishers, each = 8, 500
	bus := NewBus(Options{})
	defer bus.Close()
	full := bus.Subscribe("/t", WithQueueLen(publishers*each))
	small := bus.SubscribeAll(WithQueueLen(16))

	var wg sync.WaitGroup
	for g := range publishers {
		wg.Go(func() {
			for i := range each {
				if err := bus.Publish("/t", &msgs.Int64{Data: int64(g*1_000_000 + i)}, 0); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	// Churn: subscribe and close while publishing.
	wg.Go(func() {
		for range 200 {
			s := bus.Subscribe("/t", WithQueueLen(2))
			_ = bus.HasSubscribers("/t")
			_ = bus.Topics()
			s.Close()
		}
	})
	// Read the small queue concurrently with the publishers.
	var smallRead uint64
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		for range small.C() {
			smallRead++
		}
	}()
	wg.Wait()

	last := make([]int, publishers)
	for i := range last {
		last[i] = -1
	}
	for range publishers * each {
		v := recv(t, full).Msg.(*msgs.Int64).Data
		g, i := int(v/1_000_000), int(v%1_000_000)
		if i != last[g]+1 {
			t.Fatalf("publisher %d: message %d after %d", g, i, last[g])
		}
		last[g] = i
	}
	empty(t, full)
	if full.Dropped() != 0 {
		t.Fatalf("full queue dropped %d", full.Dropped())
	}
	small.Close()
	<-readDone
	if got := smallRead + small.Dropped(); got != publishers*each {
		t.Fatalf("SubscribeAll read %d + dropped %d = %d, want %d", smallRead, small.Dropped(), got, publishers*each)
	}
	if ti := bus.Topics()[0]; ti.Published != publishers*each {
		t.Fatalf("Published = %d", ti.Published)
	}
}

func TestEmptyTopicName(t *testing.T) {
	bus := NewBus(Options{})
	defer bus.Close()
	if err := bus.Publish("", &msgs.Empty{}, 0); err == nil {
		t.Fatal("Publish accepted an empty topic name")
	}
	if err := bus.DeclareTopic("", "gz.msgs.Empty"); err == nil {
		t.Fatal("DeclareTopic accepted an empty topic name")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("Subscribe(\"\") did not panic")
		}
	}()
	bus.Subscribe("")
}

// A subscription is seen by the next HasSubscribers whether its topic is new to the bus or was
// subscribed to before, with lookups between the subscriptions as a running world makes them.
func TestHasSubscribersSeesEverySubscription(t *testing.T) {
	bus := NewBus(Options{})
	const n = 200
	for i := range n {
		name := "/r" + strconv.Itoa(i) + "/odom"
		if bus.HasSubscribers(name) {
			t.Fatalf("%s has subscribers before any", name)
		}
		s := bus.Subscribe(name)
		if !bus.HasSubscribers(name) {
			t.Fatalf("%s: no subscribers right after Subscribe", name)
		}
		if i%2 == 0 {
			s.Close()
			if bus.HasSubscribers(name) {
				t.Fatalf("%s: subscribers after its only one closed", name)
			}
			bus.Subscribe(name)
			if !bus.HasSubscribers(name) {
				t.Fatalf("%s: no subscribers after subscribing again", name)
			}
		}
	}
	for i := range n {
		if name := "/r" + strconv.Itoa(i) + "/odom"; !bus.HasSubscribers(name) {
			t.Fatalf("%s lost its subscriber", name)
		}
	}
}
