package jpegenc

import (
	"image"
	"image/jpeg"
	"sync"
)

// Stdlib encodes with Go's image/jpeg, which always subsamples colour 4:2:0. It is the fallback
// when libturbojpeg is unavailable. The zero value is ready to use; safe for concurrent use.
type Stdlib struct {
	scratch sync.Pool // *stdScratch
}

// stdScratch is the per-call state reused across frames: the RGBA copy image/jpeg has a fast
// path for, and the writer that appends to the caller's buffer.
type stdScratch struct {
	img image.RGBA
	w   appendWriter
}

// NewStdlib returns an image/jpeg encoder.
func NewStdlib() *Stdlib { return &Stdlib{} }

// Name returns "image/jpeg".
func (*Stdlib) Name() string { return "image/jpeg" }

// Encode implements [Encoder]. The frame is copied to an RGBA image (image/jpeg has no packed
// RGB type) reused across calls.
func (s *Stdlib) Encode(dst, pix []byte, w, h, stride, quality int) ([]byte, error) {
	if err := checkFrame(pix, w, h, stride, quality); err != nil {
		return dst, err
	}
	sc, _ := s.scratch.Get().(*stdScratch)
	if sc == nil {
		sc = new(stdScratch)
	}
	defer s.scratch.Put(sc)

	n := 4 * w * h
	if cap(sc.img.Pix) < n {
		sc.img.Pix = make([]byte, n)
	}
	sc.img.Pix = sc.img.Pix[:n]
	sc.img.Stride = 4 * w
	sc.img.Rect = image.Rect(0, 0, w, h)
	for y := range h {
		src := pix[y*stride : y*stride+3*w]
		out := sc.img.Pix[y*4*w : (y+1)*4*w]
		for x := range w {
			out[4*x] = src[3*x]
			out[4*x+1] = src[3*x+1]
			out[4*x+2] = src[3*x+2]
			out[4*x+3] = 0xff
		}
	}

	sc.w.buf = dst
	err := jpeg.Encode(&sc.w, &sc.img, &jpeg.Options{Quality: quality})
	out := sc.w.buf
	sc.w.buf = nil // the caller owns it now
	if err != nil {
		return dst, err
	}
	return out, nil
}

// appendWriter appends to a byte slice. It has Flush and WriteByte so that image/jpeg writes to
// it directly instead of wrapping it in a new bufio.Writer per frame.
type appendWriter struct{ buf []byte }

func (a *appendWriter) Write(p []byte) (int, error) {
	a.buf = append(a.buf, p...)
	return len(p), nil
}

func (a *appendWriter) WriteByte(c byte) error {
	a.buf = append(a.buf, c)
	return nil
}

func (*appendWriter) Flush() error { return nil }
