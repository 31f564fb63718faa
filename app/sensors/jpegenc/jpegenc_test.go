package jpegenc

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
)

const testQuality = 85

// newTurbo loads the system libturbojpeg or skips: the library is a run-time option, and the
// fallback tests below cover machines without it.
func newTurbo(t testing.TB) *Turbo {
	t.Helper()
	tj, err := NewTurbo("")
	if err != nil {
		t.Skipf("libturbojpeg not available (install Debian package libturbojpeg0): %v", err)
	}
	t.Cleanup(func() { tj.Close() })
	return tj
}

// encoders returns both implementations by short name.
func encoders(t *testing.T) map[string]Encoder {
	return map[string]Encoder{"turbo": newTurbo(t), "go": NewStdlib()}
}

// meanAbsDiff returns the mean absolute difference per channel between the packed RGB source and
// a decoded image.
func meanAbsDiff(t *testing.T, src []byte, w, h int, img image.Image) float64 {
	t.Helper()
	var sum int
	for y := range h {
		for x := range w {
			r, g, b, _ := img.At(x, y).RGBA()
			i := 3 * (y*w + x)
			sum += absDiff(int(src[i]), int(r>>8)) + absDiff(int(src[i+1]), int(g>>8)) + absDiff(int(src[i+2]), int(b>>8))
		}
	}
	return float64(sum) / float64(3*w*h)
}

func absDiff(a, b int) int {
	if a < b {
		return b - a
	}
	return a - b
}

// sampling returns the (H, V) sampling factors of each component in the JPEG's SOF0 marker.
func sampling(t *testing.T, data []byte) [][2]int {
	t.Helper()
	for i := 2; i+4 < len(data); {
		if data[i] != 0xff {
			t.Fatalf("no marker at offset %d", i)
		}
		marker, n := data[i+1], int(data[i+2])<<8|int(data[i+3])
		if marker == 0xc0 {
			seg := data[i+4 : i+2+n]
			var out [][2]int
			for c := range int(seg[5]) {
				hv := seg[6+3*c+1]
				out = append(out, [2]int{int(hv >> 4), int(hv & 15)})
			}
			return out
		}
		i += 2 + n
	}
	t.Fatal("no baseline SOF0 marker")
	return nil
}

// TestEncodersMatchSource encodes the same scene both ways and decodes both with image/jpeg.
//
// Bounds on the mean absolute difference per channel (0..255) from the source: at q85 the
// quantisation error on smooth areas is about one level, and 4:2:0 plus ringing costs more only
// near hard edges. The scene's edges (1-pixel line, 4-pixel checkerboard, box outlines) do not
// shrink with the frame, so they are a larger share of a small frame. Measured here: 0.81 for
// both encoders at 640×480, 3.98 to 4.09 at 84×84 and 101×67. Bounds: < 2 at 640×480, < 5 for
// the small frames. A negative control checks that a channel-order mistake (RGB read as BGR)
// would exceed the bound several times over, so the bound can fail.
func TestEncodersMatchSource(t *testing.T) {
	encs := encoders(t)
	for _, sz := range [][2]int{{640, 480}, {84, 84}, {101, 67}} {
		w, h := sz[0], sz[1]
		src := Scene(w, h)
		decoded := map[string]image.Image{}
		bound := 2.0
		if w*h < 100*100 {
			bound = 5
		}
		bgr := make([]byte, len(src))
		for i := 0; i < len(src); i += 3 {
			bgr[i], bgr[i+1], bgr[i+2] = src[i+2], src[i+1], src[i]
		}
		for _, name := range []string{"turbo", "go"} {
			t.Run(fmt.Sprintf("%s/%dx%d", name, w, h), func(t *testing.T) {
				data, err := encs[name].Encode(nil, src, w, h, 3*w, testQuality)
				if err != nil {
					t.Fatal(err)
				}
				img, err := jpeg.Decode(bytes.NewReader(data))
				if err != nil {
					t.Fatalf("decode: %v", err)
				}
				if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
					t.Fatalf("decoded size %dx%d, want %dx%d", b.Dx(), b.Dy(), w, h)
				}
				if got, want := sampling(t, data), [][2]int{{2, 2}, {1, 1}, {1, 1}}; fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("sampling factors %v, want 4:2:0 %v", got, want)
				}
				mad := meanAbsDiff(t, src, w, h, img)
				t.Logf("%d bytes, mean abs diff %.2f", len(data), mad)
				if mad >= bound {
					t.Errorf("mean abs diff from source %.2f, want < %g", mad, bound)
				}
				if swapped := meanAbsDiff(t, bgr, w, h, img); swapped < 3*bound {
					t.Errorf("negative control: BGR-swapped source differs by only %.2f, bound %g cannot fail", swapped, bound)
				}
				decoded[name] = img
			})
		}
		// The two decodes also agree with each other about as well as each agrees with the source.
		if a, b := decoded["turbo"], decoded["go"]; a != nil && b != nil {
			var sum int
			for y := range h {
				for x := range w {
					r1, g1, b1, _ := a.At(x, y).RGBA()
					r2, g2, b2, _ := b.At(x, y).RGBA()
					sum += absDiff(int(r1>>8), int(r2>>8)) + absDiff(int(g1>>8), int(g2>>8)) + absDiff(int(b1>>8), int(b2>>8))
				}
			}
			if d := float64(sum) / float64(3*w*h); d >= bound {
				t.Errorf("%dx%d: turbo and image/jpeg decodes differ by %.2f on average, want < %g", w, h, d, bound)
			}
		}
	}
}

// TestStrideAndAppend checks that row padding is ignored and that Encode appends to dst.
func TestStrideAndAppend(t *testing.T) {
	const w, h, stride = 84, 60, 3*84 + 13
	compact := Scene(w, h)
	padded := make([]byte, stride*h)
	for i := range padded {
		padded[i] = 0xa5 // garbage that must not show up
	}
	for y := range h {
		copy(padded[y*stride:], compact[y*3*w:(y+1)*3*w])
	}
	padded = padded[:stride*(h-1)+3*w] // the last row needs no padding
	for name, enc := range encoders(t) {
		t.Run(name, func(t *testing.T) {
			want, err := enc.Encode(nil, compact, w, h, 3*w, testQuality)
			if err != nil {
				t.Fatal(err)
			}
			prefix := []byte("RAWI-header")
			got, err := enc.Encode(append([]byte(nil), prefix...), padded, w, h, stride, testQuality)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(got, prefix) {
				t.Fatalf("dst prefix lost: %q", got[:len(prefix)])
			}
			if !bytes.Equal(got[len(prefix):], want) {
				t.Errorf("padded-stride encoding differs from the compact one (%d vs %d bytes)", len(got)-len(prefix), len(want))
			}
		})
	}
}

func TestQualityChangesSize(t *testing.T) {
	const w, h = 160, 120
	src := Scene(w, h)
	for name, enc := range encoders(t) {
		lo, err := enc.Encode(nil, src, w, h, 3*w, 30)
		if err != nil {
			t.Fatal(err)
		}
		hi, err := enc.Encode(nil, src, w, h, 3*w, 95)
		if err != nil {
			t.Fatal(err)
		}
		if len(lo) >= len(hi) {
			t.Errorf("%s: q30 gives %d bytes, q95 %d; quality is not applied", name, len(lo), len(hi))
		}
	}
}

func TestBadArguments(t *testing.T) {
	pix := make([]byte, 3*10*10)
	cases := []struct {
		name               string
		pix                []byte
		w, h, stride, qual int
		wantErrContains    string
	}{
		{"zero width", pix, 0, 10, 30, 85, "bad size"},
		{"short stride", pix, 10, 10, 29, 85, "stride"},
		{"short buffer", pix[:299], 10, 10, 30, 85, "pixel bytes"},
		{"quality 0", pix, 10, 10, 30, 0, "quality"},
		{"quality 101", pix, 10, 10, 30, 101, "quality"},
	}
	for name, enc := range encoders(t) {
		for _, c := range cases {
			dst := []byte("keep")
			out, err := enc.Encode(dst, c.pix, c.w, c.h, c.stride, c.qual)
			if err == nil || !strings.Contains(err.Error(), c.wantErrContains) {
				t.Errorf("%s %s: err %v, want one mentioning %q", name, c.name, err, c.wantErrContains)
			}
			if string(out) != "keep" {
				t.Errorf("%s %s: dst changed on error: %q", name, c.name, out)
			}
		}
	}
}

func TestTurboName(t *testing.T) {
	tj := newTurbo(t)
	if !regexp.MustCompile(`^libturbojpeg (\d+\.\d+\.\d+|\(version unknown\)) \(purego\)$`).MatchString(tj.Name()) {
		t.Errorf("name %q", tj.Name())
	}
	t.Log(tj.Name())
	if NewStdlib().Name() != "image/jpeg" {
		t.Errorf("stdlib name %q", NewStdlib().Name())
	}
}

// TestBogusLibraryFallsBack: a missing library and a library without TurboJPEG's functions
// (libc) both give the image/jpeg encoder and a notice naming the cause.
func TestBogusLibraryFallsBack(t *testing.T) {
	for _, c := range []struct{ path, want string }{
		{"/nonexistent/libturbojpeg.so.0", "/nonexistent/libturbojpeg.so.0"},
		{"libc.so.6", "tjInitCompress"},
	} {
		enc, notice := Choose(c.path, false)
		if enc.Name() != "image/jpeg" {
			t.Errorf("%s: chose %q, want the image/jpeg fallback", c.path, enc.Name())
		}
		if !strings.Contains(notice, c.want) || !strings.Contains(notice, "image/jpeg") || strings.Contains(notice, "\n") {
			t.Errorf("%s: notice %q should be one line naming %q and the fallback", c.path, notice, c.want)
		}
		t.Log(notice)
		if _, err := enc.Encode(nil, Scene(16, 16), 16, 16, 48, 85); err != nil {
			t.Errorf("%s: fallback encode: %v", c.path, err)
		}
	}
	if enc, notice := Choose("", true); enc.Name() != "image/jpeg" || notice != "" {
		t.Errorf("forced: %q, notice %q; want image/jpeg without a notice", enc.Name(), notice)
	}
}

func TestForceFallback(t *testing.T) {
	t.Cleanup(func() { forced.Store(false) })
	ForceFallback()
	if got := Default().Name(); got != "image/jpeg" {
		t.Errorf("Default after ForceFallback is %q", got)
	}
}

// TestDefaultFromEnv runs Default in a child process (it decides once per process) with and
// without SIMGUI_JPEG=go.
func TestDefaultFromEnv(t *testing.T) {
	if os.Getenv("JPEGENC_CHILD") == "1" {
		fmt.Printf("NAME=%s\n", Default().Name())
		return
	}
	newTurbo(t) // the unset case expects turbo
	for _, c := range []struct{ env, wantPrefix, wantLog string }{
		{"go", "image/jpeg", ""},
		{"", "libturbojpeg ", ""},
		{"jpegli", "libturbojpeg ", `unknown SIMGUI_JPEG="jpegli"`},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestDefaultFromEnv$", "-test.v")
		cmd.Env = append(os.Environ(), "JPEGENC_CHILD=1", EnvVar+"="+c.env)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		m := regexp.MustCompile(`NAME=(.*)`).FindSubmatch(out)
		if m == nil || !strings.HasPrefix(string(m[1]), c.wantPrefix) {
			t.Errorf("%s=%q: child chose %q, want prefix %q\n%s", EnvVar, c.env, m, c.wantPrefix, out)
		}
		if c.wantLog != "" && !strings.Contains(string(out), c.wantLog) {
			t.Errorf("%s=%q: no notice %q in\n%s", EnvVar, c.env, c.wantLog, out)
		}
	}
}

// TestConcurrentUse encodes frames of three sizes from 8 goroutines on one encoder; every result
// must equal the single-goroutine encoding byte for byte (both encoders are deterministic).
func TestConcurrentUse(t *testing.T) {
	sizes := [][2]int{{84, 84}, {160, 120}, {64, 48}}
	for name, enc := range encoders(t) {
		t.Run(name, func(t *testing.T) {
			var frames, want [][]byte
			for _, sz := range sizes {
				src := Scene(sz[0], sz[1])
				ref, err := enc.Encode(nil, src, sz[0], sz[1], 3*sz[0], testQuality)
				if err != nil {
					t.Fatal(err)
				}
				frames, want = append(frames, src), append(want, ref)
			}
			var wg sync.WaitGroup
			for g := range 8 {
				wg.Go(func() {
					var dst []byte
					for i := range 15 {
						k := (g + i) % len(sizes)
						var err error
						dst, err = enc.Encode(dst[:0], frames[k], sizes[k][0], sizes[k][1], 3*sizes[k][0], testQuality)
						if err != nil {
							t.Error(err)
							return
						}
						if !bytes.Equal(dst, want[k]) {
							t.Errorf("goroutine %d frame %d: output differs from the reference", g, i)
							return
						}
					}
				})
			}
			wg.Wait()
		})
	}
}

// TestAllocations: the turbo path allocates nothing per frame once warm; the image/jpeg path's
// count is logged (it allocates inside image/jpeg).
func TestAllocations(t *testing.T) {
	const w, h = 640, 480
	src := Scene(w, h)
	for name, enc := range encoders(t) {
		dst, err := enc.Encode(nil, src, w, h, 3*w, testQuality)
		if err != nil {
			t.Fatal(err)
		}
		allocs := testing.AllocsPerRun(20, func() {
			dst, err = enc.Encode(dst[:0], src, w, h, 3*w, testQuality)
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %.1f allocations per 640x480 frame", name, allocs)
		if name == "turbo" && allocs != 0 {
			t.Errorf("turbo: %.1f allocations per frame, want 0", allocs)
		}
	}
}
