// Package transportbench holds the bus's benchmarks for `simgui bench` and `go test -bench`.
// The publish cases read every message back inline, so each op is one publish plus one
// receive per subscriber with no goroutine scheduling in the measurement; the baseline is the
// same on a bare buffered channel.
package transportbench

import (
	"fmt"
	"log/slog"
	"time"

	"simgui/app/bench"
	"simgui/app/transport"
	"simgui/app/transport/msgs"
)

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

func quietBus() *transport.Bus {
	return transport.NewBus(transport.Options{Logger: slog.New(slog.DiscardHandler)})
}

func benchChan(b bench.B) {
	ch := make(chan transport.Message, transport.DefaultQueueLen)
	m := transport.Message{Topic: "/model/car/cmd_vel", Type: "gz.msgs.Twist", Msg: benchMessage()}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		m.Stamp = time.Duration(i)
		ch <- m
		<-ch
	}
}

func benchPublish(subs int) func(bench.B) {
	return func(b bench.B) {
		bus := quietBus()
		defer bus.Close()
		cs := make([]<-chan transport.Message, subs)
		for i := range cs {
			cs[i] = bus.Subscribe("/model/car/cmd_vel").C()
		}
		m := benchMessage()
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if err := bus.Publish("/model/car/cmd_vel", m, time.Duration(i)); err != nil {
				b.Fatal(err)
			}
			for _, c := range cs {
				<-c
			}
		}
	}
}

// benchPublishFull checks the drop-oldest policy too: every publish past the queue's four
// drops one message, whatever the machine's load.
func benchPublishFull(b bench.B) {
	bus := quietBus()
	defer bus.Close()
	s := bus.Subscribe("/model/car/cmd_vel", transport.WithQueueLen(4))
	m := benchMessage()
	b.ReportAllocs()
	ops := 0
	for b.Loop() {
		if err := bus.Publish("/model/car/cmd_vel", m, time.Duration(ops)); err != nil {
			b.Fatal(err)
		}
		ops++
	}
	if ops > 4 && s.Dropped() != uint64(ops-4) {
		b.Fatalf("dropped %d of %d", s.Dropped(), ops)
	}
}

func benchHasSubscribers(b bench.B) {
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
	n, ops := 0, 0
	for b.Loop() {
		if bus.HasSubscribers(names[ops%len(names)]) {
			n++
		}
		ops++
	}
	if want := (ops + 1) / 2; n != want {
		b.Fatalf("%d topics with subscribers, want %d", n, want)
	}
}
