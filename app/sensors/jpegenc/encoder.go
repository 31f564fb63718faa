package jpegenc

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
)

// Encoder encodes packed 8-bit RGB frames to baseline JPEG with 4:2:0 chroma subsampling.
type Encoder interface {
	// Encode appends the JPEG encoding of the w×h image in pix to dst and returns the extended
	// slice. pix holds rows top first, 3 bytes (R, G, B) per pixel, stride bytes from one row to
	// the next (stride >= 3*w); quality is 1..100 as in libjpeg. Safe for concurrent use.
	Encode(dst, pix []byte, w, h, stride, quality int) ([]byte, error)
	// Name says which implementation this is, for reports, e.g. "libturbojpeg 2.1.5 (purego)".
	Name() string
}

// LibName is the TurboJPEG library's soname, found through the dynamic loader's usual search
// (LD_LIBRARY_PATH, the ld.so cache, the default directories).
const LibName = "libturbojpeg.so.0"

// EnvVar is the environment variable that selects the encoder: "go" forces image/jpeg,
// "turbo" or empty means libturbojpeg when it loads.
const EnvVar = "SIMGUI_JPEG"

// ErrNoTurbo is NewTurbo's error in the headless build (-tags headless), a static binary
// that cannot load shared libraries: there, image/jpeg is the encoder and nobody is warned.
var ErrNoTurbo = errors.New("libturbojpeg cannot be loaded by this build (headless, static): image/jpeg encodes")

// Choose returns libturbojpeg loaded from libPath ("" means [LibName]) unless forceGo is set,
// and falls back to image/jpeg when the library is missing or lacks a function we call. notice
// is a one-line explanation of the fallback for the user, or "" when Turbo was loaded or the
// fallback was asked for.
func Choose(libPath string, forceGo bool) (enc Encoder, notice string) {
	if forceGo {
		return NewStdlib(), ""
	}
	t, err := NewTurbo(libPath)
	if errors.Is(err, ErrNoTurbo) {
		return NewStdlib(), ""
	}
	if err != nil {
		return NewStdlib(), fmt.Sprintf("jpeg: %v; encoding camera frames with image/jpeg "+
			"(about 8x slower; install Debian package libturbojpeg0 or set %s=go to silence this)",
			err, EnvVar)
	}
	return t, ""
}

var (
	forced      atomic.Bool
	defaultOnce sync.Once
	defaultEnc  Encoder
	stdlibEnc   = NewStdlib()
)

// ForceFallback makes [Default] return the image/jpeg encoder from now on, as SIMGUI_JPEG=go does.
// The CLI calls it for its flag before the sensors start.
func ForceFallback() { forced.Store(true) }

// Default returns the process-wide encoder, chosen on the first call: libturbojpeg if it loads,
// else image/jpeg with the notice logged once through slog. SIMGUI_JPEG=go or [ForceFallback]
// select image/jpeg. Safe to call from any goroutine.
func Default() Encoder {
	if forced.Load() {
		return stdlibEnc
	}
	defaultOnce.Do(func() {
		enc, notice := fromEnv()
		if notice != "" {
			slog.Warn(notice)
		}
		if _, ok := enc.(*Stdlib); ok {
			enc = stdlibEnc
		}
		defaultEnc = enc
	})
	return defaultEnc
}

// fromEnv chooses as SIMGUI_JPEG says; an unknown value is reported and ignored.
func fromEnv() (Encoder, string) {
	var forceGo bool
	var unknown string
	switch v := os.Getenv(EnvVar); v {
	case "go":
		forceGo = true
	case "", "turbo":
	default:
		unknown = fmt.Sprintf("jpeg: unknown %s=%q (known: go, turbo), ignored", EnvVar, v)
	}
	enc, notice := Choose(LibName, forceGo)
	switch {
	case unknown == "":
	case notice == "":
		notice = unknown
	default:
		notice = unknown + "; " + notice
	}
	return enc, notice
}

// checkFrame validates the arguments common to both encoders.
func checkFrame(pix []byte, w, h, stride, quality int) error {
	switch {
	case w <= 0 || h <= 0:
		return fmt.Errorf("jpeg encode: bad size %dx%d", w, h)
	case w > 65500 || h > 65500:
		return fmt.Errorf("jpeg encode: size %dx%d exceeds the JPEG limit of 65500", w, h)
	case stride < 3*w:
		return fmt.Errorf("jpeg encode: stride %d is less than 3*width %d", stride, 3*w)
	case len(pix) < stride*(h-1)+3*w:
		return fmt.Errorf("jpeg encode: %d pixel bytes, a %dx%d frame with stride %d needs %d",
			len(pix), w, h, stride, stride*(h-1)+3*w)
	case quality < 1 || quality > 100:
		return fmt.Errorf("jpeg encode: quality %d is outside 1..100", quality)
	}
	return nil
}

var (
	_ Encoder = (*Turbo)(nil)
	_ Encoder = (*Stdlib)(nil)
)
