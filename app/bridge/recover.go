package bridge

import (
	"fmt"
	"log/slog"
	"runtime"
	"runtime/debug"
	"strings"
	"sync/atomic"

	"simgui/app/lograte"
)

// Panic logging is bounded: a peer can make zmq4 panic once per connection (a READY command
// with an unknown socket type), as fast as it can connect. The first panicStacks panics of
// the process are logged with their stacks; later ones with where they happened only, at most
// one a second, with how many were left out in between.
const panicStacks = 5

var panicLog = struct {
	n    atomic.Int64
	rate lograte.Limiter
}{rate: lograte.Limiter{Burst: 1}}

// recovered, deferred directly, stops a panic of the goroutine it was deferred in and logs it
// with args (the port and peer, or the model): a peer's connection, a handler or a feeder that
// fails ends alone and the world keeps stepping.
func recovered(log *slog.Logger, msg string, args ...any) {
	r := recover()
	if r == nil {
		return
	}
	args = append(args, "panic", r, "at", panicSite())
	if panicLog.n.Add(1) <= panicStacks {
		log.Error(msg, append(args, "stack", string(debug.Stack()))...)
		return
	}
	if ok, leftOut := panicLog.rate.Allow(); ok {
		log.Error(msg, append(args, "unloggedSinceLast", leftOut)...)
	}
}

// panicSite names the function that panicked and its line: the first frame below recovered
// outside the runtime.
func panicSite() string {
	var pcs [32]uintptr
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs[:])])
	for {
		f, more := frames.Next()
		if !strings.HasPrefix(f.Function, "runtime.") {
			return fmt.Sprintf("%s (%s:%d)", f.Function, f.File, f.Line)
		}
		if !more {
			return "unknown"
		}
	}
}

// syncGuarded is sync for the discovery goroutine: a failure is logged and the next tick
// tries again.
func (b *Bridge) syncGuarded() {
	defer recovered(b.log, "bridge: following the world's models failed")
	b.sync()
}
