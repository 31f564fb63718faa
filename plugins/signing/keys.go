package signing

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"simgui/safefile"
)

// Key files are PEM: the private key as PKCS #8 ("PRIVATE KEY"), the public key as PKIX
// ("PUBLIC KEY") — what `openssl genpkey -algorithm ed25519` and `openssl pkey -pubout` write,
// so keys can be made and inspected with openssl too.
const (
	PrivateKeyExt = ".key"
	PublicKeyExt  = ".pub"
)

// GenerateKeyFiles makes a new key pair and writes prefix+".key" (mode 0600) and
// prefix+".pub" (0644). It refuses to overwrite either file. It returns the key id.
func GenerateKeyFiles(prefix string) (string, error) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return "", err
	}
	privDER, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return "", err
	}
	pubDER, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return "", err
	}
	keyPath, pubPath := prefix+PrivateKeyExt, prefix+PublicKeyExt
	for _, p := range []string{keyPath, pubPath} {
		if _, err := os.Lstat(p); err == nil {
			return "", fmt.Errorf("%s exists; choose another name with -o", p)
		}
	}
	if err := writeNew(keyPath, 0o600, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: privDER})); err != nil {
		return "", err
	}
	if err := writeNew(pubPath, 0o644, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER})); err != nil {
		os.Remove(keyPath)
		return "", err
	}
	return KeyID(pub), nil
}

func writeNew(name string, perm fs.FileMode, b []byte) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// ReadPrivateKey reads a PEM PKCS #8 ed25519 private key file.
func ReadPrivateKey(name string) (ed25519.PrivateKey, error) {
	der, err := readPEM(name, "PRIVATE KEY")
	if err != nil {
		return nil, err
	}
	k, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	priv, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("%s: a %T, not an ed25519 key", name, k)
	}
	return priv, nil
}

// ReadPublicKey reads a PEM PKIX ed25519 public key file.
func ReadPublicKey(name string) (ed25519.PublicKey, error) {
	der, err := readPEM(name, "PUBLIC KEY")
	if err != nil {
		return nil, err
	}
	k, err := x509.ParsePKIXPublicKey(der)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	pub, ok := k.(ed25519.PublicKey)
	if !ok {
		return nil, fmt.Errorf("%s: a %T, not an ed25519 key", name, k)
	}
	return pub, nil
}

// maxKeyFile bounds a key file: a PEM ed25519 key is about 120 bytes.
const maxKeyFile = 64 << 10

func readPEM(name, typ string) ([]byte, error) {
	b, err := safefile.ReadFile(name, maxKeyFile)
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode(b)
	if block == nil || block.Type != typ {
		return nil, fmt.Errorf("%s: not a PEM %q file", name, typ)
	}
	return block.Bytes, nil
}

// Trust is a set of trusted public keys by key id.
type Trust map[string]ed25519.PublicKey

// LoadTrust reads every *.pub file in dir. A missing dir is an empty set; a file that is not
// an ed25519 public key is an error (a typo must not silently trust nothing).
func LoadTrust(dir string) (Trust, error) {
	t := Trust{}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return t, nil
	}
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), PublicKeyExt) {
			continue
		}
		pub, err := ReadPublicKey(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("trusted key: %w", err)
		}
		t[KeyID(pub)] = pub
	}
	return t, nil
}

// Has reports whether sig was made with a trusted key.
func (t Trust) Has(sig *Signature) bool {
	pub, ok := t[sig.KeyID]
	if !ok {
		return false
	}
	b, err := base64.StdEncoding.DecodeString(sig.PublicKey)
	return err == nil && pub.Equal(ed25519.PublicKey(b))
}

// IDs returns the trusted key ids, sorted.
func (t Trust) IDs() []string {
	ids := make([]string, 0, len(t))
	for id := range t {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// AddTrusted copies the public key file pub into dir as <keyId>.pub and returns the key id
// and the new file's path.
func AddTrusted(dir, pub string) (string, string, error) {
	key, err := ReadPublicKey(pub)
	if err != nil {
		return "", "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", err
	}
	der, err := x509.MarshalPKIXPublicKey(key)
	if err != nil {
		return "", "", err
	}
	id := KeyID(key)
	dst := filepath.Join(dir, id+PublicKeyExt)
	tmp := dst + ".tmp"
	if err := os.WriteFile(tmp, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), 0o644); err != nil {
		return "", "", err
	}
	if err := os.Rename(tmp, dst); err != nil {
		os.Remove(tmp)
		return "", "", err
	}
	return id, dst, nil
}
