package registry

import (
	"archive/zip"
	"bytes"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"simgui/plugins"
)

// entry is one zip entry of a crafted archive. raw, when set, is written as is with its
// header's sizes, CRC, flags and method.
type entry struct {
	name string
	data []byte
	mode fs.FileMode
	raw  *zip.FileHeader
}

func craft(t *testing.T, entries []entry) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, e := range entries {
		if e.raw != nil {
			h := *e.raw
			h.Name = e.name
			w, err := zw.CreateRaw(&h)
			if err != nil {
				t.Fatal(err)
			}
			w.Write(e.data)
			continue
		}
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		if e.mode != 0 {
			h.SetMode(e.mode)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(e.data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Hostile archives are refused, each with its own message, and leave the registry and
// plugins/ byte-identical.
func TestHostileArchivesAreRefused(t *testing.T) {
	r := newRegistry(t)
	mustInstall(t, r, projectZip(t, plugins.TypeVehicle, "vehicle.acme.rover.v1"), InstallOptions{})
	good := project(t, plugins.TypeVehicle, "vehicle.acme.evil.v1")
	base := func(extra ...entry) []entry {
		var es []entry
		for _, n := range good.Names() {
			b, _ := good.File(n)
			es = append(es, entry{name: n, data: b})
		}
		return append(es, extra...)
	}
	replace := func(name string, data []byte) []entry {
		es := base()
		for i := range es {
			if es[i].name == name {
				es[i].data = data
			}
		}
		return es
	}
	file := func(name string) []byte { b, _ := good.File(name); return b }
	manifest := strings.Replace(string(file("manifest.json")), `"vehicle.acme.evil.v1"`, `"../../evil"`, 1)
	contract := strings.Replace(string(file("device-contract.json")), `"rateHz": 30`, `"rateHz": "fast"`, 1)
	descriptor := bytes.Replace(file("descriptor.json"), []byte("{"), append([]byte("{"), bytes.Repeat([]byte(" "), 2<<20)...), 1)
	lying := &zip.FileHeader{Method: zip.Store, CompressedSize64: 70 << 20, UncompressedSize64: 70 << 20}
	crc := &zip.FileHeader{Method: zip.Store, CRC32: 12345, CompressedSize64: 5, UncompressedSize64: 5}
	short := &zip.FileHeader{Method: zip.Store, CRC32: crc32.ChecksumIEEE([]byte("abc")), CompressedSize64: 3, UncompressedSize64: 3}
	var many []entry
	for i := range 600 {
		many = append(many, entry{name: fmt.Sprintf("assets/x%03d.png", i)})
	}

	for _, tc := range []struct {
		name    string
		archive []byte
		want    string
	}{
		{"parent path", craft(t, base(entry{name: "../../.bashrc", data: []byte("rm -rf ~")})),
			`archive entry "../../.bashrc": the path leaves the archive (..)`},
		{"absolute path", craft(t, base(entry{name: "/etc/cron.d/evil", data: []byte("x")})),
			`archive entry "/etc/cron.d/evil": absolute path`},
		{"backslash path", craft(t, base(entry{name: `..\..\evil.png`, data: []byte("x")})),
			`archive entry "..\\..\\evil.png": the name has a backslash`},
		{"symbolic link", craft(t, base(entry{name: "assets/preview.png", data: []byte("/etc/passwd"), mode: fs.ModeSymlink | 0o777})),
			`archive entry "assets/preview.png": a symbolic link`},
		{"duplicate name", craft(t, base(entry{name: "manifest.json", data: []byte(`{}`)})),
			`archive entry "manifest.json": the name appears twice`},
		{"names differing in case", craft(t, base(entry{name: "assets/A.png"}, entry{name: "assets/a.png"})),
			`archive entry "assets/a.png": the name differs only in case or accent form from "assets/A.png"`},
		{"outside the allowed set", craft(t, base(entry{name: "install.sh", data: []byte("#!/bin/sh")})),
			`archive entry "install.sh": not part of a plugin`},
		{"uncompressed total over 64 MiB", craft(t, base(entry{name: "assets/huge.png", data: make([]byte, 16), raw: lying})),
			`the archive's uncompressed size is over 64 MiB (at entry "assets/huge.png")`},
		{"JSON over 1 MiB", craft(t, replace("descriptor.json", descriptor)),
			`archive entry "descriptor.json": 2.0 MiB; a JSON file may be at most 1 MiB`},
		{"compression-ratio bomb", craft(t, base(entry{name: "assets/bomb.png", data: make([]byte, 40<<20)})),
			`archive entry "assets/bomb.png": 40 MiB that expand from`},
		{"name not UTF-8", craft(t, base(entry{name: "assets/\xff\xfe.png", data: []byte("x")})),
			`archive entry "assets/\xff\xfe.png": the name is not UTF-8`},
		{"control character in a name", craft(t, base(entry{name: "README.md\r", data: []byte("x")})),
			`archive entry "README.md\r": the name has a control character`},
		{"id not a safe path segment", craft(t, replace("manifest.json", []byte(manifest))),
			`manifest.pluginId: "../../evil" is not a safe folder name`},
		{"malformed JSON", craft(t, replace("descriptor.json", []byte(`{"id": "vehicle.acme.evil.v1",`))),
			`vehicle.acme.evil.v1 is not a valid plugin: descriptor.json: malformed JSON at line 1, column 30: unexpected end of JSON input`},
		{"wrong JSON type", craft(t, replace("device-contract.json", []byte(contract))),
			`vehicle.acme.evil.v1 is not a valid plugin: device-contract.sensors[0].rateHz: is a string, want a number`},
		{"encrypted entry", craft(t, base(entry{name: "assets/e.png", data: []byte("xxxxx"), raw: &zip.FileHeader{Method: zip.Store, Flags: 1, CompressedSize64: 5, UncompressedSize64: 5}})),
			`archive entry "assets/e.png": encrypted`},
		{"unknown compression", craft(t, base(entry{name: "assets/b.png", data: []byte("xxxxx"), raw: &zip.FileHeader{Method: 12, CompressedSize64: 5, UncompressedSize64: 5}})),
			`archive entry "assets/b.png": compression method 12; only store (0) and deflate (8) are allowed`},
		{"checksum mismatch", craft(t, base(entry{name: "assets/c.png", data: []byte("xxxxx"), raw: crc})),
			`archive entry "assets/c.png": corrupt: zip: checksum error`},
		{"data shorter than its header", craft(t, base(entry{name: "assets/d.png", data: []byte("ab"), raw: short})),
			`archive entry "assets/d.png": corrupt:`},
		{"too many entries", craft(t, base(many...)), "the archive has 604 entries; a plugin may have at most 512"},
		{"not a zip", []byte("PK\x03\x04 but not really a zip archive"), "Not a valid zip archive: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := treeHash(t, r.Home())
			p := filepath.Join(t.TempDir(), "vehicle.acme.evil.v1.rusim-plugin.zip")
			if err := os.WriteFile(p, tc.archive, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := r.Install(p, InstallOptions{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("install: %v\nwant %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
			if after := treeHash(t, r.Home()); after != before {
				t.Error("the refused install changed the registry home")
			}
		})
	}
	if _, err := r.Vehicle("vehicle.acme.rover.v1"); err != nil {
		t.Errorf("the installed plugin suffered: %v", err)
	}
}

// A named pipe or an endless file in place of plugin-registry.json is refused, not waited on
// or read into memory.
func TestHostileRegistryFile(t *testing.T) {
	for _, c := range []struct {
		name string
		make func(path string) error
		says string
	}{
		{"named pipe", func(p string) error { return syscall.Mkfifo(p, 0o644) }, "named pipe"},
		{"huge file", func(p string) error { return os.WriteFile(p, bytes.Repeat([]byte(" "), maxRegistryBytes+1), 0o644) }, "the limit is"},
	} {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			if err := c.make(filepath.Join(home, FileName)); err != nil {
				t.Fatal(err)
			}
			if _, err := Open(home, Options{}).List(); err == nil || !strings.Contains(err.Error(), c.says) {
				t.Errorf("List: %v, want it to say %q", err, c.says)
			}
		})
	}
}
