package transport

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sort"
	"sync/atomic"
	"time"

	"google.golang.org/protobuf/proto"

	"simgui/app/transport/msgs"
)

// Handler answers one service request. It runs on its own goroutine, possibly
// several at once, and should return when ctx is done (Call stops waiting then
// anyway). req is shared with the caller: read it, do not modify it.
type Handler func(ctx context.Context, req proto.Message) (proto.Message, error)

// ServiceInfo describes an advertised service.
type ServiceInfo struct {
	Name    string
	ReqType string // full message name of the request
	RepType string // full message name of the reply
	Calls   uint64 // calls that reached the handler
}

type service struct {
	name             string
	reqType, repType string
	h                Handler
	calls            atomic.Uint64
}

// Advertise offers the service name, taking requests of the full message type
// reqType and answering repType (for example "gz.msgs.WorldControl" and
// "gz.msgs.Boolean"). Both types must be known to msgs.Lookup. A name already
// advertised returns ErrServiceExists. The returned func withdraws the service
// (idempotent; calls in progress finish).
func (b *Bus) Advertise(name, reqType, repType string, h Handler) (unadvertise func(), err error) {
	if name == "" || h == nil {
		return nil, errors.New("advertise: need a service name and a handler")
	}
	req, err := msgs.Lookup(reqType)
	if err != nil {
		return nil, fmt.Errorf("advertise %s: request: %w", name, err)
	}
	rep, err := msgs.Lookup(repType)
	if err != nil {
		return nil, fmt.Errorf("advertise %s: reply: %w", name, err)
	}
	s := &service{
		name:    name,
		reqType: string(req.Descriptor().FullName()),
		repType: string(rep.Descriptor().FullName()),
		h:       h,
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, fmt.Errorf("advertise %s: %w", name, ErrClosed)
	}
	if _, dup := b.services[name]; dup {
		return nil, fmt.Errorf("advertise %s: %w", name, ErrServiceExists)
	}
	b.services[name] = s
	return func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		if b.services[name] == s {
			delete(b.services, name)
		}
	}, nil
}

// Call sends req to the service name and waits for the reply, at most timeout
// (timeout <= 0: only ctx limits the wait). Errors: ErrNoService for an unknown
// name; ErrTypeMismatch for a request or reply of the wrong type; ErrTimeout
// (also matching context.DeadlineExceeded) when the deadline passes, even if
// the handler ignores ctx, which then finishes in the background; the
// handler's own error, wrapped. The caller must not modify req until Call
// returns, nor after if the handler may still be running.
func (b *Bus) Call(ctx context.Context, name string, req proto.Message, timeout time.Duration) (proto.Message, error) {
	b.mu.RLock()
	closed, s := b.closed, b.services[name]
	b.mu.RUnlock()
	if closed {
		return nil, fmt.Errorf("call %s: %w", name, ErrClosed)
	}
	if s == nil {
		return nil, fmt.Errorf("call %s: %w", name, ErrNoService)
	}
	if req == nil {
		return nil, fmt.Errorf("call %s: nil request", name)
	}
	if got := string(req.ProtoReflect().Descriptor().FullName()); got != s.reqType {
		return nil, fmt.Errorf("call %s: %w: service takes %s, got %s", name, ErrTypeMismatch, s.reqType, got)
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}

	type result struct {
		rep proto.Message
		err error
	}
	done := make(chan result, 1) // buffered: a late handler must not block forever
	s.calls.Add(1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				b.log.Error("transport: service handler panicked",
					slog.String("service", name), slog.Any("panic", p), slog.String("stack", string(debug.Stack())))
				done <- result{err: fmt.Errorf("handler panicked: %v", p)}
			}
		}()
		rep, err := s.h(ctx, req)
		done <- result{rep, err}
	}()

	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
		select {
		case r = <-done: // answered at the same moment: prefer the answer
		default:
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				if timeout > 0 {
					return nil, fmt.Errorf("call %s: %w after %v (%w)", name, ErrTimeout, timeout, ctx.Err())
				}
				return nil, fmt.Errorf("call %s: %w (%w)", name, ErrTimeout, ctx.Err())
			}
			return nil, fmt.Errorf("call %s: %w", name, ctx.Err())
		}
	}
	if r.err != nil {
		return nil, fmt.Errorf("call %s: %w", name, r.err)
	}
	if r.rep == nil {
		return nil, fmt.Errorf("call %s: handler returned no reply", name)
	}
	if got := string(r.rep.ProtoReflect().Descriptor().FullName()); got != s.repType {
		return nil, fmt.Errorf("call %s: %w: service replies %s, handler returned %s", name, ErrTypeMismatch, s.repType, got)
	}
	return r.rep, nil
}

// Services returns the advertised services sorted by name.
func (b *Bus) Services() []ServiceInfo {
	b.mu.RLock()
	defer b.mu.RUnlock()
	out := make([]ServiceInfo, 0, len(b.services))
	for _, s := range b.services {
		out = append(out, ServiceInfo{Name: s.name, ReqType: s.reqType, RepType: s.repType, Calls: s.calls.Load()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
