package record

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/foxglove/mcap/go/mcap"
)

// salvage ends a recording whose writing failed part way (a full disk) as a file MCAP readers
// open: it cuts f after its last whole record and appends the data end, a footer without a
// summary (readers then read the file from start to end, as they do an unindexed one) and
// the closing magic. Cutting frees at least the record that did not fit, and those three
// take 50 bytes. It returns the file's new length.
func salvage(f *os.File) (int64, error) {
	end, err := lastWholeRecord(f)
	if err != nil {
		return 0, err
	}
	if err := f.Truncate(end); err != nil {
		return 0, err
	}
	if _, err := f.Seek(end, io.SeekStart); err != nil {
		return 0, err
	}
	w, err := mcap.NewWriter(f, &mcap.WriterOptions{SkipMagic: true})
	if err == nil {
		err = w.WriteDataEnd(&mcap.DataEnd{})
	}
	if err == nil {
		err = w.WriteFooter(&mcap.Footer{})
	}
	if err == nil {
		_, err = f.Write(mcap.Magic)
	}
	if err == nil {
		err = f.Sync()
	}
	if err != nil {
		return 0, err
	}
	return end + endBytes, nil
}

// endBytes is what salvage appends: a data end record (opcode, length, CRC), a footer
// (opcode, length, two offsets and a CRC) and the magic.
const endBytes = 1 + 8 + 4 + 1 + 8 + 20 + 8

// lastWholeRecord returns the offset just past the last whole record of f's data section:
// records are an opcode byte, a little-endian 64-bit length and that many bytes, and the file
// is written in order, so the first record that runs past the file's end (or a data end, or
// a footer) ends what can be kept.
func lastWholeRecord(f *os.File) (int64, error) {
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	size := st.Size()
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return 0, err
	}
	r := bufio.NewReaderSize(f, 1<<16)
	magic := make([]byte, len(mcap.Magic))
	if _, err := io.ReadFull(r, magic); err != nil {
		return 0, fmt.Errorf("read: %w", err)
	}
	if !bytes.Equal(magic, mcap.Magic) {
		return 0, errors.New("the file does not begin as an MCAP file")
	}
	pos := int64(len(magic))
	var head [9]byte
	for {
		if _, err := io.ReadFull(r, head[:]); err != nil {
			return pos, nil
		}
		op, n := mcap.OpCode(head[0]), binary.LittleEndian.Uint64(head[1:])
		if op == mcap.OpDataEnd || op == mcap.OpFooter || n > uint64(size-pos-9) {
			return pos, nil
		}
		if _, err := r.Discard(int(n)); err != nil {
			return 0, fmt.Errorf("read: %w", err)
		}
		pos += 9 + int64(n)
	}
}
