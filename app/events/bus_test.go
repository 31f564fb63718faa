package events

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
)

func TestHandlersRunInPriorityThenRegistrationOrder(t *testing.T) {
	b := NewBus(nil)
	var got []string
	add := func(label string, prio int) {
		b.On("E", func(Event) { got = append(got, label) }, prio)
	}
	add("p10-first", 10)
	add("p0-first", 0)
	add("p-5", -5)
	add("p10-second", 10)
	add("p0-second", 0)
	b.Emit("E", nil)
	want := "p-5 p0-first p0-second p10-first p10-second"
	if s := strings.Join(got, " "); s != want {
		t.Fatalf("order %q, want %q", s, want)
	}
}

func TestPanickingHandlerIsLoggedAndLaterHandlersRun(t *testing.T) {
	var logs bytes.Buffer
	b := NewBus(slog.New(slog.NewTextHandler(&logs, nil)))
	ran := false
	b.On(CollisionStarted, func(Event) { panic("boom") }, 0)
	b.On(CollisionStarted, func(Event) { ran = true }, 1)
	b.Emit(CollisionStarted, Collision{})
	if !ran {
		t.Fatal("handler after the panicking one did not run")
	}
	out := logs.String()
	for _, want := range []string{"COLLISION_STARTED", "boom", "TestPanickingHandlerIsLoggedAndLaterHandlersRun"} {
		if !strings.Contains(out, want) {
			t.Errorf("log %q lacks %q", out, want)
		}
	}
}

func TestOffByHandle(t *testing.T) {
	b := NewBus(nil)
	n := 0
	h := b.On("E", func(Event) { n++ }, 0)
	b.On("E", func(Event) { n += 10 }, 0)
	b.Emit("E", nil)
	if !b.Off(h) {
		t.Fatal("Off returned false for a live handle")
	}
	if b.Off(h) {
		t.Fatal("Off returned true twice")
	}
	b.Emit("E", nil)
	if n != 21 {
		t.Fatalf("n = %d, want 11 after the first emit and +10 after Off", n)
	}
}

func TestPayloadAndCustomNames(t *testing.T) {
	b := NewBus(nil)
	var got Event
	b.On("my.custom", func(e Event) { got = e }, 0)
	b.Emit("my.custom", 42)
	if got.Name != "my.custom" || got.Data != 42 {
		t.Fatalf("got %+v", got)
	}
	if b.HasHandlers(PreStep) || !b.HasHandlers("my.custom") {
		t.Fatal("HasHandlers wrong")
	}
	b.Clear("")
	if b.HasHandlers("my.custom") {
		t.Fatal("Clear left a handler")
	}
}

func TestSubscribeDuringEmitAppliesNextTime(t *testing.T) {
	b := NewBus(nil)
	calls := 0
	b.On("E", func(Event) {
		b.On("E", func(Event) { calls++ }, 0)
	}, 0)
	b.Emit("E", nil)
	if calls != 0 {
		t.Fatalf("handler added during Emit ran in the same Emit")
	}
	b.Emit("E", nil)
	if calls != 1 {
		t.Fatalf("calls = %d, want 1", calls)
	}
}

func TestConcurrentUse(t *testing.T) {
	b := NewBus(nil)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 200; j++ {
				h := b.On("E", func(Event) {}, j%3)
				b.Emit("E", nil)
				b.Off(h)
			}
		}()
	}
	wg.Wait()
	if b.HasHandlers("E") {
		t.Fatal("handlers left after every goroutine unsubscribed")
	}
}
