package editor

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"simgui/plugins"
	"simgui/plugins/scaffold"
)

// finish runs the editor's queued jobs on a worker of the test's until none is left.
func finish(t *testing.T, e *Editor) {
	t.Helper()
	for e.busy != "" || len(e.queue) > 0 {
		job := <-e.jobs
		apply := job()
		e.busy = ""
		apply()
		e.startNext()
	}
}

// Save writes an opened folder's edits back into it, file by file through temporary files and
// only what changed; the toolbar says when there are unsaved changes. A plugin that did not
// come from a folder is saved as a new one named for its id, never over a folder there; text
// that is not a number is not saved as 0.
func TestSaveWritesBackToTheFolder(t *testing.T) {
	e := testEditor(t, plugins.TypeVehicle)
	e.jobs = make(chan func() func(), 8)
	e.opts.ExportDir = t.TempDir()
	e.save()
	if !strings.Contains(e.status, "give it an id first") || e.statusKind != statusFailed {
		t.Fatalf("saving a new plugin without an id: %q (%s)", e.status, e.statusKind)
	}
	e.d.vehicle.Base.ID, e.d.vehicle.Base.DisplayName = "vehicle.acme.fresh.v1", "Fresh"
	e.save()
	finish(t, e)
	fresh := filepath.Join(e.opts.ExportDir, "vehicle.acme.fresh.v1")
	if e.d.folder != fresh || e.unsaved() || e.statusKind != statusDone {
		t.Fatalf("saving a new plugin: folder %q, status %q", e.d.folder, e.status)
	}
	if reopened, _, err := openPath(fresh); err != nil || reopened.id() != "vehicle.acme.fresh.v1" {
		t.Fatalf("the saved folder opens as %v: %v", reopened, err)
	}
	e.startNew(plugins.TypeVehicle)
	e.d.vehicle.Base.ID, e.d.vehicle.Base.DisplayName = "vehicle.acme.fresh.v1", "Other"
	e.save()
	if !strings.Contains(e.status, "exists already") || e.d.folder != "" {
		t.Fatalf("saving a second new plugin of that id: %q", e.status)
	}

	dir := roverFolder(t, e, t.TempDir(), "vehicle.acme.rover.v1")
	opened, _, err := openPath(dir)
	if err != nil || opened.folder != dir {
		t.Fatalf("opened %v from %s: folder %q", err, dir, opened.folder)
	}
	e.load(opened, nil)
	if e.unsaved() {
		t.Fatal("unsaved changes right after opening")
	}
	contract, _ := os.ReadFile(filepath.Join(dir, plugins.ContractFile))
	stamp, _ := os.Stat(filepath.Join(dir, plugins.ContractFile))

	e.d.vehicle.Mass = "2.5"
	e.check()
	if !e.unsaved() {
		t.Fatal("a changed mass is not an unsaved change")
	}
	e.save()
	finish(t, e)
	if e.statusKind != statusDone || !strings.Contains(e.status, "saved to "+dir+" (1 changed file)") || e.unsaved() {
		t.Fatalf("after Save: %q (%s), unsaved %v", e.status, e.statusKind, e.unsaved())
	}
	var desc struct {
		Body struct{ Mass float64 } `json:"body"`
	}
	raw, _ := os.ReadFile(filepath.Join(dir, plugins.DescriptorFile))
	if err := json.Unmarshal(raw, &desc); err != nil || desc.Body.Mass != 2.5 {
		t.Errorf("descriptor.json after Save: mass %g (%v)", desc.Body.Mass, err)
	}
	if now, _ := os.ReadFile(filepath.Join(dir, plugins.ContractFile)); string(now) != string(contract) {
		t.Error("the unchanged contract was rewritten differently")
	}
	if st, _ := os.Stat(filepath.Join(dir, plugins.ContractFile)); !st.ModTime().Equal(stamp.ModTime()) {
		t.Error("the unchanged contract was written again")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	reopened, _, err := openPath(dir)
	if err != nil || reopened.vehicle.Mass != "2.5" {
		t.Errorf("the folder opened again: mass %q (%v)", reopened.vehicle.Mass, err)
	}

	e.d.vehicle.Mass = "heavy"
	e.check()
	e.save()
	if e.statusKind != statusFailed || !strings.Contains(e.status, "nothing saved") {
		t.Errorf("saving text that is not a number: %q", e.status)
	}
	if raw2, _ := os.ReadFile(filepath.Join(dir, plugins.DescriptorFile)); string(raw2) != string(raw) {
		t.Error("a refused Save changed descriptor.json")
	}
}

// New or Open with changes not kept asks first: the first click says so and changes nothing,
// a second click of the same button discards them; an edit in between asks again.
func TestLeavingAsksBeforeDiscarding(t *testing.T) {
	e := testEditor(t, plugins.TypeVehicle)
	e.jobs = make(chan func() func(), 8)
	started := 0
	start := func() { started++; e.startNew(plugins.TypeTrack) }
	e.leave("New track", start) // nothing typed yet: nothing to lose
	if started != 1 || e.d.typ != plugins.TypeTrack {
		t.Fatalf("a new draft with no changes did not give way (%d starts)", started)
	}
	e.d.track.Base.DisplayName = "Yard"
	e.leave("New track", start)
	if started != 1 || e.statusKind != statusAsk || !strings.Contains(e.status, "click New track again within 10s to discard them") {
		t.Fatalf("first click with changes: %d starts, %q", started, e.status)
	}
	e.d.track.Base.DisplayName = "Yard 2" // changed since: ask again
	e.leave("New track", start)
	if started != 1 {
		t.Fatal("a second click after another change discarded it without asking")
	}
	e.leave("New vehicle", start) // another button asks for itself
	if started != 1 {
		t.Fatal("another button discarded the changes without asking")
	}
	e.leave("New vehicle", start)
	if started != 2 || e.d.track.Base.DisplayName != "" {
		t.Fatalf("the second click of the same button: %d starts, name %q", started, e.d.track.Base.DisplayName)
	}
}

// Saving a project `simgui plugin new` made, with nothing changed, writes nothing: the
// template's files hold the same JSON written in their own way (1.0 for 1, another key order).
func TestSaveWithoutChangesKeepsTheFiles(t *testing.T) {
	for _, typ := range []plugins.Type{plugins.TypeVehicle, plugins.TypeTrack} {
		e := testEditor(t, typ)
		e.jobs = make(chan func() func(), 8)
		id := map[plugins.Type]string{plugins.TypeVehicle: "vehicle.acme.rover.v1", plugins.TypeTrack: "track.acme.yard.v1"}[typ]
		out := t.TempDir()
		if _, err := scaffold.New(scaffold.Options{Type: typ, ID: id, OutputDir: out}); err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(out, id)
		before := map[string][]byte{}
		entries, _ := os.ReadDir(dir)
		for _, en := range entries {
			if !en.IsDir() {
				before[en.Name()], _ = os.ReadFile(filepath.Join(dir, en.Name()))
			}
		}
		opened, _, err := openPath(dir)
		if err != nil {
			t.Fatal(err)
		}
		e.load(opened, nil)
		e.save()
		finish(t, e)
		if !strings.Contains(e.status, "(0 changed files)") {
			t.Errorf("%s: saving with nothing changed: %q", typ, e.status)
		}
		for name, b := range before {
			if now, _ := os.ReadFile(filepath.Join(dir, name)); string(now) != string(b) {
				t.Errorf("%s: %s was rewritten", typ, name)
			}
		}
	}
}

// A folder named for one id, saved under another, is a new version: Save makes a folder for the
// new id beside it and leaves the first as it was; a folder of the user's own name is saved in
// place whatever the id.
func TestSaveUnderNewIDKeepsTheOldFolder(t *testing.T) {
	e := testEditor(t, plugins.TypeVehicle)
	e.jobs = make(chan func() func(), 8)
	root := t.TempDir()
	place := func(name string) string {
		dir := roverFolder(t, e, root, name)
		e.load(mustOpen(t, dir), nil)
		return dir
	}
	idOf := func(dir string) string {
		opened, _, err := openPath(dir)
		if err != nil {
			t.Fatalf("opening %s: %v", dir, err)
		}
		return opened.id()
	}

	v1 := place("vehicle.acme.rover.v1")
	e.d.vehicle.Base.ID = "vehicle.acme.rover.v2"
	e.check()
	e.save()
	finish(t, e)
	v2 := filepath.Join(root, "vehicle.acme.rover.v2")
	if e.statusKind != statusDone || !strings.Contains(e.status, "left as it was") || e.d.folder != v2 {
		t.Fatalf("saving v1's folder as v2: %q (%s), folder %q", e.status, e.statusKind, e.d.folder)
	}
	if got := idOf(v1); got != "vehicle.acme.rover.v1" {
		t.Errorf("the v1 folder now holds %s", got)
	}
	if got := idOf(v2); got != "vehicle.acme.rover.v2" {
		t.Errorf("the new folder holds %s", got)
	}

	// Again from v1: v2's folder is there now and is not written over.
	e.load(mustOpen(t, v1), nil)
	e.d.vehicle.Base.ID = "vehicle.acme.rover.v2"
	e.d.vehicle.Mass = "9"
	e.check()
	e.save()
	if e.statusKind != statusFailed || !strings.Contains(e.status, "exists already") {
		t.Errorf("saving over an existing v2 folder: %q (%s)", e.status, e.statusKind)
	}

	mine := place("my-rover")
	e.d.vehicle.Base.ID = "vehicle.acme.rover.v3"
	e.check()
	e.save()
	finish(t, e)
	if e.statusKind != statusDone || e.d.folder != mine || idOf(mine) != "vehicle.acme.rover.v3" {
		t.Errorf("a folder of the user's own name: %q, folder %q", e.status, e.d.folder)
	}
}

func mustOpen(t *testing.T, dir string) *draft {
	t.Helper()
	d, _, err := openPath(dir)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// A README the author wrote survives: a save under a new id carries it over (its old id
// renamed), and one edited in the folder since it was opened is kept, not written over.
func TestSaveKeepsTheAuthorsReadme(t *testing.T) {
	e := testEditor(t, plugins.TypeVehicle)
	e.jobs = make(chan func() func(), 8)
	root := t.TempDir()
	v1 := roverFolder(t, e, root, "vehicle.acme.rover.v1")
	notes := "# Rover (vehicle.acme.rover.v1)\n\nMy notes on wiring the rover.\n"
	if err := os.WriteFile(filepath.Join(v1, plugins.ReadmeFile), []byte(notes), 0o644); err != nil {
		t.Fatal(err)
	}
	e.load(mustOpen(t, v1), nil)
	e.d.vehicle.Base.ID = "vehicle.acme.rover.v2"
	e.check()
	e.save()
	finish(t, e)
	v2 := filepath.Join(root, "vehicle.acme.rover.v2")
	readme := func(dir string) string {
		b, _ := os.ReadFile(filepath.Join(dir, plugins.ReadmeFile))
		return string(b)
	}
	if got := readme(v2); got != strings.ReplaceAll(notes, "v1", "v2") {
		t.Errorf("the new folder's README:\n%s", got)
	}
	// Edited by hand in the new folder, then a field changes and Save runs twice.
	edited := readme(v2) + "\nWired on Tuesday.\n"
	if err := os.WriteFile(filepath.Join(v2, plugins.ReadmeFile), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, mass := range []string{"2.5", "2.6"} {
		e.d.vehicle.Mass = mass
		e.check()
		e.save()
		finish(t, e)
		if e.statusKind != statusDone || readme(v2) != edited {
			t.Fatalf("mass %s: %q; README now:\n%s", mass, e.status, readme(v2))
		}
	}
}

// roverFolder unpacks the KS0223 as vehicle.acme.rover.v1 into dir/name and returns its path.
func roverFolder(t *testing.T, e *Editor, dir, name string) string {
	t.Helper()
	d := builtinKS0223(t, e)
	d.vehicle.Base.ID, d.vehicle.Base.DisplayName = "vehicle.acme.rover.v1", "Acme Rover"
	b, _ := d.build()
	a, ps := b.validate()
	if len(ps.Errors()) > 0 {
		t.Fatal(ps)
	}
	path := filepath.Join(dir, name)
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := a.Unpack(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// The question about a draft with changes not kept and no folder yet (a new plugin, a built-in
// opened) offers Save too, which makes it a folder beside the exports: it offered only Export
// and Install, while Save (Ctrl+S) is what keeps a plugin being made.
func TestLeavingOffersSaveForANewDraft(t *testing.T) {
	e := testEditor(t, plugins.TypeVehicle)
	e.jobs = make(chan func() func(), 8)
	e.d.vehicle.Base.DisplayName = "Rover"
	e.leave("New track", func() { t.Fatal("the changes were discarded without asking") })
	if e.statusKind != statusAsk || !strings.Contains(e.status, "or Save, Export or Install them") {
		t.Errorf("the question: %q", e.status)
	}
}
