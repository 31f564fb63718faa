package editor

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"simgui/plugins"
	"simgui/plugins/archive"
)

// validArchive is a filled-in new vehicle, checked, as Export packs it.
func validArchive(t *testing.T) (*archive.Archive, string) {
	return validArchiveOf(t, "vehicle.acme.rover.v1")
}

// validArchiveOf is validArchive with the plugin id.
func validArchiveOf(t *testing.T, id string) (*archive.Archive, string) {
	t.Helper()
	d, err := newDraft(plugins.TypeVehicle)
	if err != nil {
		t.Fatal(err)
	}
	d.vehicle.Base.ID, d.vehicle.Base.DisplayName = id, "Acme Rover"
	b, err := d.build()
	if err != nil {
		t.Fatal(err)
	}
	a, ps := b.validate()
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	return a, d.id()
}

// TestExportFileName: a name typed with a .zip ending is written as typed (as `simgui plugin
// export -o cli.zip` writes cli.zip); a folder gets <id>.rusim-plugin.zip, any other name the
// extension.
func TestExportFileName(t *testing.T) {
	a, id := validArchive(t)
	dir := t.TempDir()
	for _, c := range []struct{ typed, want string }{
		{"x.zip", "x.zip"},
		{"Upper.ZIP", "Upper.ZIP"},
		{"rover" + ArchiveExt, "rover" + ArchiveExt},
		{"rover", "rover" + ArchiveExt},
		{"", id + ArchiveExt}, // the folder itself
	} {
		t.Run(c.typed, func(t *testing.T) {
			res, err := exportArchive(a, id, filepath.Join(dir, c.typed), "", false)
			if err != nil {
				t.Fatal(err)
			}
			if want := filepath.Join(dir, c.want); res.path != want {
				t.Errorf("typed %q: wrote %s, want %s", c.typed, res.path, want)
			}
			if _, err := archive.Open(res.path); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestExportErrorsNameTheFile: an export that cannot be written says so with the path typed,
// never with the temporary file it writes first.
func TestExportErrorsNameTheFile(t *testing.T) {
	a, id := validArchive(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "file.txt")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	busy := filepath.Join(dir, "busy.zip") // a folder with something in it: the rename fails
	if err := os.MkdirAll(filepath.Join(busy, id+ArchiveExt, "inside"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, path, want string }{
		{"missing folder", filepath.Join(dir, "nowhere", "x.zip"),
			"cannot write " + filepath.Join(dir, "nowhere", "x.zip") + ": folder " + filepath.Join(dir, "nowhere") + " does not exist"},
		// A path typed with a final slash names a folder: it was taken for the name
		// ".rusim-plugin.zip" in it, a hidden file once the folder was made.
		{"missing folder typed as one", filepath.Join(dir, "nowhere") + string(filepath.Separator),
			"cannot write " + filepath.Join(dir, "nowhere", id+ArchiveExt) + ": folder " + filepath.Join(dir, "nowhere") + " does not exist"},
		{"file for a folder", filepath.Join(file, "sub", "x.zip"),
			"cannot write " + filepath.Join(file, "sub", "x.zip") + ": " + file + " is not a folder"},
		{"folder that takes no files", "/proc/x.zip", "cannot write /proc/x.zip: "}, // even for root
		{"folder at the name", busy, "cannot write " + filepath.Join(busy, id+ArchiveExt) + ": it is a folder"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if strings.HasPrefix(c.path, "/proc/") && runtime.GOOS != "linux" {
				t.Skip("no /proc")
			}
			_, err := exportArchive(a, id, c.path, "", false)
			if err == nil {
				t.Fatal("no error")
			}
			t.Log(err)
			if !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), ".tmp-") {
				t.Errorf("error %q, want %q...", err, c.want)
			}
		})
	}
}

// TestExportKeepsOtherFiles: an export over an archive of the same plugin replaces it; over
// another plugin's archive or a file that is no archive it leaves the file and says what it
// holds, unless told to replace it.
func TestExportKeepsOtherFiles(t *testing.T) {
	a, id := validArchive(t)
	dir := t.TempDir()
	same := filepath.Join(dir, "same.zip")
	if _, err := exportArchive(a, id, same, "", false); err != nil {
		t.Fatal(err)
	}
	if _, err := exportArchive(a, id, same, "", false); err != nil {
		t.Errorf("over an archive of the same plugin: %v", err)
	}
	other := filepath.Join(dir, "other.zip")
	b, bid := validArchiveOf(t, "vehicle.acme.other.v1")
	if _, err := exportArchive(b, bid, other, "", false); err != nil {
		t.Fatal(err)
	}
	notes := filepath.Join(dir, "notes.zip")
	if err := os.WriteFile(notes, []byte("my notes"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, holds string }{{other, "vehicle.acme.other.v1"}, {notes, ""}} {
		before, _ := os.ReadFile(c.path)
		_, err := exportArchive(a, id, c.path, "", false)
		var occ *occupiedError
		if !errors.As(err, &occ) || occ.holds != c.holds || occ.path != c.path {
			t.Errorf("export over %s: %v, want it to say the file holds %q", c.path, err, c.holds)
		}
		if after, _ := os.ReadFile(c.path); string(after) != string(before) {
			t.Errorf("%s was changed", c.path)
		}
		if _, err := exportArchive(a, id, c.path, "", true); err != nil || archivePluginID(c.path) != id {
			t.Errorf("replacing %s: %v, it holds %q", c.path, err, archivePluginID(c.path))
		}
	}
}
