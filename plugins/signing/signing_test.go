package signing

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"simgui/plugins"
)

func testFiles() map[string][]byte {
	return map[string][]byte{
		"manifest.json":   []byte(`{"pluginId": "vehicle.a.b.v1"}`),
		"descriptor.json": []byte(`{"id": "vehicle.a.b.v1"}`),
		"README.md":       []byte("# B\n"),
		"assets/p.png":    {0x89, 'P', 'N', 'G'},
	}
}

func newKey(t *testing.T) (string, ed25519.PrivateKey, string) {
	t.Helper()
	prefix := filepath.Join(t.TempDir(), "k")
	id, err := GenerateKeyFiles(prefix)
	if err != nil {
		t.Fatal(err)
	}
	priv, err := ReadPrivateKey(prefix + PrivateKeyExt)
	if err != nil {
		t.Fatal(err)
	}
	return prefix, priv, id
}

// The payload is sha256sum's output for the files, after the header, in name order.
func TestPayloadIsSha256sum(t *testing.T) {
	files := testFiles()
	files[plugins.SignatureFile] = []byte("ignored")
	want := Header
	for _, n := range []string{"README.md", "assets/p.png", "descriptor.json", "manifest.json"} {
		sum := sha256.Sum256(files[n])
		want += hex.EncodeToString(sum[:]) + "  " + n + "\n"
	}
	if got := string(Payload(files)); got != want {
		t.Errorf("payload\n%s\nwant\n%s", got, want)
	}
}

func TestSignVerifyAndTamper(t *testing.T) {
	_, priv, id := newKey(t)
	files := testFiles()
	sig, err := Sign(files, priv)
	if err != nil {
		t.Fatal(err)
	}
	files[plugins.SignatureFile] = sig
	got, err := Verify(files)
	if err != nil || got.KeyID != id || got.Algorithm != "ed25519" {
		t.Fatalf("Verify = %+v, %v", got, err)
	}
	for name, tamper := range map[string]func(m map[string][]byte){
		"changed byte": func(m map[string][]byte) { m["README.md"] = []byte("# C\n") },
		"added file":   func(m map[string][]byte) { m["assets/q.png"] = nil },
		"removed file": func(m map[string][]byte) { delete(m, "assets/p.png") },
		"renamed file": func(m map[string][]byte) { m["assets/q.png"] = m["assets/p.png"]; delete(m, "assets/p.png") },
		"other key's": func(m map[string][]byte) {
			_, k, _ := newKey(t)
			m[plugins.SignatureFile], _ = Sign(m, k)
			m["README.md"] = nil
		},
		"swapped files": func(m map[string][]byte) { m["README.md"], m["assets/p.png"] = m["assets/p.png"], m["README.md"] },
	} {
		m := map[string][]byte{}
		for k, v := range files {
			m[k] = v
		}
		tamper(m)
		if _, err := Verify(m); !errors.Is(err, ErrTampered) {
			t.Errorf("%s: Verify = %v, want ErrTampered", name, err)
		}
	}
	delete(files, plugins.SignatureFile)
	if _, err := Verify(files); !errors.Is(err, ErrUnsigned) {
		t.Errorf("unsigned: %v", err)
	}
	// A signature naming a key id that is not its public key's is refused.
	files[plugins.SignatureFile] = []byte(strings.Replace(string(sig), id, "0000000000000000", 1))
	if _, err := Verify(files); err == nil || !strings.Contains(err.Error(), "is not the id of its public key") {
		t.Errorf("wrong key id: %v", err)
	}
}

func TestTrust(t *testing.T) {
	prefix, priv, id := newKey(t)
	dir := filepath.Join(t.TempDir(), "trusted-keys")
	trust, err := LoadTrust(dir)
	if err != nil || len(trust) != 0 {
		t.Fatalf("missing dir: %v %v", trust, err)
	}
	files := testFiles()
	files[plugins.SignatureFile], _ = Sign(files, priv)
	sig, _ := Verify(files)
	gotID, path, err := AddTrusted(dir, prefix+PublicKeyExt)
	if err != nil || gotID != id || path != filepath.Join(dir, id+".pub") {
		t.Fatalf("AddTrusted = %s %s %v", gotID, path, err)
	}
	trust, err = LoadTrust(dir)
	if err != nil || !trust.Has(sig) || len(trust.IDs()) != 1 {
		t.Fatalf("trust %v %v", trust.IDs(), err)
	}
	_, other, _ := newKey(t)
	files[plugins.SignatureFile], _ = Sign(files, other)
	sig2, _ := Verify(files)
	if trust.Has(sig2) {
		t.Error("an untrusted key is trusted")
	}
	os.WriteFile(filepath.Join(dir, "typo.pub"), []byte("not a key"), 0o644)
	if _, err := LoadTrust(dir); err == nil || !strings.Contains(err.Error(), "typo.pub") {
		t.Errorf("bad key file: %v", err)
	}
	if _, _, err := AddTrusted(dir, prefix+PrivateKeyExt); err == nil {
		t.Error("a private key was trusted as a public key")
	}
}

func TestKeyFiles(t *testing.T) {
	prefix, _, _ := newKey(t)
	st, err := os.Stat(prefix + PrivateKeyExt)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("private key mode %v %v", st.Mode(), err)
	}
	if _, err := GenerateKeyFiles(prefix); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("overwrite: %v", err)
	}
	// openssl reads them, when it is installed.
	if _, err := exec.LookPath("openssl"); err == nil {
		out, err := exec.Command("openssl", "pkey", "-in", prefix+PrivateKeyExt, "-pubout").Output()
		pub, _ := os.ReadFile(prefix + PublicKeyExt)
		if err != nil || string(out) != string(pub) {
			t.Errorf("openssl derives %q (%v), the .pub file holds %q", out, err, pub)
		}
	}
}
