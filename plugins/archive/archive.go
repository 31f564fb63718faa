package archive

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/text/unicode/norm"

	"simgui/plugins"
	"simgui/safefile"
)

// Limits bound what Read, ReadDir and FromFiles accept.
type Limits struct {
	// MaxEntries is the most entries (files and folders) an archive may have.
	MaxEntries int
	// MaxTotal is the most uncompressed bytes of all files together.
	MaxTotal int64
	// MaxJSON is the most bytes of one .json file.
	MaxJSON int64
	// BombSize and MaxRatio: an entry larger than BombSize bytes may expand at most MaxRatio
	// times its compressed size.
	BombSize int64
	MaxRatio float64
}

// DefaultLimits are the limits of plugin archives: 512 entries, 64 MiB in all, 1 MiB per JSON
// file, at most 100× expansion of entries over 1 MiB.
var DefaultLimits = Limits{MaxEntries: 512, MaxTotal: 64 << 20, MaxJSON: 1 << 20, BombSize: 1 << 20, MaxRatio: 100}

// ErrNotZip is wrapped by Read's error for bytes that are not a zip archive.
var ErrNotZip = errors.New("not a valid zip archive")

// EntryError is an entry a plugin archive may not hold, and why.
type EntryError struct {
	Name   string
	Reason string
	// InFolder says the entry is a file of a plugin folder (ReadDir), not of an archive.
	InFolder bool
}

func (e *EntryError) Error() string {
	if e.InFolder {
		return fmt.Sprintf("plugin folder entry %q: %s", e.Name, e.Reason)
	}
	return fmt.Sprintf("archive entry %q: %s", e.Name, e.Reason)
}

// TotalError is a plugin's files over Limits.MaxTotal bytes in all.
type TotalError struct {
	Limit int64
	// Name is the file that took the total over, in the order the files were checked.
	Name string
	// InFolder says the files are a plugin folder's (ReadDir), not an archive's.
	InFolder bool
}

func (e *TotalError) Error() string {
	if e.InFolder {
		return fmt.Sprintf("the plugin folder's files are over %s in all, the most a plugin may hold (at file %q)", mib(uint64(e.Limit)), e.Name)
	}
	return fmt.Sprintf("the archive's uncompressed size is over %s (at entry %q)", mib(uint64(e.Limit)), e.Name)
}

// Archive is the checked content of a plugin archive or folder: file names (slash-separated,
// relative to the root) and their bytes. It is immutable and safe for concurrent use.
type Archive struct {
	files map[string][]byte
}

// Names returns the file names, sorted.
func (a *Archive) Names() []string { return slices.Sorted(maps.Keys(a.files)) }

// File returns the bytes of a file; the caller must not modify them.
func (a *Archive) File(name string) ([]byte, bool) {
	b, ok := a.files[name]
	return b, ok
}

// Files returns a new map of the files; the caller must not modify the bytes.
func (a *Archive) Files() map[string][]byte { return maps.Clone(a.files) }

// Size returns the total bytes of the files.
func (a *Archive) Size() int64 {
	var n int64
	for _, b := range a.files {
		n += int64(len(b))
	}
	return n
}

// Plugin decodes and validates the plugin the archive holds (plugins.ReadPlugin).
func (a *Archive) Plugin() (*plugins.Plugin, plugins.Problems) { return plugins.ReadPlugin(a.files) }

// With returns a copy of a with the file name set to b (SIGNATURE.json, after signing).
func (a *Archive) With(name string, b []byte) (*Archive, error) {
	files := a.Files()
	files[name] = b
	return DefaultLimits.FromFiles(files)
}

// Without returns a copy of a without the file name.
func (a *Archive) Without(name string) *Archive {
	files := a.Files()
	delete(files, name)
	return &Archive{files: files}
}

// FromFiles checks files by name as Read checks an archive's entries (Check) and returns them
// as an Archive. The bytes are copied.
func (l Limits) FromFiles(files map[string][]byte) (*Archive, error) {
	if err := l.Check(files); err != nil {
		return nil, err
	}
	out := make(map[string][]byte, len(files))
	for name, b := range files {
		out[name] = bytes.Clone(b)
	}
	return &Archive{files: out}, nil
}

// Check checks files by name as Read checks an archive's entries, without copying them: nil
// when FromFiles would take them.
func (l Limits) Check(files map[string][]byte) error {
	if len(files) > l.MaxEntries {
		return fmt.Errorf("the archive has %d entries; a plugin may have at most %d", len(files), l.MaxEntries)
	}
	var total int64
	seen := newNameSet()
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if err := l.checkEntry(name, uint64(len(files[name])), seen, &total); err != nil {
			return err
		}
	}
	return nil
}

// nameSet is the names an archive's entries took so far, by folded case: its files and
// folder entries, and the folders its files' paths imply.
type nameSet struct {
	entries map[string]string // "assets/a.png", "assets/" (a folder entry)
	folders map[string]string // "assets", from "assets/a.png"
}

func newNameSet() *nameSet {
	return &nameSet{entries: map[string]string{}, folders: map[string]string{}}
}

// fold is a name as file systems may take it: without case, and with its accents composed
// (macOS stores "é" as "e" and a combining accent, so both spellings would be one file).
func fold(name string) string { return strings.ToLower(norm.NFC.String(name)) }

// checkEntry checks one file's name against the rules and the names seen so far (folded),
// and its size against the limits.
func (l Limits) checkEntry(name string, size uint64, seen *nameSet, total *int64) error {
	if reason := checkName(name); reason != "" {
		return &EntryError{Name: name, Reason: reason}
	}
	if strings.HasSuffix(name, "/") {
		return &EntryError{Name: name, Reason: "a folder where a file is expected"}
	}
	key := fold(name)
	if first, dup := seen.entries[key]; dup {
		if first == name {
			return &EntryError{Name: name, Reason: "the name appears twice"}
		}
		return &EntryError{Name: name, Reason: fmt.Sprintf("the name differs only in case or accent form from %q", first)}
	}
	// A file whose name another entry's path takes as a folder cannot be unpacked: validation
	// passed it and installing failed half-way.
	if other, ok := seen.folders[key]; ok {
		return &EntryError{Name: name, Reason: fmt.Sprintf("a file where %q has a folder", other)}
	}
	for dir := path.Dir(name); dir != "."; dir = path.Dir(dir) {
		if other, ok := seen.entries[fold(dir)]; ok {
			return &EntryError{Name: name, Reason: fmt.Sprintf("a file in %q, which is a file", other)}
		}
		if _, ok := seen.folders[fold(dir)]; ok {
			break // its parents are in too
		}
		seen.folders[fold(dir)] = name
	}
	seen.entries[key] = name
	if isJSON(name) && size > uint64(l.MaxJSON) {
		return &EntryError{Name: name, Reason: fmt.Sprintf("%s; a JSON file may be at most %s", mibPast(size, uint64(l.MaxJSON)), mib(uint64(l.MaxJSON)))}
	}
	if size > uint64(l.MaxTotal) || *total+int64(size) > l.MaxTotal {
		return &TotalError{Limit: l.MaxTotal, Name: name}
	}
	*total += int64(size)
	return nil
}

// Read reads a plugin archive of size bytes from r with DefaultLimits.
func Read(r io.ReaderAt, size int64) (*Archive, error) { return DefaultLimits.Read(r, size) }

// Read reads a plugin archive of size bytes from r, refusing hostile entries (see the package
// doc). It checks every entry's header before inflating any.
func (l Limits) Read(r io.ReaderAt, size int64) (*Archive, error) {
	budget := &directoryBudget{r: r, budget: l.directoryLimit()}
	zr, err := zip.NewReader(budget, size)
	budget.open = true // the entries' contents are read through it from here on
	if errors.Is(err, errDirectoryTooBig) {
		return nil, l.directoryError()
	}
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) { // insecure names get our own messages below
		return nil, fmt.Errorf("%w: %v", ErrNotZip, err)
	}
	if len(zr.File) > l.MaxEntries {
		return nil, fmt.Errorf("the archive has %d entries; a plugin may have at most %d", len(zr.File), l.MaxEntries)
	}
	var total int64
	seen := newNameSet()
	var files []*zip.File
	for _, f := range zr.File {
		name := f.Name
		if reason := checkName(name); reason != "" {
			return nil, &EntryError{Name: name, Reason: reason}
		}
		mode := f.Mode()
		switch {
		case mode&fs.ModeSymlink != 0:
			return nil, &EntryError{Name: name, Reason: "a symbolic link"}
		case strings.HasSuffix(name, "/"):
			if first, dup := seen.entries[fold(name)]; dup {
				return nil, &EntryError{Name: name, Reason: fmt.Sprintf("the folder appears twice (as %q)", first)}
			}
			seen.entries[fold(name)] = name
			if f.UncompressedSize64 > 0 {
				return nil, &EntryError{Name: name, Reason: "a folder with data"}
			}
			continue
		case !mode.IsRegular():
			return nil, &EntryError{Name: name, Reason: fmt.Sprintf("not a regular file (mode %v)", mode)}
		case f.Flags&0x1 != 0:
			return nil, &EntryError{Name: name, Reason: "encrypted"}
		case f.Method != zip.Store && f.Method != zip.Deflate:
			return nil, &EntryError{Name: name, Reason: fmt.Sprintf("compression method %d; only store (0) and deflate (8) are allowed", f.Method)}
		}
		if err := l.checkEntry(name, f.UncompressedSize64, seen, &total); err != nil {
			return nil, err
		}
		if f.UncompressedSize64 > uint64(l.BombSize) &&
			(f.CompressedSize64 == 0 || float64(f.UncompressedSize64)/float64(f.CompressedSize64) > l.MaxRatio) {
			return nil, &EntryError{Name: name, Reason: fmt.Sprintf("%s that expand from %d bytes, over %g times (a compression bomb)",
				mib(f.UncompressedSize64), f.CompressedSize64, l.MaxRatio)}
		}
		files = append(files, f)
	}
	out := make(map[string][]byte, len(files))
	for _, f := range files {
		b, err := inflate(f)
		if err != nil {
			return nil, &EntryError{Name: f.Name, Reason: "corrupt: " + err.Error()}
		}
		out[f.Name] = b
	}
	return &Archive{files: out}, nil
}

// inflate reads an entry's data, never more than its header declares.
func inflate(f *zip.File) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, int64(f.UncompressedSize64)+1))
	if err != nil {
		return nil, err
	}
	if uint64(len(b)) != f.UncompressedSize64 {
		return nil, fmt.Errorf("%d bytes where the header says %d", len(b), f.UncompressedSize64)
	}
	// archive/zip checks the CRC only where the header gives one: a CRC of 0 would let
	// changed data through. Data whose CRC is 0 is rare enough to refuse with it.
	if f.CRC32 == 0 && len(b) > 0 && crc32.ChecksumIEEE(b) != 0 {
		return nil, fmt.Errorf("the header's checksum is 0, the data's %08x", crc32.ChecksumIEEE(b))
	}
	return b, nil
}

// Open reads the archive file at path. Its errors are rusim's: "Plugin archive not found:
// <path>" and "Not a valid zip archive: <path>", with the absolute path (for a folder, a named
// pipe or a device, at once and saying which); for hostile content, the path and an
// *EntryError or a limit.
func Open(path string) (*Archive, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("Plugin archive not found: %s", abs) // rusim's text
	}
	if err == nil && !st.Mode().IsRegular() {
		// Refused before opening: opening a named pipe would wait for a writer.
		//lint:ignore ST1005 rusim's own wording, which its clients and users know
		return nil, fmt.Errorf("Not a valid zip archive: %s (%s, not a regular file)", abs, safefile.Describe(st.Mode())) // rusim's text, and why
	}
	f, st, err := safefile.Open(abs) // checks the file it opened again, in case it was swapped
	if errors.Is(err, safefile.ErrNotRegular) {
		//lint:ignore ST1005 rusim's own wording, which its clients and users know
		return nil, fmt.Errorf("Not a valid zip archive: %s (not a regular file)", abs)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	a, err := Read(f, st.Size())
	if errors.Is(err, ErrNotZip) {
		//lint:ignore ST1005 rusim's own wording, which its clients and users know
		return nil, fmt.Errorf("Not a valid zip archive: %s", abs) // rusim's text
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", abs, err) // which archive, for a command given several
	}
	return a, nil
}

// ReadDir reads a plugin folder (a project made by `simgui plugin new`, or an installed
// plugin) with the archive's rules: the same allowed names, sizes and refusals, symbolic
// links included. Files and folders whose names start with "." (.git, .DS_Store) are
// skipped.
func ReadDir(dir string) (*Archive, error) { return DefaultLimits.ReadDir(dir) }

// ReadDir reads a plugin folder with the limits l.
func (l Limits) ReadDir(dir string) (*Archive, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	// A folder without a manifest is not a plugin: say so before judging its other files.
	if _, err := root.Lstat(plugins.ManifestFile); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("not a plugin folder: it has no %s (simgui plugin new makes one)", plugins.ManifestFile)
	}
	var total int64
	seen := newNameSet()
	files := map[string][]byte{}
	err = fs.WalkDir(root.FS(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if name == "." {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		switch t := d.Type(); {
		case t&fs.ModeSymlink != 0:
			return &EntryError{Name: name, Reason: "a symbolic link"}
		case d.IsDir():
			if reason := checkName(name + "/"); reason != "" {
				return &EntryError{Name: name + "/", Reason: reason}
			}
			return nil
		case !t.IsRegular():
			return &EntryError{Name: name, Reason: fmt.Sprintf("not a regular file (mode %v)", t)}
		}
		if len(files) >= l.MaxEntries {
			return fmt.Errorf("the folder has more than %d files; a plugin may have at most %d", l.MaxEntries, l.MaxEntries)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if err := l.checkEntry(name, uint64(info.Size()), seen, &total); err != nil {
			return err
		}
		b, err := readLimited(root, name, info.Size())
		if err != nil {
			return err
		}
		files[name] = b
		return nil
	})
	if ee, ok := errors.AsType[*EntryError](err); ok {
		ee.InFolder = true
	}
	if te, ok := errors.AsType[*TotalError](err); ok {
		te.InFolder = true
	}
	if err != nil {
		return nil, err
	}
	return &Archive{files: files}, nil
}

// readLimited reads a file of the size checked, failing if it grew since.
func readLimited(root *os.Root, name string, size int64) ([]byte, error) {
	f, err := root.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, size+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) != size {
		return nil, fmt.Errorf("%s changed while it was read", name)
	}
	return b, nil
}

// mib formats a size in MiB.
func mib(n uint64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// mibPast formats a size over limit in MiB, or in bytes when a tenth of a MiB would round it
// to the limit itself ("1.0 MiB; a JSON file may be at most 1 MiB" says nothing is wrong).
func mibPast(n, limit uint64) string {
	if fmt.Sprintf("%.1f", float64(n)/(1<<20)) == fmt.Sprintf("%.1f", float64(limit)/(1<<20)) {
		return fmt.Sprintf("%d bytes", n)
	}
	return mib(n)
}
