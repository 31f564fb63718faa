package bridge

import (
	"log/slog"
	"runtime/debug"
)

// recovered, deferred directly, stops a panic of the goroutine it was deferred in and logs it
// with args (the port and peer, or the model): a peer's connection, a handler or a feeder that
// fails ends alone and the world keeps stepping.
func recovered(log *slog.Logger, msg string, args ...any) {
	r := recover()
	if r == nil {
		return
	}
	log.Error(msg, append(args, "panic", r, "stack", string(debug.Stack()))...)
}

// syncGuarded is sync for the discovery goroutine: a failure is logged and the next tick
// tries again.
func (b *Bridge) syncGuarded() {
	defer recovered(b.log, "bridge: following the world's models failed")
	b.sync()
}
