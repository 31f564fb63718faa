package archive

import (
	"errors"
	"fmt"
	"io"
)

// maxDirectoryEntryBytes bounds a central directory record on average: 46 bytes of header, a
// name of at most 255 bytes, and room for extra fields and a comment.
const maxDirectoryEntryBytes = 1024

// endSearchBytes is what archive/zip reads to find the end records: the last 1 KiB, then the
// last 65 KiB, and the zip64 records.
const endSearchBytes = 1024 + 65*1024 + 1024

// errDirectoryTooBig stops archive/zip reading a central directory larger than a plugin's.
var errDirectoryTooBig = errors.New("central directory too big")

// directoryBudget is the archive as archive/zip's reader opens it: it may read no more than
// budget bytes, so that a directory of millions of records is refused before they are all
// held in memory (two million records in a 110 MB file took half a gigabyte before the entry
// count was seen). Opening reads only the end records and the directory; open ends the budget
// for the entries' contents.
type directoryBudget struct {
	r      io.ReaderAt
	budget int64
	open   bool
}

func (d *directoryBudget) ReadAt(p []byte, off int64) (int, error) {
	if !d.open {
		if int64(len(p)) > d.budget {
			return 0, errDirectoryTooBig
		}
		d.budget -= int64(len(p))
	}
	return d.r.ReadAt(p, off)
}

// directoryLimit is the bytes opening an archive of l may read: the end records and a
// directory of MaxEntries records.
func (l Limits) directoryLimit() int64 {
	return endSearchBytes + int64(l.MaxEntries)*maxDirectoryEntryBytes
}

// directoryError is the error for an archive whose directory outgrew l's budget.
func (l Limits) directoryError() error {
	return fmt.Errorf("the archive's central directory is over %d bytes; %d entries take at most %d",
		l.directoryLimit()-endSearchBytes, l.MaxEntries, int64(l.MaxEntries)*maxDirectoryEntryBytes)
}
