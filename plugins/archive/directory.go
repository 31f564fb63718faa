package archive

import (
	"encoding/binary"
	"fmt"
	"io"
)

// maxDirectoryEntryBytes bounds a central directory record on average: 46 bytes of header, a
// name of at most 255 bytes, and room for extra fields and a comment.
const maxDirectoryEntryBytes = 1024

// checkDirectory reads the archive's end records and refuses a central directory that claims
// more entries than l allows or takes more bytes than that many entries do, before
// archive/zip reads every record it finds into memory (two million records in a 110 MB file
// took half a gigabyte before the entry count was seen). What it cannot make out is left to
// archive/zip, which reports it.
func (l Limits) checkDirectory(r io.ReaderAt, size int64) error {
	const endLen = 22 // the end of central directory record, without its comment
	n := min(size, endLen+65535)
	buf := make([]byte, n)
	if _, err := r.ReadAt(buf, size-n); err != nil && err != io.EOF {
		return nil
	}
	// The last signature whose comment reaches exactly to the end of the file, as archive/zip
	// finds it.
	p := -1
	for i := len(buf) - endLen; i >= 0; i-- {
		if string(buf[i:i+4]) == "PK\x05\x06" && i+endLen+int(binary.LittleEndian.Uint16(buf[i+20:])) <= len(buf) {
			p = i
			break
		}
	}
	if p < 0 {
		return nil
	}
	e := buf[p:]
	end := size - n + int64(p)
	entries := uint64(binary.LittleEndian.Uint16(e[10:]))
	dirSize := uint64(binary.LittleEndian.Uint32(e[12:]))
	dirOffset := uint64(binary.LittleEndian.Uint32(e[16:]))
	if entries == 0xffff || dirSize == 0xffff || dirOffset == 0xffffffff {
		// Zip64: the locator just before the end record gives the zip64 end record.
		var loc [20]byte
		if end < 20 {
			return nil
		}
		if _, err := r.ReadAt(loc[:], end-20); err != nil || string(loc[:4]) != "PK\x06\x07" {
			return nil
		}
		off := binary.LittleEndian.Uint64(loc[8:])
		var z [56]byte
		if off > uint64(size-56) {
			return nil
		}
		if _, err := r.ReadAt(z[:], int64(off)); err != nil || string(z[:4]) != "PK\x06\x06" {
			return nil
		}
		entries = binary.LittleEndian.Uint64(z[32:])
		dirSize = binary.LittleEndian.Uint64(z[40:])
		dirOffset = binary.LittleEndian.Uint64(z[48:])
		end = int64(off)
	}
	if entries > uint64(l.MaxEntries) {
		return fmt.Errorf("the archive has %d entries; a plugin may have at most %d", entries, l.MaxEntries)
	}
	// archive/zip reads records from the directory's start, dirSize bytes before its end or
	// at dirOffset, up to the end record.
	limit := uint64(l.MaxEntries) * maxDirectoryEntryBytes
	span := dirSize
	if dirOffset < uint64(end) {
		span = max(span, uint64(end)-dirOffset)
	}
	if span > limit {
		return fmt.Errorf("the archive's central directory takes %d bytes; %d entries take at most %d", span, l.MaxEntries, limit)
	}
	return nil
}
