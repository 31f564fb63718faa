// Package jpegenc encodes camera frames (packed 8-bit RGB, rows top first) to baseline JPEG with
// 4:2:0 chroma subsampling.
//
// Two encoders implement [Encoder]: [Turbo] calls libjpeg-turbo's TurboJPEG API
// (libturbojpeg.so.0, Debian package libturbojpeg0) through purego, without cgo; [Stdlib] uses
// Go's image/jpeg and is the fallback. Both take the same input and produce a JPEG of the same
// dimensions; Turbo is 6 to 9 times faster (84×84 to 640×480).
//
// [Default] picks one encoder for the whole process on first use: Turbo if the library loads and
// has the functions we need, otherwise Stdlib with a one-line notice logged through log/slog
// (never a crash). The fallback can be forced with the environment variable SIMGUI_JPEG=go or
// by calling [ForceFallback] (the CLI flag).
//
// The headless build (go build -tags headless, a static binary) leaves Turbo out: purego
// loads libraries through the dynamic loader, which a static binary has not got. There
// [NewTurbo] fails with [ErrNoTurbo] and [Default] is Stdlib without a notice.
//
// # Environment variables
//
//	SIMGUI_JPEG=go      use image/jpeg even if libturbojpeg is present
//	SIMGUI_JPEG=turbo   (or unset) use libturbojpeg when it loads, else image/jpeg
//
// # Concurrency
//
// Encoders are safe for concurrent use by several sensor goroutines. Turbo keeps a free list of
// TurboJPEG compressor handles, each with its own output buffer in C memory, so that steady-state
// encoding allocates nothing on the Go heap; Stdlib reuses its RGBA scratch image through a
// sync.Pool, but image/jpeg itself still allocates a few small objects per frame.
//
// The TurboJPEG 2 API (tjInitCompress, tjCompress2, ...) is used; libjpeg-turbo 3 still exports
// it next to the tj3 functions, so the same code serves both.
package jpegenc
