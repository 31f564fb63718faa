package starttrack

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestAllStarted(t *testing.T) {
	var got []string
	tr := New(func(p Progress) { got = append(got, p.String()+" "+p.Name) })
	tr.Started("lidar") // before Bind: counts once bound
	if err := tr.Bind("micom", "lidar", "camera"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-tr.Done():
		t.Fatal("done before anything but lidar started")
	default:
	}
	tr.Started("micom")
	tr.Started("micom") // repeated: no progress update
	tr.Started("unrelated")
	if tr.AllStarted() || strings.Join(tr.Missing(), ",") != "camera" {
		t.Fatalf("all started %v, missing %v", tr.AllStarted(), tr.Missing())
	}
	var wg sync.WaitGroup
	var waitErr error
	wg.Add(1)
	go func() { defer wg.Done(); waitErr = tr.Wait(context.Background(), time.Minute) }()
	tr.Started("camera")
	wg.Wait()
	if waitErr != nil || !tr.AllStarted() {
		t.Fatalf("wait: %v", waitErr)
	}
	want := []string{
		"starting plugins... (1/3) ",
		"starting plugins... (2/3) micom",
		"starting plugins... (3/3) camera",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("progress\n%q\nwant\n%q", got, want)
	}
}

func TestTimeoutNamesMissing(t *testing.T) {
	tr := New(nil)
	tr.Bind("world", "ks0223/micom", "ks0223/lidar", "ks0223/camera")
	tr.Started("world")
	tr.Failed("ks0223/camera", errors.New("no renderer"))
	err := tr.Wait(context.Background(), 20*time.Millisecond)
	var se *StartError
	if !errors.As(err, &se) {
		t.Fatalf("wait returned %v", err)
	}
	if se.Started != 1 || se.Total != 4 || strings.Join(se.Missing, ",") != "ks0223/micom,ks0223/lidar" || se.Failed["ks0223/camera"] == nil {
		t.Fatalf("start error %+v", se)
	}
	if msg := err.Error(); msg != "1 of 4 plugins started; not started after 20ms: ks0223/micom, ks0223/lidar; failed: ks0223/camera (no renderer)" {
		t.Fatalf("message %q", msg)
	}
	// Everything reported but one failed: Wait returns at once with the failure.
	tr.Started("ks0223/micom")
	tr.Started("ks0223/lidar")
	start := time.Now()
	err = tr.Wait(context.Background(), time.Hour)
	if !errors.As(err, &se) || len(se.Missing) != 0 || len(se.Failed) != 1 || time.Since(start) > time.Minute {
		t.Fatalf("wait after all reported: %v", err)
	}
}

func TestBindAndClear(t *testing.T) {
	tr := New(nil)
	if err := tr.Bind("a", "a"); err == nil {
		t.Fatal("duplicate names accepted")
	}
	if err := tr.Bind("a", ""); err == nil {
		t.Fatal("empty name accepted")
	}
	tr.Bind()
	if err := tr.Wait(context.Background(), time.Hour); err != nil || !tr.AllStarted() {
		t.Fatalf("nothing expected: %v", err)
	}
	tr.Bind("b")
	select {
	case <-tr.Done():
		t.Fatal("rebinding kept the old done channel closed")
	default:
	}
	tr.Started("b")
	tr.Clear()
	tr.Bind("b")
	if tr.AllStarted() {
		t.Fatal("Clear kept b's report")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := tr.Wait(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled wait: %v", err)
	}
}
