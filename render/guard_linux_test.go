package render

import (
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// guardedUint64s returns n uint64s with unreadable pages right before and right after them,
// so that a kernel reading past either end crashes the test rather than reading on.
func guardedUint64s(t *testing.T, n int) []uint64 {
	page := unix.Getpagesize()
	size := (8*n + page - 1) / page * page
	mem, err := unix.Mmap(-1, 0, size+2*page, unix.PROT_NONE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Munmap(mem) })
	if err := unix.Mprotect(mem[page:page+size], unix.PROT_READ|unix.PROT_WRITE); err != nil {
		t.Fatal(err)
	}
	// The end at the upper guard page; the start as close to the lower one as 8-byte
	// alignment allows.
	return unsafe.Slice((*uint64)(unsafe.Pointer(&mem[page+size-8*n])), n)
}
