package transport

import (
	"fmt"
	"log/slog"
	"testing"
	"time"

	"simgui/app/bench"
	"simgui/app/transport/msgs"
)

// Benchmarks for `simgui bench` and `go test -bench` (see bench_test.go). The
// publish cases read every message back inline, so each op is one publish plus
// one receive per subscriber with no goroutine scheduling in the measurement;
// the baseline is the same on a bare buffered channel.
func init() {
	const base = "transport/publish/chan"
	bench.Register(bench.Case{Name: base, Doc: "baseline: send and receive one Message on a buffered channel", F: benchChan})
	bench.Register(bench.Case{Name: "transport/publish/0subs", Baseline: base, Doc: "Publish a Twist on a topic nobody reads", F: benchPublish(0)})
	bench.Register(bench.Case{Name: "transport/publish/1sub", Baseline: base, Doc: "Publish a Twist and receive it on 1 subscription", F: benchPublish(1)})
	bench.Register(bench.Case{Name: "transport/publish/8subs", Baseline: base, Doc: "Publish a Twist and receive it on 8 subscriptions", F: benchPublish(8)})
	bench.Register(bench.Case{Name: "transport/publish/1sub-full", Baseline: base, Doc: "Publish a Twist to 1 full queue (drops the oldest each time)", F: benchPublishFull})
	bench.Register(bench.Case{Name: "transport/hassubscribers/1000topics", Doc: "HasSubscribers over 1000 topics, half subscribed", F: benchHasSubscribers})
}

func benchMessage() *msgs.Twist {
	return &msgs.Twist{Linear: &msgs.Vector3D{X: 0.3}, Angular: &msgs.Vector3D{Z: 0.1}}
}

func quietBus() *Bus {
	return NewBus(Options{Logger: slog.New(slog.DiscardHandler)})
}

func benchChan(b *testing.B) {
	ch := make(chan Message, DefaultQueueLen)
	m := Message{Topic: "/model/car/cmd_vel", Type: "gz.msgs.Twist", Msg: benchMessage()}
	b.ReportAllocs()
	for i := range b.N {
		m.Stamp = time.Duration(i)
		ch <- m
		<-ch
	}
}

func benchPublish(subs int) func(*testing.B) {
	return func(b *testing.B) {
		bus := quietBus()
		defer bus.Close()
		ss := make([]*Subscription, subs)
		for i := range ss {
			ss[i] = bus.Subscribe("/model/car/cmd_vel")
		}
		m := benchMessage()
		b.ReportAllocs()
		b.ResetTimer()
		for i := range b.N {
			if err := bus.Publish("/model/car/cmd_vel", m, time.Duration(i)); err != nil {
				b.Fatal(err)
			}
			for _, s := range ss {
				<-s.ch
			}
		}
	}
}

func benchPublishFull(b *testing.B) {
	bus := quietBus()
	defer bus.Close()
	s := bus.Subscribe("/model/car/cmd_vel", WithQueueLen(4))
	m := benchMessage()
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if err := bus.Publish("/model/car/cmd_vel", m, time.Duration(i)); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if b.N > 4 && s.Dropped() != uint64(b.N-4) {
		b.Fatalf("dropped %d of %d", s.Dropped(), b.N)
	}
}

func benchHasSubscribers(b *testing.B) {
	bus := quietBus()
	defer bus.Close()
	names := make([]string, 1000)
	for i := range names {
		names[i] = fmt.Sprintf("/model/car%d/pose", i)
		if i%2 == 0 {
			bus.Subscribe(names[i])
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for i := range b.N {
		if bus.HasSubscribers(names[i%len(names)]) {
			n++
		}
	}
	b.StopTimer()
	if want := (b.N + 1) / 2; n != want {
		b.Fatalf("%d topics with subscribers, want %d", n, want)
	}
}
