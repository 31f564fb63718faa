package transport

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"simgui/app/transport/msgs"
)

// pauseEcho answers a WorldControl with Boolean{Data: pause}.
func pauseEcho(_ context.Context, req proto.Message) (proto.Message, error) {
	return &msgs.Boolean{Data: req.(*msgs.WorldControl).Pause}, nil
}

func TestCallOK(t *testing.T) {
	bus := NewBus(Options{})
	defer bus.Close()
	stop, err := bus.Advertise("/world/w/control", "gz.msgs.WorldControl", "ignition.msgs.Boolean", pauseEcho)
	if err != nil {
		t.Fatal(err)
	}
	for _, pause := range []bool{true, false} {
		rep, err := bus.Call(context.Background(), "/world/w/control", &msgs.WorldControl{Pause: pause}, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if b, ok := rep.(*msgs.Boolean); !ok || b.Data != pause {
			t.Fatalf("reply %v, want Boolean %v", rep, pause)
		}
	}
	want := []ServiceInfo{{Name: "/world/w/control", ReqType: "gz.msgs.WorldControl", RepType: "gz.msgs.Boolean", Calls: 2}}
	if got := bus.Services(); len(got) != 1 || got[0] != want[0] {
		t.Fatalf("Services() = %+v, want %+v", got, want)
	}
	stop()
	stop() // idempotent
	if _, err := bus.Call(context.Background(), "/world/w/control", &msgs.WorldControl{}, time.Second); !errors.Is(err, ErrNoService) {
		t.Fatalf("after unadvertise: %v", err)
	}
	if len(bus.Services()) != 0 {
		t.Fatal("service still listed")
	}
}

func TestCallTimeout(t *testing.T) {
	bus := NewBus(Options{})
	defer bus.Close()
	release, finished := make(chan struct{}), make(chan struct{})
	_, err := bus.Advertise("/slow", "gz.msgs.Empty", "gz.msgs.Empty", func(context.Context, proto.Message) (proto.Message, error) {
		defer close(finished)
		<-release // ignores ctx on purpose
		return &msgs.Empty{}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = bus.Call(context.Background(), "/slow", &msgs.Empty{}, 5*time.Millisecond)
	if !errors.Is(err, ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	if !strings.Contains(err.Error(), "/slow") {
		t.Fatalf("error %q does not name the service", err)
	}
	close(release)
	<-finished
}

func TestCallCancelled(t *testing.T) {
	bus := NewBus(Options{})
	defer bus.Close()
	started := make(chan struct{})
	_, _ = bus.Advertise("/wait", "gz.msgs.Empty", "gz.msgs.Empty", func(ctx context.Context, _ proto.Message) (proto.Message, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	_, err := bus.Call(ctx, "/wait", &msgs.Empty{}, 0)
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want context.Canceled only", err)
	}
}

func TestCallErrors(t *testing.T) {
	var logged bytes.Buffer
	bus := NewBus(Options{Logger: slog.New(slog.NewTextHandler(&logged, nil))})
	ctx := context.Background()
	if _, err := bus.Call(ctx, "/nobody", &msgs.Empty{}, time.Second); !errors.Is(err, ErrNoService) {
		t.Fatalf("unknown service: %v", err)
	}
	if _, err := bus.Advertise("/s", "gz.msgs.WorldControl", "gz.msgs.Boolean", pauseEcho); err != nil {
		t.Fatal(err)
	}
	if _, err := bus.Advertise("/s", "gz.msgs.Empty", "gz.msgs.Empty", pauseEcho); !errors.Is(err, ErrServiceExists) {
		t.Fatalf("duplicate advertise: %v", err)
	}
	if _, err := bus.Advertise("/t", "gz.msgs.Nope", "gz.msgs.Empty", pauseEcho); !errors.Is(err, msgs.ErrUnknownType) {
		t.Fatalf("unknown request type: %v", err)
	}
	if _, err := bus.Advertise("/t", "gz.msgs.Empty", "gz.msgs.Empty", nil); err == nil {
		t.Fatal("nil handler accepted")
	}
	_, err := bus.Call(ctx, "/s", &msgs.Twist{}, time.Second)
	if !errors.Is(err, ErrTypeMismatch) || !strings.Contains(err.Error(), "gz.msgs.Twist") || !strings.Contains(err.Error(), "gz.msgs.WorldControl") {
		t.Fatalf("wrong request type: %v", err)
	}
	if got := bus.Services()[0].Calls; got != 0 {
		t.Fatalf("refused call reached the handler: Calls = %d", got)
	}

	boom := errors.New("boom")
	_, _ = bus.Advertise("/fails", "gz.msgs.Empty", "gz.msgs.Empty", func(context.Context, proto.Message) (proto.Message, error) {
		return nil, boom
	})
	if _, err := bus.Call(ctx, "/fails", &msgs.Empty{}, time.Second); !errors.Is(err, boom) {
		t.Fatalf("handler error: %v", err)
	}
	_, _ = bus.Advertise("/badreply", "gz.msgs.Empty", "gz.msgs.Boolean", func(context.Context, proto.Message) (proto.Message, error) {
		return &msgs.Empty{}, nil
	})
	if _, err := bus.Call(ctx, "/badreply", &msgs.Empty{}, time.Second); !errors.Is(err, ErrTypeMismatch) {
		t.Fatalf("wrong reply type: %v", err)
	}
	_, _ = bus.Advertise("/panics", "gz.msgs.Empty", "gz.msgs.Empty", func(context.Context, proto.Message) (proto.Message, error) {
		panic("bad handler")
	})
	if _, err := bus.Call(ctx, "/panics", &msgs.Empty{}, time.Second); err == nil || !strings.Contains(err.Error(), "bad handler") {
		t.Fatalf("panicking handler: %v", err)
	}
	if !strings.Contains(logged.String(), "service=/panics") {
		t.Fatalf("panic not logged: %q", logged.String())
	}

	bus.Close()
	if _, err := bus.Call(ctx, "/s", &msgs.WorldControl{}, time.Second); !errors.Is(err, ErrClosed) {
		t.Fatalf("call after Close: %v", err)
	}
	if _, err := bus.Advertise("/u", "gz.msgs.Empty", "gz.msgs.Empty", pauseEcho); !errors.Is(err, ErrClosed) {
		t.Fatalf("advertise after Close: %v", err)
	}
}
