package registry

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"simgui/plugins"
	"simgui/plugins/archive"
	"simgui/plugins/scaffold"
)

// previewPNG is a 2×2 PNG, an asset image as a plugin carries one.
func previewPNG(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// newRegistry opens a registry in a fresh temporary home, with a fixed clock.
func newRegistry(t *testing.T) *Registry {
	t.Helper()
	return Open(filepath.Join(t.TempDir(), "rusim-home"), Options{
		Now: func() time.Time { return time.Date(2026, 3, 4, 5, 6, 7, 0, time.Local) },
	})
}

// project makes a plugin project from the template and returns it as an archive.
func project(t testing.TB, typ plugins.Type, id string) *archive.Archive {
	t.Helper()
	dir := t.TempDir()
	if _, err := scaffold.New(scaffold.Options{Type: typ, ID: id, OutputDir: dir, Author: "test"}); err != nil {
		t.Fatal(err)
	}
	a, err := archive.ReadDir(filepath.Join(dir, id))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// writeArchive writes a as <dir>/<name> and returns the path.
func writeArchive(t testing.TB, a *archive.Archive, name string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := a.WriteFile(p); err != nil {
		t.Fatal(err)
	}
	return p
}

// projectZip makes a template project and writes it as <id>.rusim-plugin.zip.
func projectZip(t testing.TB, typ plugins.Type, id string) string {
	return writeArchive(t, project(t, typ, id), id+".rusim-plugin.zip")
}

// treeHash hashes every path, type and content under dir (missing: "absent").
func treeHash(t testing.TB, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(h, "%s %v\n", rel, d.Type())
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "%x\n", sha256.Sum256(b))
		}
		return nil
	})
	if os.IsNotExist(err) {
		return "absent"
	}
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func mustInstall(t testing.TB, r *Registry, path string, opts InstallOptions) *InstallReport {
	t.Helper()
	rep, err := r.Install(path, opts)
	if err != nil {
		t.Fatalf("install %s: %v", filepath.Base(path), err)
	}
	return rep
}

// assertNoLeftovers fails if staging, previous, removed, journal or temporary registry files
// remain in home.
func assertNoLeftovers(t testing.TB, home string) {
	t.Helper()
	for _, pat := range []string{".staging-*", ".removed-*", ".previous-*", "." + FileName + ".tmp-*", journalName + "*", "." + journalName + ".tmp-*"} {
		if left, _ := filepath.Glob(filepath.Join(home, pat)); len(left) != 0 {
			t.Errorf("left behind: %v", left)
		}
	}
}
