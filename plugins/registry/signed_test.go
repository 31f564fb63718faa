package registry

import (
	"path/filepath"
	"strings"
	"testing"

	"simgui/plugins"
	"simgui/plugins/archive"
	"simgui/plugins/signing"
)

// sign returns a signed with the private key file key.
func sign(t *testing.T, a *archive.Archive, key string) *archive.Archive {
	t.Helper()
	priv, err := signing.ReadPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := signing.Sign(a.Files(), priv)
	if err != nil {
		t.Fatal(err)
	}
	out, err := a.With(plugins.SignatureFile, sig)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func keyPair(t *testing.T) (prefix, id string) {
	t.Helper()
	prefix = filepath.Join(t.TempDir(), "key")
	id, err := signing.GenerateKeyFiles(prefix)
	if err != nil {
		t.Fatal(err)
	}
	return prefix, id
}

func TestSignaturePolicy(t *testing.T) {
	r := newRegistry(t)
	key, id := keyPair(t)
	if _, _, err := r.Trust(key + ".pub"); err != nil {
		t.Fatal(err)
	}
	const vid = "vehicle.acme.rover.v1"
	signed := sign(t, project(t, plugins.TypeVehicle, vid), key+".key")
	signedZip := writeArchive(t, signed, vid+".rusim-plugin.zip")
	d, _ := signed.File("descriptor.json")
	tampered, _ := signed.With("descriptor.json", []byte(strings.Replace(string(d), `"mass": 1.2`, `"mass": 0.2`, 1)))
	tamperedZip := writeArchive(t, tampered, vid+".rusim-plugin.zip")
	unsignedZip := projectZip(t, plugins.TypeTrack, "track.yard.v1")
	otherKey, otherID := keyPair(t)
	untrustedZip := writeArchive(t, sign(t, project(t, plugins.TypeTrack, "track.field.v1"), otherKey+".key"), "track.field.v1.rusim-plugin.zip")

	refused := func(path string, opts InstallOptions, want string) {
		t.Helper()
		before := treeHash(t, r.Home())
		if _, err := r.Install(path, opts); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("install %s: %v\nwant %q", filepath.Base(path), err, want)
		}
		if treeHash(t, r.Home()) != before {
			t.Error("a refused install changed the home")
		}
	}
	require := InstallOptions{RequireSigned: true}
	refused(tamperedZip, require, "signature check failed: the signature does not match the plugin's files")
	refused(tamperedZip, InstallOptions{}, "signature check failed: the signature does not match the plugin's files")
	refused(unsignedZip, require, "the plugin is not signed, and signatures are required")
	refused(untrustedZip, require, "the plugin is signed by key "+otherID+", which is not trusted")

	rep := mustInstall(t, r, signedZip, require)
	if rep.SignedBy != id {
		t.Errorf("signedBy %q, want %s", rep.SignedBy, id)
	}
	if in, _ := r.Info(vid); in.SignedBy != id || !strings.Contains(strings.Join(in.Files, ","), "SIGNATURE.json") {
		t.Errorf("info %+v", in)
	}
	// Without the requirement, unsigned and untrusted archives install (the latter with a note).
	mustInstall(t, r, unsignedZip, InstallOptions{})
	rep = mustInstall(t, r, untrustedZip, InstallOptions{})
	if len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "not trusted") || rep.SignedBy != "" {
		t.Errorf("untrusted: %+v", rep)
	}

	// The registry setting requires signatures at install and at load.
	if err := r.SetRequireSigned(true); err != nil {
		t.Fatal(err)
	}
	if on, err := r.RequireSigned(); !on || err != nil {
		t.Fatalf("RequireSigned = %v %v", on, err)
	}
	refused(unsignedZip, InstallOptions{}, "the plugin is not signed, and signatures are required")
	if _, err := r.Vehicle(vid); err != nil {
		t.Errorf("signed plugin under the policy: %v", err)
	}
	if _, err := r.Track("track.yard.v1"); err == nil || !strings.Contains(err.Error(), "not signed") {
		t.Errorf("unsigned plugin under the policy: %v", err)
	}
	if _, err := r.Track("track.field.v1"); err == nil || !strings.Contains(err.Error(), "not trusted") {
		t.Errorf("untrusted plugin under the policy: %v", err)
	}
	if items, err := r.List(); err != nil || len(items) != 17 {
		t.Errorf("the setting lost entries: %d %v", len(items), err)
	}
}
