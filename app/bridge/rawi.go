package bridge

import (
	"encoding/binary"
	"fmt"
	"math"
	"time"

	"simgui/app/transport/msgs"
)

// RAWI frame layout (CLOiSim's raw camera frames): a 28-byte little-endian header, then the pixels.
const (
	rawiMagic = 0x52415749 // "RAWI" read as a little-endian u32; bytes 49 57 41 52 on the wire
	// RAWIHeaderSize is the size of a RAWI frame's header, before the pixels.
	RAWIHeaderSize = 28
)

// bytesPerPixel of the formats simgui's cameras produce and CLOiSim's cameras emit.
var bytesPerPixel = map[msgs.PixelFormatType]int{
	msgs.PixelFormatType_L_INT8:    1,
	msgs.PixelFormatType_L_INT16:   2,
	msgs.PixelFormatType_RGB_INT8:  3,
	msgs.PixelFormatType_RGBA_INT8: 4,
	msgs.PixelFormatType_BGRA_INT8: 4,
	msgs.PixelFormatType_BGR_INT8:  3,
	msgs.PixelFormatType_R_FLOAT16: 2,
	msgs.PixelFormatType_R_FLOAT32: 4,
}

// appendRAWI appends img as a RAWI frame stamped with stamp: magic, sec, nsec, width, height,
// pixel_format, step, then height·step pixel bytes. A zero step is taken as width × bytes per
// pixel. Planar float depth (R_FLOAT32) has +Inf ("nothing hit", simgui's convention) written
// as NaN, CLOiSim's "no return". It fails on an image whose data is shorter than height·step.
func appendRAWI(dst []byte, stamp time.Duration, img *msgs.Image) ([]byte, error) {
	w, h, step := img.GetWidth(), img.GetHeight(), img.GetStep()
	format := img.GetPixelFormatType()
	if step == 0 {
		bpp, ok := bytesPerPixel[format]
		if !ok {
			return dst, fmt.Errorf("image %dx%d: step 0 and unknown pixel format %v", w, h, format)
		}
		step = w * uint32(bpp)
	}
	n := int(h) * int(step)
	data := img.GetData()
	if len(data) < n {
		return dst, fmt.Errorf("image %dx%d step %d: %d data bytes, want %d", w, h, step, len(data), n)
	}
	sec, nsec := int32(stamp/time.Second), int32(stamp%time.Second)
	le := binary.LittleEndian
	dst = le.AppendUint32(dst, rawiMagic)
	dst = le.AppendUint32(dst, uint32(sec))
	dst = le.AppendUint32(dst, uint32(nsec))
	dst = le.AppendUint32(dst, w)
	dst = le.AppendUint32(dst, h)
	dst = le.AppendUint32(dst, uint32(format))
	dst = le.AppendUint32(dst, step)
	start := len(dst)
	dst = append(dst, data[:n]...)
	if format == msgs.PixelFormatType_R_FLOAT32 {
		infToNaN32(dst[start:])
	}
	return dst, nil
}

// infToNaN32 rewrites little-endian float32 +Inf values in b as NaN.
func infToNaN32(b []byte) {
	inf, nan := math.Float32bits(float32(math.Inf(1))), math.Float32bits(float32(math.NaN()))
	for i := 0; i+4 <= len(b); i += 4 {
		if binary.LittleEndian.Uint32(b[i:]) == inf {
			binary.LittleEndian.PutUint32(b[i:], nan)
		}
	}
}

// stampOf returns a message's Header stamp, or fallback (the bus stamp) if it has none.
func stampOf(h *msgs.Header, fallback time.Duration) time.Duration {
	if t := h.GetStamp(); t != nil {
		return t.AsDuration()
	}
	return fallback
}
