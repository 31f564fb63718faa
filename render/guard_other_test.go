//go:build !linux

package render

import "testing"

// guardedUint64s returns n uint64s (guard pages are made on Linux only).
func guardedUint64s(_ *testing.T, n int) []uint64 { return make([]uint64, n) }
