package archive

import (
	"bytes"
	"encoding/binary"
	"runtime"
	"strings"
	"testing"
)

// manyRecords is a zip of one README.md whose central directory repeats its record n times,
// with an end record saying entries and dirSize.
func manyRecords(n int, entries uint16, dirSize uint32) []byte {
	var b bytes.Buffer
	le := func(v any) { binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("PK\x03\x04")
	le([5]uint16{20, 0, 0, 0, 0})
	le([3]uint32{0, 0, 0})
	le([2]uint16{9, 0})
	b.WriteString("README.md")
	dirOffset := b.Len()
	for range n {
		b.WriteString("PK\x01\x02")
		le([6]uint16{20, 20, 0, 0, 0, 0})
		le([3]uint32{0, 0, 0})
		le([5]uint16{9, 0, 0, 0, 0})
		le([2]uint32{0, 0})
		b.WriteString("README.md")
	}
	b.WriteString("PK\x05\x06")
	le([4]uint16{0, 0, entries, entries})
	le([2]uint32{dirSize, uint32(dirOffset)})
	le(uint16(0))
	return b.Bytes()
}

// A central directory of more records than a plugin may have is refused once opening has read
// what MaxEntries records take, before archive/zip holds them all in memory — wherever the end
// records are and whatever they claim.
func TestHugeDirectoryRefusedEarly(t *testing.T) {
	const n = 200_000
	trailing := append(manyRecords(n, uint16(n%65536), n*55), make([]byte, 66_000)...)
	for _, tc := range []struct {
		name string
		zip  []byte
	}{
		{"as many as it says", manyRecords(n, uint16(n%65536), n*55)},
		{"more than it says", manyRecords(n, 1, 55)},
		{"its end record far from the file's end", trailing},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := Read(bytes.NewReader(tc.zip), int64(len(tc.zip)))
			runtime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), "central directory is over 524288 bytes; 512 entries take at most 524288") {
				t.Fatalf("err = %v, want the directory refused", err)
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
				t.Errorf("refusing a %d-byte directory allocated %d bytes", n*55, got)
			}
		})
	}
	// A plugin's own archive still reads, and so does one of 600 entries up to its count.
	a := builtinArchive(t, "track.maze.v1")
	var buf bytes.Buffer
	if err := a.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(bytes.NewReader(buf.Bytes()), int64(buf.Len())); err != nil {
		t.Errorf("a built-in plugin's archive: %v", err)
	}
	six := manyRecords(600, 600, 600*55)
	if _, err := Read(bytes.NewReader(six), int64(len(six))); err == nil || !strings.Contains(err.Error(), "the archive has 600 entries; a plugin may have at most 512") {
		t.Errorf("600 entries: %v", err)
	}
}
