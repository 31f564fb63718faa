package fastpath

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// sharedMemory is an anonymous memory file (memfd) mapped into this process; its descriptor
// goes to the client, which maps the same pages. It has no name in any file system, so no
// path can be given, guessed or left behind; the pages go when both sides have unmapped them.
type sharedMemory struct {
	fd  int
	mem []byte
}

func newSharedMemory(name string, size int) (*sharedMemory, error) {
	fd, err := unix.MemfdCreate(name, unix.MFD_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("shared memory: memfd_create: %w", err)
	}
	if err := unix.Ftruncate(fd, int64(size)); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("shared memory: %d bytes: %w", size, err)
	}
	mem, err := unix.Mmap(fd, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("shared memory: mmap %d bytes: %w", size, err)
	}
	return &sharedMemory{fd: fd, mem: mem}, nil
}

// rights is the ancillary data that passes the descriptor over a Unix socket.
func (m *sharedMemory) rights() []byte { return unix.UnixRights(m.fd) }

// close unmaps the memory and closes the descriptor. Nothing may touch mem afterwards.
func (m *sharedMemory) close() error {
	err := unix.Munmap(m.mem)
	if cerr := unix.Close(m.fd); err == nil {
		err = cerr
	}
	m.mem = nil
	return err
}
