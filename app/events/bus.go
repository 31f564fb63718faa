package events

import (
	"fmt"
	"log/slog"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
)

// Event is what a handler receives.
type Event struct {
	Name Name
	Data any
}

// Handler handles one event.
type Handler func(Event)

// Handle identifies a subscription; pass it to Off.
type Handle struct {
	name Name
	id   uint64
}

type sub struct {
	id       uint64
	priority int
	h        Handler
	label    string
}

// Bus dispatches named events to handlers. The zero value is not usable; call NewBus.
type Bus struct {
	log *slog.Logger

	mu     sync.Mutex
	nextID uint64
	// subs holds, per name, handlers sorted by (priority, id). Slices are replaced, never
	// mutated in place, so Emit can iterate a snapshot without holding the lock.
	subs map[Name][]sub
}

// NewBus returns an empty bus that logs handler panics to log (slog.Default() if nil).
func NewBus(log *slog.Logger) *Bus {
	if log == nil {
		log = slog.Default()
	}
	return &Bus{log: log, subs: map[Name][]sub{}}
}

// On subscribes h to name. Lower priorities run first; equal priorities run in registration
// order.
func (b *Bus) On(name Name, h Handler, priority int) Handle {
	if h == nil {
		panic("events: On with a nil handler")
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.nextID++
	s := sub{id: b.nextID, priority: priority, h: h, label: funcName(h)}
	list := b.subs[name]
	i, _ := slices.BinarySearchFunc(list, s, func(a, t sub) int {
		if a.priority != t.priority {
			return a.priority - t.priority
		}
		return int(a.id) - int(t.id)
	})
	next := make([]sub, 0, len(list)+1)
	next = append(next, list[:i]...)
	next = append(next, s)
	next = append(next, list[i:]...)
	b.subs[name] = next
	return Handle{name: name, id: s.id}
}

// Off removes the subscription h. It reports whether h was subscribed.
func (b *Bus) Off(h Handle) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	list := b.subs[h.name]
	for i, s := range list {
		if s.id == h.id {
			next := make([]sub, 0, len(list)-1)
			next = append(next, list[:i]...)
			next = append(next, list[i+1:]...)
			if len(next) == 0 {
				delete(b.subs, h.name)
			} else {
				b.subs[h.name] = next
			}
			return true
		}
	}
	return false
}

// Clear removes every handler of name, or of every name when name is "".
func (b *Bus) Clear(name Name) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if name == "" {
		b.subs = map[Name][]sub{}
		return
	}
	delete(b.subs, name)
}

// HasHandlers reports whether name has at least one handler. Emitters of costly payloads check it
// first.
func (b *Bus) HasHandlers(name Name) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.subs[name]) > 0
}

// Emit calls name's handlers in order with data. A panicking handler is logged and skipped.
func (b *Bus) Emit(name Name, data any) {
	b.mu.Lock()
	list := b.subs[name]
	b.mu.Unlock()
	if len(list) == 0 {
		return
	}
	ev := Event{Name: name, Data: data}
	for _, s := range list {
		b.call(s, ev)
	}
}

func (b *Bus) call(s sub, ev Event) {
	defer func() {
		if r := recover(); r != nil {
			b.log.Error("event handler panicked",
				"event", string(ev.Name), "handler", s.label, "panic", fmt.Sprint(r),
				"stack", string(debug.Stack()))
		}
	}()
	s.h(ev)
}

func funcName(h Handler) string {
	if f := runtime.FuncForPC(reflect.ValueOf(h).Pointer()); f != nil {
		return f.Name()
	}
	return "?"
}
