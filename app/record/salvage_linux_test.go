package record

import (
	"errors"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"simgui/app/record/recordtest"
	"simgui/app/transport"
	"simgui/app/transport/msgs"
)

// readAll reads every message of an MCAP file with Foxglove's reader, as a viewer opens it
// (through the index when there is one), and returns how many there are.
func readAll(t *testing.T, path string) int {
	t.Helper()
	it, err := openMCAP(t, path).Messages()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	n := 0
	for {
		if _, _, _, err := it.NextInto(nil); errors.Is(err, io.EOF) {
			return n
		} else if err != nil {
			t.Fatalf("%s: message %d: %v", path, n, err)
		}
		n++
	}
}

// A recording cut inside a chunk (what a full disk leaves) is ended by salvage as a file
// Foxglove's reader opens: the chunks before the cut, whole, and nothing of the broken one.
// Before, the reader refused it ("invalid magic at end of file").
func TestSalvageCutRecording(t *testing.T) {
	if !recordtest.InChild(t) {
		return
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "run.mcap")
	runWorld(t, path, 2000, Options{ChunkSize: 16 << 10})
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := readInfo(t, path).ChunkIndexes[2]
	atStart := filepath.Join(dir, "start.mcap")
	os.WriteFile(atStart, data[:c.ChunkStartOffset], 0o644)
	before, err := ReadFile(atStart)
	if err != nil || len(before.Messages) == 0 {
		t.Fatalf("the chunks before the cut: %v", err)
	}
	cut := filepath.Join(dir, "cut.mcap")
	os.WriteFile(cut, data[:c.ChunkStartOffset+c.ChunkLength/2], 0o644)
	f, err := os.OpenFile(cut, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	end, err := salvage(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(cut); fi.Size() != end || end != int64(c.ChunkStartOffset)+endBytes {
		t.Fatalf("salvaged to %d bytes (file %d), want the chunks before the cut and the file's end", end, fi.Size())
	}
	if n := readAll(t, cut); n != len(before.Messages) {
		t.Fatalf("Foxglove's reader read %d messages, want the %d of the whole chunks", n, len(before.Messages))
	}
	if r, err := ReadFile(cut); err != nil || !r.Complete || r.Truncated {
		t.Fatalf("ReadFile: complete %v, truncated %v (%v)", r.Complete, r.Truncated, err)
	}
}

// A recording whose disk fills (here its file reaches the process's file-size limit) ends at
// Stop as a file readers open, and Stop says so once with the file's path: stop_record used
// to answer "record a.mcap: write a.mcap: write a.mcap: no space left on device" and leave a
// file without its end.
func TestStopOnAFullDisk(t *testing.T) {
	if !recordtest.InChild(t) {
		return
	}
	bus := transport.NewBus(transport.Options{Logger: slog.New(slog.DiscardHandler)})
	defer bus.Close()
	path := filepath.Join(t.TempDir(), "full.mcap")
	rec, err := Start(bus, path, Options{ChunkSize: 16 << 10, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	const limit = 200 << 10
	lift := recordtest.LimitFileSize(t, limit)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 100 { // 100 noisy 8 KiB frames: 800 KiB, four times the limit
		frame := make([]byte, 8<<10)
		for j := range frame {
			frame[j] = byte(rng.Uint32())
		}
		bus.Publish("/frame", &msgs.Image{Width: 64, Height: 128, Step: 64, Data: frame}, time.Duration(i)*time.Millisecond)
	}
	// A failed recording lets go of the bus: cameras need not draw for a file that takes
	// nothing more (a fleet's kept drawing, its memory growing, and the run never ended).
	select {
	case <-rec.Failed():
	case <-time.After(time.Minute):
		t.Fatal("the writes past the file's limit did not fail")
	}
	for deadline := time.Now().Add(time.Minute); bus.HasSubscribers("/model/car/sensor/camera/image"); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("a failed recording still subscribes to the bus")
		}
	}
	st, err := rec.Stop()
	lift()
	if err == nil || !errors.Is(err, syscall.EFBIG) || !strings.Contains(err.Error(), "ends after its last whole chunk") ||
		strings.Count(err.Error(), path) != 1 {
		t.Fatalf("Stop: %v; want the file error once with the path, and that the file was ended", err)
	}
	fi, ferr := os.Stat(path)
	if ferr != nil || fi.Size() > limit {
		t.Fatalf("the file: %v, %v", fi, ferr)
	}
	n := readAll(t, path)
	if n == 0 || uint64(n) >= st.Messages+st.Cut+st.Dropped {
		t.Fatalf("Foxglove's reader read %d messages of %d sent; want the whole chunks' (some, not all)", n, 100)
	}
	t.Logf("%d of 100 frames in %d bytes: %v", n, fi.Size(), err)
}
