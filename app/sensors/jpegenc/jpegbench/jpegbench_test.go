package jpegbench

import (
	"testing"

	"simgui/app/bench"
)

// BenchmarkCases runs this package's `simgui bench` cases, for example
// go test -run '^$' -bench 'Cases/jpeg/turbo' ./app/sensors/jpegenc/jpegbench.
func BenchmarkCases(b *testing.B) { bench.RunAll(b.Run) }

func TestCasesRegistered(t *testing.T) {
	want := map[string]string{
		"jpeg/go/640x480": "", "jpeg/turbo/640x480": "jpeg/go/640x480",
		"jpeg/go/84x84": "", "jpeg/turbo/84x84": "jpeg/go/84x84",
	}
	for _, c := range bench.Cases() {
		if base, ok := want[c.Name]; ok {
			if c.Baseline != base {
				t.Errorf("%s: baseline %q, want %q", c.Name, c.Baseline, base)
			}
			delete(want, c.Name)
		}
	}
	if len(want) > 0 {
		t.Errorf("not registered: %v", want)
	}
	if q := cameraQuality(); q < 1 || q > 100 {
		t.Errorf("camera quality %d", q)
	}
}
