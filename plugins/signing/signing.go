package signing

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"simgui/plugins"
)

// Header is the first line of the signed payload; it names the scheme so that a signature
// over a plugin archive can never be mistaken for one over anything else.
const Header = "simgui-plugin-signature-v1\n"

// Algorithm is the only signature algorithm.
const Algorithm = "ed25519"

// Signature is the content of SIGNATURE.json.
type Signature struct {
	SchemaVersion int    `json:"schemaVersion"`
	Algorithm     string `json:"algorithm"`
	// KeyID is KeyID(PublicKey).
	KeyID string `json:"keyId"`
	// PublicKey is the 32-byte ed25519 public key, standard base64.
	PublicKey string `json:"publicKey"`
	// Signature is ed25519.Sign(private key, Payload(files)), standard base64.
	Signature string `json:"signature"`
}

// Errors Verify wraps.
var (
	// ErrUnsigned: the files hold no SIGNATURE.json.
	ErrUnsigned = errors.New("the plugin is not signed")
	// ErrTampered: the signature does not match the files.
	ErrTampered = errors.New("the signature does not match the plugin's files: they were changed after signing")
)

// Payload returns the bytes a plugin's signature covers: Header, then one line per file
// except SIGNATURE.json, in byte order of the names, "<sha256 hex>  <name>\n" (the format of
// sha256sum).
func Payload(files map[string][]byte) []byte {
	var b bytes.Buffer
	b.WriteString(Header)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if name == plugins.SignatureFile {
			continue
		}
		sum := sha256.Sum256(files[name])
		b.WriteString(hex.EncodeToString(sum[:]))
		b.WriteString("  ")
		b.WriteString(name)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// KeyID names a public key: the first 16 hex digits of its SHA-256.
func KeyID(pub ed25519.PublicKey) string {
	sum := sha256.Sum256(pub)
	return hex.EncodeToString(sum[:8])
}

// Sign signs files (any SIGNATURE.json among them is ignored) and returns the SIGNATURE.json
// to add to them.
func Sign(files map[string][]byte, key ed25519.PrivateKey) ([]byte, error) {
	if len(key) != ed25519.PrivateKeySize {
		return nil, errors.New("sign: not an ed25519 private key")
	}
	pub := key.Public().(ed25519.PublicKey)
	sig := Signature{
		SchemaVersion: 1, Algorithm: Algorithm, KeyID: KeyID(pub),
		PublicKey: base64.StdEncoding.EncodeToString(pub),
		Signature: base64.StdEncoding.EncodeToString(ed25519.Sign(key, Payload(files))),
	}
	b, err := json.MarshalIndent(sig, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Verify checks the SIGNATURE.json among files against the other files and the public key it
// names, and returns it. Whether that key is trusted is for the caller (Trust.Has) to decide.
// It fails with ErrUnsigned when there is no signature and ErrTampered when the files do not
// match it.
func Verify(files map[string][]byte) (*Signature, error) {
	b, ok := files[plugins.SignatureFile]
	if !ok {
		return nil, ErrUnsigned
	}
	var sig Signature
	if err := json.Unmarshal(b, &sig); err != nil {
		return nil, fmt.Errorf("%s: %w", plugins.SignatureFile, err)
	}
	if sig.SchemaVersion != 1 || sig.Algorithm != Algorithm {
		return nil, fmt.Errorf("%s: schemaVersion %d, algorithm %q: this simgui verifies schemaVersion 1 with %s",
			plugins.SignatureFile, sig.SchemaVersion, sig.Algorithm, Algorithm)
	}
	pub, err := base64.StdEncoding.DecodeString(sig.PublicKey)
	if err != nil || len(pub) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("%s: publicKey is not a base64 ed25519 public key", plugins.SignatureFile)
	}
	if KeyID(pub) != sig.KeyID {
		return nil, fmt.Errorf("%s: keyId %s is not the id of its public key (%s)", plugins.SignatureFile, sig.KeyID, KeyID(pub))
	}
	s, err := base64.StdEncoding.DecodeString(sig.Signature)
	if err != nil || len(s) != ed25519.SignatureSize {
		return nil, fmt.Errorf("%s: signature is not a base64 ed25519 signature", plugins.SignatureFile)
	}
	if !ed25519.Verify(pub, Payload(files), s) {
		return nil, ErrTampered
	}
	return &sig, nil
}
