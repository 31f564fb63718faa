package registry

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"simgui/plugins"
	"simgui/plugins/archive"
	"simgui/plugins/signing"
)

// InstallOptions tune Install.
type InstallOptions struct {
	// RequireSigned refuses archives without a valid signature by a trusted key (the registry's
	// requireSigned setting does the same for every install).
	RequireSigned bool
}

// InstallReport is what `simgui plugin install` prints: rusim's keys, and signedBy when a
// trusted key signed the archive.
type InstallReport struct {
	Action      string `json:"action"`
	PluginID    string `json:"pluginId"`
	Type        string `json:"type"`
	DisplayName string `json:"displayName"`
	Version     string `json:"version"`
	InstalledTo string `json:"installedTo"`
	SignedBy    string `json:"signedBy,omitempty"`
	// Warnings are for stderr: validation warnings (a rusim export simulated with a fallback
	// body) and signature notes.
	Warnings []string `json:"-"`
}

// Install installs the plugin archive at path. The archive is read and checked completely —
// hostile entries, rusim's manifest checks (with its error texts), full validation,
// compatibleRuntime, signature — before the home folder is touched. Then, under the registry's
// file lock, the files are unpacked into a staging folder in the home, renamed to
// plugins/<id>/ (replacing an earlier install of the id) and plugin-registry.json is rewritten
// atomically. Any failure puts back what was there: the registry and plugins/ stay
// byte-identical. Built-in ids are refused.
func (r *Registry) Install(path string, opts InstallOptions) (*InstallReport, error) {
	a, err := archive.Open(path)
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	return r.InstallArchive(a, abs, opts)
}

// ErrBuiltinID is an install of a plugin whose id a built-in plugin has: built-ins cannot be
// replaced; a copy needs an id of its own.
//
//lint:ignore ST1005 rusim's own wording, which its clients and users know
var ErrBuiltinID = errors.New("Cannot overwrite built-in plugin")

// InstallArchive installs a checked archive as Install does; from is recorded as
// installedFrom.
func (r *Registry) InstallArchive(a *archive.Archive, from string, opts InstallOptions) (*InstallReport, error) {
	mb, ok := a.File(plugins.ManifestFile)
	if !ok {
		//lint:ignore ST1005 rusim's own wording, which its clients and users know
		return nil, errors.New("Plugin archive must contain manifest.json at the root") // rusim's text
	}
	m, err := plugins.ReadManifest(mb)
	if err != nil {
		return nil, err
	}
	if r.builtin.Has(m.PluginID) {
		return nil, fmt.Errorf("%w: %s", ErrBuiltinID, m.PluginID) // rusim's text
	}
	p, ps := a.Plugin()
	ps = append(ps, plugins.CheckMaterialPixels(p)...)
	if err := ps.Err(); err != nil {
		return nil, fmt.Errorf("%s is not a valid plugin: %w", m.PluginID, err)
	}
	if err := plugins.CheckRuntime(p.Manifest, r.opts.Runtime); err != nil {
		return nil, err
	}
	policy, err := readRegistry(r.file())
	if err != nil {
		return nil, err
	}
	signedBy, sigNote, err := r.checkSignature(a, opts.RequireSigned || policy.RequireSigned)
	if err != nil {
		return nil, err
	}
	rep := &InstallReport{Action: "install", PluginID: m.PluginID, Type: string(m.Type), DisplayName: m.DisplayName,
		Version: m.Version, InstalledTo: r.Path(m.PluginID), SignedBy: signedBy}
	for _, w := range ps.Warnings() {
		rep.Warnings = append(rep.Warnings, w.String())
	}
	if sigNote != "" {
		rep.Warnings = append(rep.Warnings, sigNote)
	}
	if base := filepath.Base(from); strings.HasSuffix(base, ".zip") && base != m.PluginID+".rusim-plugin.zip" {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("the archive is called %s; plugin archives are called %s.rusim-plugin.zip", base, m.PluginID))
	}
	entry := Entry{PluginID: m.PluginID, Type: string(m.Type), DisplayName: m.DisplayName, Version: m.Version,
		Author: m.Author, CompatibleRuntime: m.CompatibleRuntime, InstalledFrom: from,
		InstalledAt: r.opts.Now().Format("2006-01-02T15:04:05"), SignedBy: signedBy}
	if err := r.commit(a, entry); err != nil {
		return nil, fmt.Errorf("install %s: %w", m.PluginID, err)
	}
	return rep, nil
}

// checkSignature applies the signature policy to an archive's files. It returns the id of the
// trusted key that signed them, or a note for the user about a signature it could not trust.
// A signature that does not match the files is always refused.
func (r *Registry) checkSignature(a *archive.Archive, require bool) (signedBy, note string, err error) {
	sig, err := signing.Verify(a.Files())
	switch {
	case errors.Is(err, signing.ErrUnsigned):
		if require {
			return "", "", errors.New("the plugin is not signed, and signatures are required: sign it with `simgui plugin export --sign KEY`")
		}
		return "", "", nil
	case err != nil:
		return "", "", fmt.Errorf("signature check failed: %w", err)
	}
	trust, err := signing.LoadTrust(filepath.Join(r.home, TrustedKeysDir))
	if err != nil {
		return "", "", err
	}
	if trust.Has(sig) {
		return sig.KeyID, "", nil
	}
	if require {
		return "", "", fmt.Errorf("the plugin is signed by key %s, which is not trusted: add its public key with `simgui plugin trust KEY.pub`", sig.KeyID)
	}
	return "", fmt.Sprintf("signed by key %s, which is not trusted (installed because signatures are not required)", sig.KeyID), nil
}

// commit unpacks a into plugins/<id>/ and records entry, under the lock: the files are
// staged, the journal written, then the install completes (journal.go). Any error puts back
// what was there; a crash is completed by the next command.
func (r *Registry) commit(a *archive.Archive, entry Entry) error {
	plugDir := filepath.Join(r.home, PluginsDir)
	if err := os.MkdirAll(plugDir, 0o755); err != nil {
		return err
	}
	return r.locked(func() error {
		if _, err := readRegistry(r.file()); err != nil {
			return err
		}
		stage, err := r.ops.MkdirTemp(r.home, stagingPrefix)
		if err != nil {
			return err
		}
		if err := r.ops.Unpack(a, stage); err != nil {
			r.ops.RemoveAll(stage)
			return err
		}
		j := &journal{PluginID: entry.PluginID, Staged: filepath.Base(stage), Previous: previousPrefix + randomSuffix(), Entry: entry}
		if err := r.writeJournal(j); err != nil {
			r.ops.RemoveAll(stage)
			return err
		}
		return r.complete(j)
	})
}

// RemoveReport is what `simgui plugin remove` prints (rusim's keys).
type RemoveReport struct {
	Action   string `json:"action"`
	PluginID string `json:"pluginId"`
	Removed  bool   `json:"removed"`
}

// Remove uninstalls a user plugin: under the lock it rewrites plugin-registry.json without
// the entry, then deletes plugins/<id>/. Simulations using the plugin keep their copy until
// they reset. A user plugin with a built-in's id (a ShadowError) is removed, the built-in
// stays. Errors are rusim's: "Cannot remove built-in plugin: <id>", "Plugin not found in
// registry: <id>".
func (r *Registry) Remove(id string) (*RemoveReport, error) {
	if r.builtin.Has(id) && r.shadowed(id) == nil {
		//lint:ignore ST1005 rusim's own wording, which its clients and users know
		return nil, fmt.Errorf("Cannot remove built-in plugin: %s", id) // rusim's text
	}
	//lint:ignore ST1005 rusim's own wording, which its clients and users know
	notFound := fmt.Errorf("Plugin not found in registry: %s", id) // rusim's text
	if _, err := os.Stat(r.file()); errors.Is(err, fs.ErrNotExist) {
		return nil, notFound
	}
	err := r.locked(func() error {
		data, err := readRegistry(r.file())
		if err != nil {
			return err
		}
		i := data.find(id)
		if i < 0 {
			return notFound
		}
		data.Plugins = append(data.Plugins[:i], data.Plugins[i+1:]...)
		if err := r.writeRegistry(data); err != nil {
			return err
		}
		if plugins.SafeID(id) {
			// Unlisted now; a crash before the folder goes leaves files that the next install
			// of the id replaces.
			trash := filepath.Join(r.home, removedPrefix+randomSuffix())
			if r.ops.Rename(r.Path(id), trash) == nil {
				r.ops.RemoveAll(trash)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &RemoveReport{Action: "remove", PluginID: id, Removed: true}, nil
}

// RequireSigned reports the registry's requireSigned setting.
func (r *Registry) RequireSigned() (bool, error) {
	data, err := readRegistry(r.file())
	return data.RequireSigned, err
}

// SetRequireSigned changes the registry's requireSigned setting: when on, installs refuse
// archives without a valid signature by a trusted key, and installed plugins load only if
// their files still carry one.
func (r *Registry) SetRequireSigned(on bool) error {
	if err := os.MkdirAll(r.home, 0o755); err != nil {
		return err
	}
	return r.locked(func() error {
		data, err := readRegistry(r.file())
		if err != nil {
			return err
		}
		data.RequireSigned = on
		return r.writeRegistry(data)
	})
}

// Trust adds the public key file pub to trusted-keys/ and returns its key id and new path.
func (r *Registry) Trust(pub string) (string, string, error) {
	return signing.AddTrusted(filepath.Join(r.home, TrustedKeysDir), pub)
}

// locked runs f holding the registry's file lock, after completing what a crashed change
// left (recoverChanges: an interrupted install, staging and removed folders, temporary
// registry files; only a lock holder makes them).
func (r *Registry) locked(f func() error) error {
	lk := flock.New(filepath.Join(r.home, lockName))
	ctx, cancel := context.WithTimeout(context.Background(), r.opts.LockTimeout)
	defer cancel()
	ok, err := lk.TryLockContext(ctx, 5*time.Millisecond)
	if err != nil || !ok {
		return fmt.Errorf("lock the plugin registry %s: another simgui kept it for %v: %v", r.home, r.opts.LockTimeout, err)
	}
	defer lk.Unlock()
	if err := r.recoverChanges(); err != nil {
		return err
	}
	return f()
}

func randomSuffix() string {
	b := make([]byte, 6)
	rand.Read(b)
	return hex.EncodeToString(b)
}
