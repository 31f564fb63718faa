//go:build !linux

package renderbench

import "time"

// threadCPU returns 0 where the thread's CPU time is not read: the benchmarks then report
// wall-clock rates only.
func threadCPU() time.Duration { return 0 }
