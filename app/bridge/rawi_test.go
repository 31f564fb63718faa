package bridge

import (
	"encoding/binary"
	"math"
	"testing"
	"time"

	"simgui/app/transport/msgs"
)

func TestRAWIHeaderAndPixels(t *testing.T) {
	const w, h = 4, 3
	data := make([]byte, w*h*3)
	for i := range data {
		data[i] = byte(i)
	}
	img := &msgs.Image{Width: w, Height: h, Step: w * 3, Data: data, PixelFormatType: msgs.PixelFormatType_RGB_INT8}
	stamp := 12*time.Second + 345678901*time.Nanosecond
	out, err := appendRAWI([]byte("TAGTAG!!"), stamp, img)
	if err != nil {
		t.Fatal(err)
	}
	if string(out[:8]) != "TAGTAG!!" {
		t.Fatal("prefix overwritten")
	}
	f := out[8:]
	if len(f) != 28+len(data) {
		t.Fatalf("frame length %d, want %d", len(f), 28+len(data))
	}
	if string(f[:4]) != "IWAR" { // 0x52415749 little-endian: 49 57 41 52
		t.Errorf("magic bytes % x, want 49 57 41 52", f[:4])
	}
	le := binary.LittleEndian
	got := []uint32{le.Uint32(f[4:]), le.Uint32(f[8:]), le.Uint32(f[12:]), le.Uint32(f[16:]), le.Uint32(f[20:]), le.Uint32(f[24:])}
	want := []uint32{12, 345678901, w, h, 3, w * 3}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("header field %d (sec, nsec, width, height, format, step) = %d, want %d", i, got[i], want[i])
		}
	}
	for i, b := range f[28:] {
		if b != data[i] {
			t.Fatalf("pixel byte %d = %d, want %d", i, b, data[i])
		}
	}
}

func TestRAWIDepthInfToNaN(t *testing.T) {
	vals := []float32{1.5, float32(math.Inf(1)), 0.25, float32(math.Inf(-1))}
	data := make([]byte, 0, 16)
	for _, v := range vals {
		data = binary.LittleEndian.AppendUint32(data, math.Float32bits(v))
	}
	img := &msgs.Image{Width: 2, Height: 2, Data: data, PixelFormatType: msgs.PixelFormatType_R_FLOAT32} // step 0: computed
	out, err := appendRAWI(nil, 0, img)
	if err != nil {
		t.Fatal(err)
	}
	if step := binary.LittleEndian.Uint32(out[24:]); step != 8 {
		t.Errorf("step %d, want 8 (2 px × 4 bytes)", step)
	}
	px := out[28:]
	read := func(i int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(px[4*i:])) }
	if read(0) != 1.5 || read(2) != 0.25 {
		t.Errorf("depth values changed: %v %v", read(0), read(2))
	}
	if !math.IsNaN(float64(read(1))) {
		t.Errorf("+Inf written as %v, want NaN (CLOiSim's no return)", read(1))
	}
	if !math.IsInf(float64(read(3)), -1) {
		t.Errorf("-Inf written as %v, want it unchanged", read(3))
	}
	// The message's own data is untouched.
	if !math.IsInf(float64(math.Float32frombits(binary.LittleEndian.Uint32(data[4:]))), 1) {
		t.Error("appendRAWI modified the published image")
	}
}

func TestRAWIRejectsShortData(t *testing.T) {
	img := &msgs.Image{Width: 4, Height: 4, Step: 12, Data: make([]byte, 47), PixelFormatType: msgs.PixelFormatType_RGB_INT8}
	if _, err := appendRAWI(nil, 0, img); err == nil {
		t.Error("47 bytes accepted for 4 rows of 12")
	}
	img = &msgs.Image{Width: 4, Height: 4, Data: make([]byte, 64), PixelFormatType: msgs.PixelFormatType_BAYER_RGGB8}
	if _, err := appendRAWI(nil, 0, img); err == nil {
		t.Error("step 0 with a format of unknown size accepted")
	}
}
