package editor

import (
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"simgui/plugins"
	"simgui/plugins/archive"
	"simgui/plugins/registry"
	"simgui/plugins/signing"
	"simgui/safefile"
)

// ArchiveExt ends the name of every plugin archive.
const ArchiveExt = ".rusim-plugin.zip"

// pack is the archive an export or install writes: the checked files, signed with the key
// file when one is given — the steps of `simgui plugin export`, with the same functions.
func pack(a *archive.Archive, keyFile string) (*archive.Archive, string, error) {
	a = a.Without(plugins.SignatureFile)
	if strings.TrimSpace(keyFile) == "" {
		return a, "", nil
	}
	key, err := signing.ReadPrivateKey(expandHome(strings.TrimSpace(keyFile)))
	if err != nil {
		return nil, "", fmt.Errorf("sign: %w", err)
	}
	sig, err := signing.Sign(a.Files(), key)
	if err != nil {
		return nil, "", fmt.Errorf("sign: %w", err)
	}
	signed, err := a.With(plugins.SignatureFile, sig)
	if err != nil {
		return nil, "", err
	}
	return signed, signing.KeyID(key.Public().(ed25519.PublicKey)), nil
}

// exportResult is what an export did.
type exportResult struct {
	path     string
	signedBy string
}

// exportArchive packs a and writes it to path atomically (archive.Archive.WriteFile); see
// exportFile for the name. Its errors name the file as the user typed it, made absolute.
// Unless replace, a file there that is not an archive of the same plugin is left as it is
// (an *occupiedError).
func exportArchive(a *archive.Archive, id, path, keyFile string, replace bool) (*exportResult, error) {
	path = expandHome(strings.TrimSpace(path))
	if path == "" {
		return nil, fmt.Errorf("no file to export to: type a path or choose one with Export as")
	}
	abs, err := filepath.Abs(exportFile(path, id))
	if err != nil {
		return nil, err
	}
	if err := safefile.CheckWritable(abs); err != nil {
		return nil, err
	}
	if _, err := os.Lstat(abs); err == nil && !replace {
		if holds := archivePluginID(abs); holds != id {
			return nil, &occupiedError{path: abs, holds: holds}
		}
	}
	signed, keyID, err := pack(a, keyFile)
	if err != nil {
		return nil, err
	}
	if err := signed.WriteFile(abs); err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", abs, safefile.Cause(err))
	}
	return &exportResult{path: abs, signedBy: keyID}, nil
}

// occupiedError is an export's file that holds something else: another plugin's archive
// (holds is its id) or a file that is no plugin archive (holds is "").
type occupiedError struct{ path, holds string }

func (e *occupiedError) Error() string {
	what := "a file that is not a plugin archive"
	if e.holds != "" {
		what = "the archive of " + e.holds
	}
	return e.path + " holds " + what
}

// archivePluginID is the pluginId of the plugin archive at path, "" when it is none.
func archivePluginID(path string) string {
	a, err := archive.Open(path)
	if err != nil {
		return ""
	}
	b, ok := a.File(plugins.ManifestFile)
	if !ok {
		return ""
	}
	var m struct {
		PluginID string `json:"pluginId"`
	}
	if json.Unmarshal(b, &m) != nil {
		return ""
	}
	return m.PluginID
}

// exportFile is the archive an export to path writes: a path that is a folder, or is typed
// as one (with a final slash), gets <id>.rusim-plugin.zip inside it; a name ending in .zip
// (any case) is kept as typed, as `simgui plugin export -o` keeps it; any other name gets
// .rusim-plugin.zip added.
func exportFile(path, id string) string {
	if st, err := os.Stat(path); err == nil && st.IsDir() || path != "" && os.IsPathSeparator(path[len(path)-1]) {
		return filepath.Join(path, id+ArchiveExt)
	}
	if strings.HasSuffix(strings.ToLower(path), ".zip") {
		return path
	}
	return path + ArchiveExt
}

// installResult is what Install & test drive did before the test drive.
type installResult struct {
	report  *registry.InstallReport
	vehicle *plugins.VehicleDescriptor // as the registry loads it; nil for tracks
}

// installArchive packs a and installs it into reg (registry.Registry.InstallArchive, as
// `simgui plugin install` does), then reads the vehicle back as the runtime will spawn it.
func installArchive(reg *registry.Registry, a *archive.Archive, id, keyFile string) (*installResult, error) {
	signed, _, err := pack(a, keyFile)
	if err != nil {
		return nil, err
	}
	rep, err := reg.InstallArchive(signed, "simgui editor", registry.InstallOptions{})
	if err != nil {
		return nil, fmt.Errorf("install %s: %w", id, err)
	}
	res := &installResult{report: rep}
	if rep.Type == string(plugins.TypeVehicle) {
		if res.vehicle, err = reg.Vehicle(id); err != nil {
			return nil, fmt.Errorf("installed %s, but it does not load: %w", id, err)
		}
	}
	return res, nil
}

// expandHome turns a leading ~/ into the home folder, as a shell would for a typed path.
func expandHome(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return p
}

// install validates the plugin, installs it into the registry on the worker and then asks the
// host to test-drive it: a vehicle is spawned into the running world at once; a track would
// replace the running scenario, so its drive waits for a second click (driveTrack).
func (e *Editor) install() {
	id := e.d.id()
	if e.host.DriveTrack != nil && e.armed == driveAction+id && e.armedKey == e.liveKey {
		e.driveTrack(id)
		return
	}
	if !e.validate() {
		e.failed("nothing installed: " + e.status)
		return
	}
	a, _ := e.current.validate()
	keyFile, draftKey := e.keyPath, e.liveKey
	e.run("installing "+id, func() func() {
		res, err := installArchive(e.reg, a, id, keyFile)
		if errors.Is(err, registry.ErrBuiltinID) {
			err = fmt.Errorf("%s is built in and cannot be replaced: give your copy an id of its own (and a display name), then install it", id)
		}
		return func() {
			if err != nil {
				e.failedErr(err)
				e.hostStatus("install failed: " + err.Error())
				return
			}
			e.record.Installed = append(e.record.Installed, id)
			e.kept(draftKey)
			msg := fmt.Sprintf("installed %s %s to %s", id, res.report.Version, res.report.InstalledTo)
			switch {
			case res.vehicle == nil && e.host.DriveTrack != nil:
				e.armed, e.armedKey = driveAction+id, draftKey
				msg += "; click Install & test drive again to drive on it in place of the running scenario"
			case res.vehicle == nil:
				msg += "; name it as world.trackId in a scenario to drive on it"
			case e.host.TestDrive == nil:
				msg += "; test drive needs the simulator window (run simgui and press F2 for the editor)"
			default:
				if err := e.host.TestDrive(res.vehicle); err != nil {
					e.failed(msg + "; test drive: " + err.Error())
					return
				}
				e.record.TestDriven = append(e.record.TestDriven, id)
				msg += "; handed to the running world to spawn (F2 shows it there)"
			}
			e.done(msg)
			e.hostStatus(msg)
		}
	})
}

// driveAction marks, in Editor.armed, a track installed and waiting for the second click
// that drives on it.
const driveAction = "drive "

// driveTrack hands the installed track to the host, which replaces the running scenario with
// it and reports the outcome in its own status line.
func (e *Editor) driveTrack(id string) {
	if ask := e.host.DriveTrack(id); ask != "" {
		// Robots spawned in the simulator would go: the next click drives.
		e.done(ask)
		return
	}
	e.armed = ""
	e.record.TestDriven = append(e.record.TestDriven, id)
	e.done("asked the simulator to run " + id + " with a robot to drive")
}

func (e *Editor) hostStatus(msg string) {
	if e.host.Status != nil {
		e.host.Status(msg)
	}
}
