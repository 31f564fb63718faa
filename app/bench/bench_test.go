package bench

import (
	"regexp"
	"testing"
	"time"
)

func TestRunComputesRatioAgainstBaseline(t *testing.T) {
	Register(Case{Name: "test/slow", Baseline: "test/fast", F: func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			spin(200 * time.Microsecond)
		}
	}})
	Register(Case{Name: "test/fast", F: func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			spin(50 * time.Microsecond)
		}
	}})
	res, err := Run(regexp.MustCompile(`^test/slow$`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 {
		t.Fatalf("got %d results, want the case and its baseline", len(res))
	}
	var slow Result
	for _, r := range res {
		if r.Name == "test/slow" {
			slow = r
		}
	}
	if slow.Ratio <= 1.2 {
		t.Fatalf("ratio %.2f: a 200µs case against a 50µs baseline must be well above 1", slow.Ratio)
	}
}

func TestRegisterRejectsDuplicates(t *testing.T) {
	Register(Case{Name: "test/dup", F: func(b *testing.B) {}})
	defer func() {
		if recover() == nil {
			t.Fatal("duplicate Register did not panic")
		}
	}()
	Register(Case{Name: "test/dup", F: func(b *testing.B) {}})
}

// spin busy-waits: sleeps are too coarse on a loaded machine to tell 50µs from 200µs.
func spin(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}
