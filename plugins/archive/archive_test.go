package archive

import (
	"archive/zip"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"simgui/assets"
)

// builtinArchive returns a built-in plugin folder as an Archive.
func builtinArchive(t testing.TB, id string) *Archive {
	t.Helper()
	files := map[string][]byte{}
	entries, err := fs.ReadDir(assets.Plugins, path.Join("plugins", id))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := fs.ReadFile(assets.Plugins, path.Join("plugins", id, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = b
	}
	a, err := DefaultLimits.FromFiles(files)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func zipBytes(t testing.TB, a *Archive) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := a.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestCheckName(t *testing.T) {
	for name, want := range map[string]string{
		"manifest.json":             "",
		"README.md":                 "",
		"SIGNATURE.json":            "",
		"assets/":                   "",
		"assets/preview.png":        "",
		"assets/tex/road.JPG":       "",
		"assets/a/b/c/d.webp":       "",
		"assets/a/b/c/d/e.png":      "not part of a plugin",
		"assets/notes.txt":          "not part of a plugin",
		"assets.png":                "not part of a plugin",
		"readme.md":                 "not part of a plugin",
		"manifest.json/":            "not part of a plugin",
		"lib/evil.so":               "not part of a plugin",
		"../manifest.json":          "the path leaves the archive (..)",
		"assets/../../x.png":        "the path leaves the archive (..)",
		"/manifest.json":            "absolute path",
		"C:/manifest.json":          "absolute path",
		`assets\x.png`:              "backslash",
		"assets//x.png":             "not clean",
		"./manifest.json":           "not clean",
		"assets/x\x00.png":          "control character",
		"assets/x\u0085.png":        "control character",
		"assets/\xff.png":           "not UTF-8",
		"assets/a:b.png":            "not portable",
		"assets/x.png.":             "not portable",
		"":                          "empty",
		strings.Repeat("a", 256):    "longer than 255",
		"assets/" + "é.png":         "",
		"assets/" + "中文/" + "x.png": "",
	} {
		got := checkName(name)
		if want == "" && got != "" || want != "" && !strings.Contains(got, want) {
			t.Errorf("checkName(%q) = %q, want %q", name, got, want)
		}
	}
}

// Write then Read gives back the same files, and the same files always make the same bytes.
func TestWriteReadRoundTrip(t *testing.T) {
	a := builtinArchive(t, "vehicle.ks0223.v1")
	a, err := a.With("assets/preview.png", []byte("\x89PNG not really"))
	if err != nil {
		t.Fatal(err)
	}
	b := zipBytes(t, a)
	back, err := Read(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.files, a.files) {
		t.Errorf("round trip changed the files: %v", back.Names())
	}
	if again := zipBytes(t, back); !bytes.Equal(again, b) {
		t.Error("writing the same files twice gave different bytes")
	}
	dir := t.TempDir()
	if err := back.Unpack(dir); err != nil {
		t.Fatal(err)
	}
	fromDir, err := ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fromDir.files, a.files) {
		t.Errorf("unpack and read back: %v", fromDir.Names())
	}
}

func TestOpenErrorsAreRusims(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "none.zip")
	if _, err := Open(missing); err == nil || err.Error() != "Plugin archive not found: "+missing {
		t.Errorf("missing: %v", err)
	}
	notZip := filepath.Join(dir, "x.zip")
	os.WriteFile(notZip, []byte("just text"), 0o644)
	if _, err := Open(notZip); err == nil || err.Error() != "Not a valid zip archive: "+notZip {
		t.Errorf("not a zip: %v", err)
	}
	// Files that are not regular are refused at once, saying what they are; a named pipe
	// without a writer would otherwise block the install forever.
	fifo := filepath.Join(dir, "pipe.rusim-plugin.zip")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for path, what := range map[string]string{dir: "a folder", fifo: "a named pipe", "/dev/zero": "a character device"} {
		want := "Not a valid zip archive: " + path + " (" + what + ", not a regular file)"
		if _, err := Open(path); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", what, err, want)
		}
	}
}

func TestReadDirRefusesLinksAndStrays(t *testing.T) {
	mk := func(t *testing.T) string {
		dir := t.TempDir()
		if err := builtinArchive(t, "track.maze.v1").Unpack(dir); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	dir := mk(t)
	os.WriteFile(filepath.Join(dir, ".DS_Store"), []byte("x"), 0o644)
	os.MkdirAll(filepath.Join(dir, ".git", "objects"), 0o755)
	if a, err := ReadDir(dir); err != nil || len(a.Names()) != 3 {
		t.Errorf("hidden files are skipped: %v %v", a, err)
	}
	for _, tc := range []struct {
		name  string
		spoil func(dir string)
		want  string
	}{
		{"link to a file", func(d string) { os.Symlink("/etc/passwd", filepath.Join(d, "README.md.lnk")) }, `"README.md.lnk": a symbolic link`},
		{"link in assets", func(d string) {
			os.Mkdir(filepath.Join(d, "assets"), 0o755)
			os.Symlink("/etc", filepath.Join(d, "assets", "x.png"))
		}, `"assets/x.png": a symbolic link`},
		{"stray file", func(d string) { os.WriteFile(filepath.Join(d, "notes.txt"), nil, 0o644) }, `plugin folder entry "notes.txt": not part of a plugin`},
		{"no manifest", func(d string) {
			os.Remove(filepath.Join(d, "manifest.json"))
			os.WriteFile(filepath.Join(d, "bad.zip"), nil, 0o644)
		}, "not a plugin folder: it has no manifest.json"},
		{"stray folder", func(d string) { os.MkdirAll(filepath.Join(d, "src", "x"), 0o755) }, `"src/": not part of a plugin`},
		{"big JSON", func(d string) {
			os.WriteFile(filepath.Join(d, "descriptor.json"), bytes.Repeat([]byte(" "), 2<<20), 0o644)
		}, `"descriptor.json": 2 MiB; a JSON file may be at most 1 MiB`},
		{"JSON just past the limit", func(d string) {
			os.WriteFile(filepath.Join(d, "descriptor.json"), bytes.Repeat([]byte(" "), 1<<20+10), 0o644)
		}, `"descriptor.json": 1048586 bytes; a JSON file may be at most 1 MiB`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := mk(t)
			tc.spoil(d)
			_, err := ReadDir(d)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestLimits(t *testing.T) {
	l := Limits{MaxEntries: 3, MaxTotal: 1000, MaxJSON: 100, BombSize: 50, MaxRatio: 2}
	files := map[string][]byte{"manifest.json": []byte("{}"), "README.md": bytes.Repeat([]byte("x"), 900)}
	if _, err := l.FromFiles(files); err != nil {
		t.Fatal(err)
	}
	files["assets/a.png"] = make([]byte, 200)
	if _, err := l.FromFiles(files); err == nil || !strings.Contains(err.Error(), "uncompressed size is over") {
		t.Errorf("total: %v", err)
	}
	// A folder over the total is called a folder: it has no uncompressed size.
	dir := t.TempDir()
	for name, b := range files {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := l.ReadDir(dir)
	if total, ok := errors.AsType[*TotalError](err); !ok || !total.InFolder || !strings.Contains(err.Error(), "plugin folder's files are over") {
		t.Errorf("total of a folder: %v", err)
	}
	delete(files, "assets/a.png")
	files["descriptor.json"] = make([]byte, 101)
	if _, err := l.FromFiles(files); err == nil || !strings.Contains(err.Error(), "a JSON file may be at most") {
		t.Errorf("JSON: %v", err)
	}
	files["assets/b.png"] = nil
	if _, err := l.FromFiles(files); err == nil || !strings.Contains(err.Error(), "at most 3") {
		t.Errorf("entries: %v", err)
	}
	// A ratio bomb: 60 bytes of zeros deflate to a few bytes.
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, _ := zw.Create("assets/z.png")
	w.Write(make([]byte, 60))
	zw.Close()
	if _, err := l.Read(bytes.NewReader(b.Bytes()), int64(b.Len())); err == nil || !strings.Contains(err.Error(), "compression bomb") {
		t.Errorf("bomb: %v", err)
	}
	var entry *EntryError
	_, err = l.Read(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if !errors.As(err, &entry) || entry.Name != "assets/z.png" {
		t.Errorf("bomb error %T %v", err, err)
	}
}
