package plugins

import (
	"reflect"
	"testing"
)

// FuzzReadPlugin feeds the manifest, descriptor and contract readers and the validator with
// mutations of the built-in plugins and rusim's exports. Whatever the bytes, reading must not
// panic, every problem must say where and what, and a plugin that validates must be safe to
// install and to simulate.
func FuzzReadPlugin(f *testing.F) {
	for _, id := range Builtin().IDs() {
		files := builtinFiles(f, id)
		f.Add(files[ManifestFile], files[DescriptorFile], files[ContractFile])
	}
	for _, name := range []string{"vehicle.arcade.green.v1.rusim-plugin.zip", "track.city_demo.v1.rusim-plugin.zip"} {
		files := readZip(f, name)
		f.Add(files[ManifestFile], files[DescriptorFile], files[ContractFile])
	}
	f.Fuzz(func(t *testing.T, manifest, descriptor, contract []byte) {
		files := map[string][]byte{ManifestFile: manifest, DescriptorFile: descriptor, ReadmeFile: nil}
		if contract != nil {
			files[ContractFile] = contract
		}
		p, ps := ReadPlugin(files)
		for _, pr := range ps {
			if pr.Path == "" || pr.Message == "" {
				t.Fatalf("problem without a path or a message: %#v", pr)
			}
		}
		_, merr := ReadManifest(manifest)
		if p != nil && merr != nil {
			t.Fatalf("decoded a plugin whose manifest ReadManifest refuses: %v", merr)
		}
		if p == nil || len(ps.Errors()) > 0 {
			return
		}
		if !SafeID(p.ID()) {
			t.Fatalf("valid plugin with an unsafe id %q", p.ID())
		}
		if v := p.ForSimulation(); v != nil {
			if err := v.CheckSimulation(); err != nil {
				t.Fatalf("valid vehicle does not simulate: %v", err)
			}
		}
		if p.Track != nil {
			if err := p.Track.CheckSimulation(); err != nil {
				t.Fatalf("valid track does not check: %v", err)
			}
			if _, err := TrackParamDefaults(p.Track); err != nil {
				t.Fatalf("valid track's schema: %v", err)
			}
		}
		if _, again := ReadPlugin(files); !reflect.DeepEqual(ps, again) {
			t.Fatalf("reading twice gave %v, then %v", ps, again)
		}
	})
}
