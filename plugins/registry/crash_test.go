package registry

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"simgui/plugins"
	"simgui/plugins/archive"
)

// errCrashed is what every file operation returns once crashOps has "died".
var errCrashed = errors.New("simulated crash")

// crashOps runs the real file operations up to the crashAt-th call (counting from 1). That
// call and every later one do nothing and fail, as if the process had been killed there:
// error paths and deferred clean-ups of the registry run, but cannot touch the disk. A crash
// inside Unpack leaves half the files, one inside WriteFile a temporary file, as a kill
// would. crashAt 0 never crashes; calls lists what was called.
type crashOps struct {
	crashAt int
	calls   []string
	dead    bool
}

func (c *crashOps) do(op string, partial, f func() error) error {
	c.calls = append(c.calls, op)
	if c.dead || c.crashAt > 0 && len(c.calls) >= c.crashAt {
		if !c.dead && partial != nil {
			partial()
		}
		c.dead = true
		return errCrashed
	}
	return f()
}

func (c *crashOps) MkdirTemp(dir, pattern string) (string, error) {
	var name string
	err := c.do("MkdirTemp "+pattern, nil, func() (err error) { name, err = osOps{}.MkdirTemp(dir, pattern); return err })
	return name, err
}

func (c *crashOps) Unpack(a *archive.Archive, dir string) error {
	half := func() error {
		names := a.Names()
		part, _ := archive.DefaultLimits.FromFiles(map[string][]byte{names[0]: nil})
		return part.Unpack(dir)
	}
	return c.do("Unpack "+filepath.Base(dir), half, func() error { return osOps{}.Unpack(a, dir) })
}

func (c *crashOps) WriteFile(name string, data []byte) error {
	torn := func() error {
		return os.WriteFile(filepath.Join(filepath.Dir(name), "."+filepath.Base(name)+".tmp-crash"), data[:len(data)/2], 0o644)
	}
	return c.do("WriteFile "+filepath.Base(name), torn, func() error { return osOps{}.WriteFile(name, data) })
}

func (c *crashOps) Rename(from, to string) error {
	return c.do("Rename "+filepath.Base(from)+" "+filepath.Base(to), nil, func() error { return osOps{}.Rename(from, to) })
}

func (c *crashOps) Remove(name string) error {
	return c.do("Remove "+filepath.Base(name), nil, func() error { return osOps{}.Remove(name) })
}

func (c *crashOps) RemoveAll(path string) error {
	return c.do("RemoveAll "+filepath.Base(path), nil, func() error { return osOps{}.RemoveAll(path) })
}

const roverID = "vehicle.acme.rover.v1"

// roverVersions returns the template rover as version 1.0.0 (mass 1.2 kg) and 1.1.0 (mass
// 3.5 kg, one more asset) archives.
func roverVersions(t *testing.T) (v1, v2 string) {
	t.Helper()
	a := project(t, plugins.TypeVehicle, roverID)
	v1 = writeArchive(t, a, roverID+".rusim-plugin.zip")
	m, _ := a.File(plugins.ManifestFile)
	d, _ := a.File(plugins.DescriptorFile)
	b, err := a.With(plugins.ManifestFile, []byte(strings.Replace(string(m), `"version": "1.0.0"`, `"version": "1.1.0"`, 1)))
	if err == nil {
		d2 := strings.Replace(string(d), `"mass": 1.2`, `"mass": 3.5`, 1)
		d2 = strings.Replace(d2, `"minor": 0`, `"minor": 1`, 1)
		b, err = b.With(plugins.DescriptorFile, []byte(d2))
	}
	if err == nil {
		b, err = b.With("assets/preview.png", previewPNG(t))
	}
	if err != nil {
		t.Fatal(err)
	}
	return v1, writeArchive(t, b, roverID+".rusim-plugin.zip")
}

// usable checks that a fresh registry in home (a new process) runs the rover as the version
// of the given mass, lists it with the matching version, and that its folder holds exactly
// that version's files.
func usable(t *testing.T, home string, mass float64, want map[float64]string) {
	t.Helper()
	r := Open(home, Options{})
	v, err := r.Vehicle(roverID)
	if err != nil {
		t.Fatalf("the rover is not usable: %v", err)
	}
	if v.Body.Mass != mass {
		t.Fatalf("the rover has mass %g, want %g", v.Body.Mass, mass)
	}
	in, err := r.Info(roverID)
	if err != nil || in.Error != "" {
		t.Fatalf("info: %+v %v", in, err)
	}
	if wantVersion := map[float64]string{1.2: "1.0.0", 3.5: "1.1.0"}[mass]; in.Version != wantVersion {
		t.Errorf("listed as %s, its files are %s", in.Version, wantVersion)
	}
	if got := treeHash(t, r.Path(roverID)); got != want[mass] {
		t.Errorf("plugins/%s differs from a clean install of the version with mass %g", roverID, mass)
	}
}

// cleanHashes installs each version once in a scratch home and returns the hash of its folder
// by mass.
func cleanHashes(t *testing.T, v1, v2 string) map[float64]string {
	out := map[float64]string{}
	for mass, path := range map[float64]string{1.2: v1, 3.5: v2} {
		r := newRegistry(t)
		mustInstall(t, r, path, InstallOptions{})
		out[mass] = treeHash(t, r.Path(roverID))
	}
	return out
}

// nextCommandTidies runs an unrelated install in a new registry (the next command) and checks
// that nothing of the crash is left and the rover is still as usable() found it.
func nextCommandTidies(t *testing.T, home string, mass float64, want map[float64]string) {
	t.Helper()
	r := Open(home, Options{})
	mustInstall(t, r, projectZip(t, plugins.TypeTrack, "track.pond.v1"), InstallOptions{})
	assertNoLeftovers(t, home)
	if exists(filepath.Join(home, journalName)) {
		t.Error("the journal is still there")
	}
	usable(t, home, mass, want)
	if _, err := r.Remove("track.pond.v1"); err != nil {
		t.Fatal(err)
	}
}

// A re-install killed at every one of its file operations (and again at every operation of
// the recovery that follows) leaves the rover usable in the old version (killed before the
// install's journal was written) or the new one (after), and the next command completes it.
func TestReinstallSurvivesACrashAtEveryStep(t *testing.T) {
	v1, v2 := roverVersions(t)
	want := cleanHashes(t, v1, v2)

	// A dry run counts the operations of a re-install and finds where the journal is written.
	setup := func() string {
		r := newRegistry(t)
		mustInstall(t, r, projectZip(t, plugins.TypeTrack, "track.yard.v1"), InstallOptions{})
		mustInstall(t, r, v1, InstallOptions{})
		return r.Home()
	}
	dry := &crashOps{}
	r := Open(setup(), Options{})
	r.ops = dry
	mustInstall(t, r, v2, InstallOptions{})
	journalAt := -1
	for i, c := range dry.calls {
		if c == "WriteFile "+journalName {
			journalAt = i + 1
		}
	}
	t.Logf("a re-install is %d file operations: %s", len(dry.calls), strings.Join(dry.calls, "; "))
	if journalAt < 0 || len(dry.calls) < 7 {
		t.Fatalf("unexpected operations %v", dry.calls)
	}

	for k := 1; k <= len(dry.calls); k++ {
		t.Run(fmt.Sprintf("crash at %d %s", k, strings.Fields(dry.calls[k-1])[0]), func(t *testing.T) {
			mass := 1.2
			if k > journalAt {
				mass = 3.5
			}
			home := setup()
			r := Open(home, Options{})
			r.ops = &crashOps{crashAt: k}
			// A crash while tidying up after the registry file was written does not fail the
			// install (it is complete); any other one does.
			if _, err := r.Install(v2, InstallOptions{}); err != nil && !errors.Is(err, errCrashed) {
				t.Fatalf("install: %v, want the crash", err)
			}
			usable(t, home, mass, want)
			nextCommandTidies(t, home, mass, want)
		})
	}

	// The recovery itself killed at each of its operations: the one after it still completes.
	for k := journalAt + 1; k <= len(dry.calls); k++ {
		for m := 1; ; m++ {
			home := setup()
			r := Open(home, Options{})
			r.ops = &crashOps{crashAt: k}
			r.Install(v2, InstallOptions{})
			rec := &crashOps{crashAt: m}
			r2 := Open(home, Options{})
			r2.ops = rec
			r2.Vehicle(roverID) // a reader: it completes the install under the lock
			if !rec.dead {
				break // the recovery ran to its end without reaching operation m
			}
			t.Run(fmt.Sprintf("crash at %d, then in the recovery at %d %s", k, m, strings.Fields(rec.calls[m-1])[0]), func(t *testing.T) {
				usable(t, home, 3.5, want)
				nextCommandTidies(t, home, 3.5, want)
			})
		}
	}
}

// An older simgui killed between its two renames left the rover listed, its folder in
// .removed-*, and deleted that folder at the next install. Now the next command puts it back.
func TestLeftoverOfAnOlderCrashIsRescued(t *testing.T) {
	v1, v2 := roverVersions(t)
	want := cleanHashes(t, v1, v2)
	r := newRegistry(t)
	mustInstall(t, r, v1, InstallOptions{})
	if err := os.Rename(r.Path(roverID), filepath.Join(r.Home(), ".removed-0123456789ab")); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(r.Home(), ".staging-ffffff"), 0o755) // an empty staging folder too
	nextCommandTidies(t, r.Home(), 1.2, want)
}

// A remove killed at each of its operations leaves the rover installed and usable, or
// removed; the next command leaves nothing behind.
func TestRemoveSurvivesACrashAtEveryStep(t *testing.T) {
	v1, v2 := roverVersions(t)
	want := cleanHashes(t, v1, v2)
	for k := 1; ; k++ {
		r := newRegistry(t)
		mustInstall(t, r, v1, InstallOptions{})
		ops := &crashOps{crashAt: k}
		r.ops = ops
		_, err := r.Remove(roverID)
		if !ops.dead {
			if err != nil {
				t.Fatal(err)
			}
			break
		}
		r2 := Open(r.Home(), Options{})
		if r2.listed(roverID) {
			usable(t, r.Home(), 1.2, want)
			nextCommandTidies(t, r.Home(), 1.2, want)
		} else {
			if _, err := r2.Vehicle(roverID); err == nil {
				t.Error("the removed rover still loads")
			}
			mustInstall(t, r2, projectZip(t, plugins.TypeTrack, "track.pond.v1"), InstallOptions{})
			assertNoLeftovers(t, r.Home())
			mustInstall(t, r2, v1, InstallOptions{}) // and installs again
			usable(t, r.Home(), 1.2, want)
		}
	}
}

// failOps fails the failAt-th file operation with an I/O error and runs all the others: a
// full disk or a permission problem rather than a crash.
type failOps struct {
	failAt int
	calls  []string
}

var errIO = errors.New("simulated I/O error")

func (f *failOps) fail() bool { return len(f.calls) == f.failAt }

func (f *failOps) MkdirTemp(dir, pattern string) (string, error) {
	f.calls = append(f.calls, "MkdirTemp")
	if f.fail() {
		return "", errIO
	}
	return osOps{}.MkdirTemp(dir, pattern)
}

func (f *failOps) Unpack(a *archive.Archive, dir string) error {
	return f.op("Unpack", func() error { return osOps{}.Unpack(a, dir) })
}

func (f *failOps) WriteFile(name string, data []byte) error {
	return f.op("WriteFile", func() error { return osOps{}.WriteFile(name, data) })
}

func (f *failOps) Rename(from, to string) error {
	return f.op("Rename", func() error { return osOps{}.Rename(from, to) })
}

func (f *failOps) Remove(name string) error {
	return f.op("Remove", func() error { return osOps{}.Remove(name) })
}

func (f *failOps) RemoveAll(path string) error {
	return f.op("RemoveAll", func() error { return osOps{}.RemoveAll(path) })
}

func (f *failOps) op(name string, g func() error) error {
	f.calls = append(f.calls, name)
	if f.fail() {
		return errIO
	}
	return g()
}

// A re-install whose k-th file operation fails puts everything back: the home folder is
// byte-identical and the old rover runs. A failure after the registry file is written only
// leaves tidying for the next command.
func TestReinstallFailureAtEveryStepPutsBackWhatWasThere(t *testing.T) {
	v1, v2 := roverVersions(t)
	want := cleanHashes(t, v1, v2)
	for k := 1; k <= 8; k++ {
		r := newRegistry(t)
		mustInstall(t, r, v1, InstallOptions{})
		before := treeHash(t, r.Home())
		ops := &failOps{failAt: k}
		r.ops = ops
		_, err := r.Install(v2, InstallOptions{})
		step := ops.calls[k-1]
		switch {
		case k <= 6 && !errors.Is(err, errIO):
			t.Errorf("%s failed: install says %v", step, err)
		case k <= 6 && treeHash(t, r.Home()) != before:
			t.Errorf("%s failed: the home folder changed", step)
		case k <= 6:
			usable(t, r.Home(), 1.2, want)
		case err != nil:
			t.Errorf("%s failed after the install was recorded: %v", step, err)
		default:
			nextCommandTidies(t, r.Home(), 3.5, want)
		}
	}
}
