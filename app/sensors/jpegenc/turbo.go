//go:build !headless

package jpegenc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// TurboBuilt reports whether this build can load libturbojpeg (false in the headless build).
const TurboBuilt = true

// TurboJPEG 2 API constants (turbojpeg.h).
const (
	tjpfRGB         = 0    // TJPF_RGB: packed R, G, B bytes
	tjsamp420       = 2    // TJSAMP_420
	tjflagNoRealloc = 1024 // TJFLAG_NOREALLOC: write into our buffer, never realloc it
)

// Turbo encodes with libjpeg-turbo's TurboJPEG API loaded at run time through purego. Create it
// with [NewTurbo]; safe for concurrent use.
type Turbo struct {
	name string

	// Function pointers resolved from the library.
	initCompress, compress2, destroy, bufSize, alloc, free, errorStr uintptr
	errorStrTakesHandle                                              bool

	mu   sync.Mutex
	idle []*compressor
}

// compressor is one TurboJPEG handle with its output buffer. Everything the library writes
// through a pointer lives in C memory (tjAlloc), so no Go pointer is ever stored by C code.
type compressor struct {
	handle uintptr
	out    uintptr // tjAlloc'd output buffer of outCap bytes
	outCap uintptr
	cells  uintptr // tjAlloc'd [2]uintptr: jpegBuf, jpegSize (unsigned long is 64-bit on LP64)
	w, h   int     // frame size out was sized for

	args [11]uintptr // tjCompress2's arguments, reused
	pin  []byte      // the frame being encoded, during the call only
}

// NewTurbo loads libturbojpeg from libPath ("" means [LibName], found through the loader's
// search path) and resolves the functions it calls. The error says what was missing.
func NewTurbo(libPath string) (*Turbo, error) {
	if libPath == "" {
		libPath = LibName
	}
	lib, err := purego.Dlopen(libPath, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		return nil, fmt.Errorf("load libturbojpeg %s: %w", libPath, err)
	}
	t := &Turbo{}
	for _, s := range []struct {
		name string
		p    *uintptr
	}{
		{"tjInitCompress", &t.initCompress},
		{"tjCompress2", &t.compress2},
		{"tjDestroy", &t.destroy},
		{"tjBufSize", &t.bufSize},
		{"tjAlloc", &t.alloc},
		{"tjFree", &t.free},
	} {
		if *s.p, err = purego.Dlsym(lib, s.name); err != nil {
			_ = purego.Dlclose(lib)
			return nil, fmt.Errorf("load libturbojpeg %s: not a usable TurboJPEG library: %w", libPath, err)
		}
	}
	// tjGetErrorStr2(handle) is 2.0+ and thread-safe; tjGetErrorStr() is the old global one.
	if p, err := purego.Dlsym(lib, "tjGetErrorStr2"); err == nil {
		t.errorStr, t.errorStrTakesHandle = p, true
	} else if p, err := purego.Dlsym(lib, "tjGetErrorStr"); err == nil {
		t.errorStr = p
	}
	version := libraryVersion(libPath)
	if version == "" {
		version = "(version unknown)"
	}
	t.name = "libturbojpeg " + version + " (purego)"

	// Prove the library works before we commit to it.
	c, err := t.newCompressor()
	if err != nil {
		return nil, fmt.Errorf("load libturbojpeg %s: %w", libPath, err)
	}
	t.put(c)
	return t, nil
}

// Name returns "libturbojpeg <version> (purego)".
func (t *Turbo) Name() string { return t.name }

// Encode implements [Encoder]. The JPEG is written into the compressor's C buffer and copied to
// dst, so nothing is allocated once dst has room and the compressor has seen this frame size.
func (t *Turbo) Encode(dst, pix []byte, w, h, stride, quality int) ([]byte, error) {
	if err := checkFrame(pix, w, h, stride, quality); err != nil {
		return dst, err
	}
	c, err := t.get()
	if err != nil {
		return dst, err
	}
	defer t.put(c)
	if c.w != w || c.h != h {
		if err := t.sizeFor(c, w, h); err != nil {
			return dst, err
		}
	}
	cells := (*[2]uintptr)(cPtr(c.cells))
	cells[0], cells[1] = c.out, c.outCap
	// The arguments go through a slice kept in the compressor: a variadic call would allocate
	// its argument array on every frame. pix's address travels as a plain uintptr, so it must
	// stay alive and unmoved until the call returns: c.pin makes it escape (Go's heap does not
	// move objects) and KeepAlive keeps it reachable.
	c.pin = pix
	c.args = [...]uintptr{c.handle,
		uintptr(unsafe.Pointer(&pix[0])), uintptr(w), uintptr(stride), uintptr(h), tjpfRGB,
		c.cells, c.cells + unsafe.Sizeof(uintptr(0)),
		tjsamp420, uintptr(quality), tjflagNoRealloc}
	r, _, _ := purego.SyscallN(t.compress2, c.args[:]...)
	runtime.KeepAlive(pix)
	c.pin, c.args[1] = nil, 0
	if int32(r) != 0 {
		return dst, fmt.Errorf("jpeg encode %dx%d: tjCompress2: %s", w, h, t.errString(c.handle))
	}
	if cells[0] != c.out || cells[1] > c.outCap {
		return dst, fmt.Errorf("jpeg encode %dx%d: tjCompress2 moved the output buffer despite NOREALLOC", w, h)
	}
	return append(dst, unsafe.Slice((*byte)(cPtr(c.out)), cells[1])...), nil
}

// sizeFor makes c's output buffer large enough for any w×h 4:2:0 JPEG (tjBufSize's bound).
func (t *Turbo) sizeFor(c *compressor, w, h int) error {
	need, _, _ := purego.SyscallN(t.bufSize, uintptr(w), uintptr(h), tjsamp420)
	if need == ^uintptr(0) || need == 0 {
		return fmt.Errorf("jpeg encode %dx%d: tjBufSize: %s", w, h, t.errString(0))
	}
	if need > c.outCap {
		purego.SyscallN(t.free, c.out)
		c.out, c.outCap = 0, 0
		p, _, _ := purego.SyscallN(t.alloc, need)
		if p == 0 {
			return fmt.Errorf("jpeg encode %dx%d: tjAlloc(%d) failed", w, h, need)
		}
		c.out, c.outCap = p, need
	}
	c.w, c.h = w, h
	return nil
}

// Close frees the idle compressor handles and their buffers. The encoder stays usable: a later
// Encode creates a new handle. Call it when a Turbo is no longer needed (tests, tools).
func (t *Turbo) Close() error {
	t.mu.Lock()
	idle := t.idle
	t.idle = nil
	t.mu.Unlock()
	for _, c := range idle {
		t.release(c)
	}
	return nil
}

func (t *Turbo) get() (*compressor, error) {
	t.mu.Lock()
	if n := len(t.idle); n > 0 {
		c := t.idle[n-1]
		t.idle = t.idle[:n-1]
		t.mu.Unlock()
		return c, nil
	}
	t.mu.Unlock()
	return t.newCompressor()
}

func (t *Turbo) put(c *compressor) {
	t.mu.Lock()
	t.idle = append(t.idle, c)
	t.mu.Unlock()
}

func (t *Turbo) newCompressor() (*compressor, error) {
	h, _, _ := purego.SyscallN(t.initCompress)
	if h == 0 {
		return nil, fmt.Errorf("tjInitCompress: %s", t.errString(0))
	}
	cells, _, _ := purego.SyscallN(t.alloc, 2*unsafe.Sizeof(uintptr(0)))
	if cells == 0 {
		purego.SyscallN(t.destroy, h)
		return nil, errors.New("tjAlloc failed for the output pointers")
	}
	return &compressor{handle: h, cells: cells}, nil
}

func (t *Turbo) release(c *compressor) {
	purego.SyscallN(t.destroy, c.handle)
	purego.SyscallN(t.free, c.out) // tjFree(NULL) is a no-op, like free
	purego.SyscallN(t.free, c.cells)
}

// errString returns the library's last error message for handle (0 = global).
func (t *Turbo) errString(handle uintptr) string {
	if t.errorStr == 0 {
		return "unknown error"
	}
	var p uintptr
	if t.errorStrTakesHandle {
		p, _, _ = purego.SyscallN(t.errorStr, handle)
	} else {
		p, _, _ = purego.SyscallN(t.errorStr)
	}
	if p == 0 {
		return "unknown error"
	}
	var b strings.Builder
	for i := uintptr(0); i < 512; i++ {
		c := *(*byte)(cPtr(p + i))
		if c == 0 {
			break
		}
		b.WriteByte(c)
	}
	return b.String()
}

// cPtr turns an address of C memory into an unsafe.Pointer. C memory is not managed by the Go
// collector, so holding it as uintptr is safe; the double conversion keeps go vet's unsafeptr
// check, meant for Go memory, quiet.
func cPtr(p uintptr) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&p)) }

var versionRE = regexp.MustCompile(`libjpeg-turbo version ([0-9]+\.[0-9]+\.[0-9]+)`)

// libraryVersion finds the libjpeg-turbo version string that the library file carries in its
// read-only data ("libjpeg-turbo version 2.1.5 (build ...)"). TurboJPEG has no version call
// before 3.0, so this reads the file the loader mapped, found in /proc/self/maps. It returns ""
// when anything is missing; the version is only for reports.
func libraryVersion(libPath string) string {
	file := libPath
	if !filepath.IsAbs(libPath) {
		file = mappedFile(filepath.Base(libPath))
	}
	if file == "" {
		return ""
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return ""
	}
	if m := versionRE.FindSubmatch(data); m != nil {
		return string(m[1])
	}
	return ""
}

// mappedFile returns the path of the first file mapped into this process whose base name starts
// with base (the soname libturbojpeg.so.0 maps libturbojpeg.so.0.2.0), or "".
func mappedFile(base string) string {
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Bytes()
		i := bytes.IndexByte(line, '/')
		if i < 0 {
			continue
		}
		path := string(line[i:])
		if strings.HasPrefix(filepath.Base(path), base) {
			return path
		}
	}
	return ""
}
