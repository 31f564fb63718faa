package archive

import (
	"archive/zip"
	"bytes"
	"errors"
	"hash/crc32"
	"strings"
	"testing"
)

// rawZip writes entries as stored files with the CRC each gives (crc nil: the data's).
func rawZip(t *testing.T, entries []struct {
	name string
	data string
	crc  *uint32
}) *bytes.Reader {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, e := range entries {
		sum := crc32.ChecksumIEEE([]byte(e.data))
		if e.crc != nil {
			sum = *e.crc
		}
		w, err := zw.CreateRaw(&zip.FileHeader{Name: e.name, Method: zip.Store, CRC32: sum,
			CompressedSize64: uint64(len(e.data)), UncompressedSize64: uint64(len(e.data))})
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(e.data))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return bytes.NewReader(b.Bytes())
}

// Names an install could not unpack side by side are refused at reading, naming both: a file
// that is also a folder (validation passed it and installing failed half-way) and names
// differing only in how an accent is written (one file on macOS). A CRC of 0 does not switch
// off the data check.
func TestEntriesThatCannotBeUnpackedTogether(t *testing.T) {
	type entry = struct {
		name string
		data string
		crc  *uint32
	}
	zero := uint32(0)
	for _, c := range []struct {
		name    string
		entries []entry
		want    string
	}{
		{"file then folder", []entry{{"assets/a.png", "x", nil}, {"assets/a.png/b.png", "y", nil}},
			`"assets/a.png/b.png": a file in "assets/a.png", which is a file`},
		{"folder then file", []entry{{"assets/a.png/b.png", "y", nil}, {"assets/A.png", "x", nil}},
			`"assets/A.png": a file where "assets/a.png/b.png" has a folder`},
		{"accent forms", []entry{{"assets/caf\u00e9.png", "x", nil}, {"assets/cafe\u0301.png", "y", nil}},
			"differs only in case or accent form"},
		{"crc 0 over changed data", []entry{{"README.md", "tampered", &zero}}, `"README.md": corrupt: the header's checksum is 0`},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := rawZip(t, c.entries)
			_, err := Read(r, r.Size())
			var ee *EntryError
			if !errors.As(err, &ee) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want an entry error with %q", err, c.want)
			}
		})
	}
	// Side by side in one folder, and an empty file (CRC 0 by right), are fine.
	r := rawZip(t, []entry{{"assets/a.png", "x", nil}, {"assets/b/c.png", "y", nil}, {"README.md", "", &zero}})
	if _, err := Read(r, r.Size()); err != nil {
		t.Fatal(err)
	}
}
