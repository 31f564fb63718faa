package renderbench

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU is the CPU time the calling OS thread has used. The realism benchmarks lock their
// goroutine to its thread and report frames per CPU second beside frames per second: on a
// machine shared with other work the wall clock counts the time other processes run, the
// thread's CPU time does not.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
