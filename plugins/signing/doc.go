// Package signing signs plugin archives with ed25519 and verifies them (the "signed plugins"
// direction of rusim's plugin roadmap).
//
// # What is signed
//
// A signature covers every file of the plugin except SIGNATURE.json itself. The signed
// payload is the text
//
//	simgui-plugin-signature-v1\n
//	<sha256 hex>  <name>\n        one line per file, names in byte order
//
// — the header line, then sha256sum's format for each file, so `sha256sum` reproduces the
// lines. Adding, removing, renaming or changing any file changes the payload. The signature
// travels in the archive as SIGNATURE.json:
//
//	{"schemaVersion": 1, "algorithm": "ed25519", "keyId": "<16 hex>",
//	 "publicKey": "<base64 of 32 bytes>", "signature": "<base64 of 64 bytes>"}
//
// keyId is the first 16 hex digits of the public key's SHA-256. The embedded public key lets
// anyone check that the files are unchanged; whether the key is trusted is decided by the
// public keys in $RUSIM_HOME/trusted-keys/*.pub (see Trust).
//
// Keys are PEM files: PKCS #8 private keys (.key, mode 0600) and PKIX public keys (.pub), as
// openssl writes them for ed25519.
package signing
