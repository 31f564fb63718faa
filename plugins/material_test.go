package plugins

import (
	"bytes"
	"image"
	"image/png"
	"strings"
	"testing"
)

func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestTrackMaterials reads a track whose archive brings its own material image, and refuses
// each broken variant with a problem at its path.
func TestTrackMaterials(t *testing.T) {
	base := builtinFiles(t, "track.basic_arena.v1")
	base["assets/brick.png"] = pngOf(t, 64, 64)
	with := func(mat map[string]any, elemMaterial string) func(m map[string]any) {
		return func(m map[string]any) {
			m["materials"] = []any{mat}
			if elemMaterial != "" {
				m["elements"].([]any)[0].(map[string]any)["material"] = elemMaterial
			}
		}
	}
	good := map[string]any{"name": "red_brick", "textures": []any{"assets/brick.png"}, "sizeM": 0.9}
	p, ps := ReadPlugin(edited(t, base, "descriptor.json", with(good, "red_brick")))
	if len(ps.Errors()) != 0 || p == nil {
		t.Fatalf("a track with its own material: %v", ps)
	}
	m := p.Track.Materials
	if len(m) != 1 || len(m[0].Images) != 1 || !bytes.Equal(m[0].Images[0], base["assets/brick.png"]) {
		t.Fatalf("materials %+v: want the image read from the archive", m)
	}
	if c := p.Track.Clone(); &c.Materials[0] == &m[0] || !bytes.Equal(c.Materials[0].Images[0], m[0].Images[0]) {
		t.Fatal("Clone does not copy the materials")
	}
	big := edited(t, base, "descriptor.json", with(good, ""))
	big["assets/brick.png"] = append(pngOf(t, 64, 64), make([]byte, MaxMaterialPNGBytes)...)
	tall := edited(t, base, "descriptor.json", with(good, ""))
	tall["assets/brick.png"] = pngOf(t, 64, 32)
	for _, tc := range []struct {
		name  string
		files map[string][]byte
		path  string
		msg   string
	}{
		{"missing image", edited(t, base, "descriptor.json", with(map[string]any{"name": "x", "textures": []any{"assets/none.png"}, "sizeM": 1}, "")),
			"descriptor.materials[0].textures[0]", "is not in the archive"},
		{"outside assets", edited(t, base, "descriptor.json", with(map[string]any{"name": "x", "textures": []any{"README.md"}, "sizeM": 1}, "")),
			"descriptor.materials[0].textures[0]", "in the archive's assets folder"},
		{"bad name", edited(t, base, "descriptor.json", with(map[string]any{"name": "Red Brick", "textures": []any{"assets/brick.png"}, "sizeM": 1}, "")),
			"descriptor.materials[0].name", "lower-case"},
		{"no size", edited(t, base, "descriptor.json", with(map[string]any{"name": "x", "textures": []any{"assets/brick.png"}}, "")),
			"descriptor.materials[0].sizeM", "outside (0, 100]"},
		{"too big", big, "descriptor.materials[0].textures[0]", "at most 512 KiB"},
		{"not square", tall, "descriptor.materials[0].textures[0]", "want a square"},
		{"element material name", edited(t, base, "descriptor.json", with(good, "Brick!")), "descriptor.elements[0].material", "lower-case"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ps := ReadPlugin(tc.files)
			errs := ps.Errors()
			if len(errs) != 1 || errs[0].Path != tc.path || !strings.Contains(errs[0].Message, tc.msg) {
				t.Errorf("problems %v\nwant one at %s containing %q", ps, tc.path, tc.msg)
			}
		})
	}
}

// TestCheckMaterialPixels reads a track whose image has a good header but pixel data cut
// short: ReadPlugin, which reads headers only, takes it, and CheckMaterialPixels reports it at
// the image's path; the whole image passes both.
func TestCheckMaterialPixels(t *testing.T) {
	files := builtinFiles(t, "track.basic_arena.v1")
	whole := pngOf(t, 64, 64)
	files["assets/good.png"] = whole
	// The IEND chunk and the end of the image data cut off: the header is whole.
	files["assets/cut.png"] = whole[:len(whole)-24]
	files = edited(t, files, "descriptor.json", func(m map[string]any) {
		m["materials"] = []any{
			map[string]any{"name": "good", "textures": []any{"assets/good.png"}, "sizeM": 1},
			map[string]any{"name": "cut", "textures": []any{"assets/good.png", "assets/cut.png"}, "sizeM": 1},
		}
	})
	p, ps := ReadPlugin(files)
	if err := ps.Err(); err != nil || p == nil {
		t.Fatalf("ReadPlugin: %v; want the headers accepted", err)
	}
	got := CheckMaterialPixels(p)
	if len(got) != 1 || got[0].Path != "descriptor.materials[1].textures[1]" || !strings.Contains(got[0].Message, "assets/cut.png: pixel data") {
		t.Fatalf("CheckMaterialPixels: %v; want one problem at descriptor.materials[1].textures[1] naming assets/cut.png's pixel data", got)
	}
	if got := CheckMaterialPixels(nil); got != nil {
		t.Errorf("CheckMaterialPixels(nil) = %v, want none", got)
	}
}

// TestUnknownMaterialNamesWarn names materials the renderer does not have: a track's element
// and floor and a vehicle's parts each get a warning at their path (the plugin still
// installs: it is drawn without them), and names it has get none.
func TestUnknownMaterialNamesWarn(t *testing.T) {
	saved := BuiltinMaterials
	defer func() { BuiltinMaterials = saved }()
	BuiltinMaterials = func() []string { return []string{"brick", "cardboard", "plywood"} }
	base := builtinFiles(t, "track.basic_arena.v1")
	base["assets/brick.png"] = pngOf(t, 64, 64)
	own := map[string]any{"name": "red_brick", "textures": []any{"assets/brick.png"}, "sizeM": 0.9}
	shadow := map[string]any{"name": "brick", "textures": []any{"assets/brick.png"}, "sizeM": 0.9}
	track := func(elem, floor string, more ...any) map[string][]byte {
		return edited(t, base, "descriptor.json", func(m map[string]any) {
			m["materials"] = append([]any{own}, more...)
			m["elements"].([]any)[0].(map[string]any)["material"] = elem
			m["floor"].(map[string]any)["texture"] = floor
		})
	}
	vehicle := func(mat, accent string) map[string][]byte {
		return edited(t, builtinFiles(t, "vehicle.ks0223.v1"), "descriptor.json", func(m map[string]any) {
			v := m["visual"].(map[string]any)
			v["material"], v["accentMaterial"] = mat, accent
		})
	}
	for _, c := range []struct {
		name  string
		files map[string][]byte
		warns []string // paths
	}{
		{"known names", track("red_brick", "plywood"), nil},
		{"built-in on an element", track("cardboard", ""), nil},
		{"unknown element material", track("nope", "plywood"), []string{"descriptor.elements[0].material"}},
		{"own material on the floor", track("red_brick", "red_brick"), nil},
		{"unknown floor texture", track("red_brick", "nope"), []string{"descriptor.floor.texture"}},
		{"own material of a built-in's name", track("brick", "plywood", shadow), []string{"descriptor.materials[1].name"}},
		{"vehicle", vehicle("brick", "nope"), []string{"descriptor.visual.accentMaterial"}},
		{"vehicle, both unknown", vehicle("wood", "nope"), []string{"descriptor.visual.material", "descriptor.visual.accentMaterial"}},
	} {
		_, ps := ReadPlugin(c.files)
		if len(ps.Errors()) != 0 {
			t.Fatalf("%s: errors %v", c.name, ps.Errors())
		}
		var got []string
		for _, w := range ps.Warnings() {
			if strings.Contains(w.Message, "built-in") {
				got = append(got, w.Path)
			}
		}
		if strings.Join(got, " ") != strings.Join(c.warns, " ") {
			t.Errorf("%s: material warnings at %v, want %v (all: %v)", c.name, got, c.warns, ps.Warnings())
		}
	}
}

// TestTransparentMaterialWarns warns of a material image with transparent pixels (drawn as
// its colour channels, black for most), and not of an opaque one.
func TestTransparentMaterialWarns(t *testing.T) {
	var clear, opaque bytes.Buffer
	if err := png.Encode(&clear, image.NewNRGBA(image.Rect(0, 0, 32, 32))); err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(&opaque, image.NewGray(image.Rect(0, 0, 32, 32))); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		img  []byte
		warn bool
	}{{clear.Bytes(), true}, {opaque.Bytes(), false}} {
		p := &Plugin{Track: &TrackDescriptor{Materials: []Material{{Name: "m", Textures: []string{"assets/m.png"}, SizeM: 1, Images: [][]byte{c.img}}}}}
		ps := CheckMaterialPixels(p)
		if got := len(ps.Warnings()) == 1 && strings.Contains(ps.Warnings()[0].Message, "transparent"); got != c.warn || len(ps.Errors()) != 0 {
			t.Errorf("warn %v, want %v: %v", got, c.warn, ps)
		}
	}
}

// TestUnknownMaterialWarnsOnce names one unknown material on three elements: one warning, at
// the first, counting the others.
func TestUnknownMaterialWarnsOnce(t *testing.T) {
	saved := BuiltinMaterials
	defer func() { BuiltinMaterials = saved }()
	BuiltinMaterials = func() []string { return []string{"cardboard"} }
	var ps Problems
	ps.checkMaterials(&TrackDescriptor{Elements: []Element{{Material: "nope"}, {Material: "cardboard"}, {Material: "nope"}, {Material: "nope"}}})
	if w := ps.Warnings(); len(w) != 1 || w[0].Path != "descriptor.elements[0].material" || !strings.Contains(w[0].Message, "(and 2 more elements)") {
		t.Fatalf("warnings %v: want one at elements[0] counting 2 more", w)
	}
}

// TestVehicleMaterials reads a vehicle whose archive brings its own material image for its
// parts: the image is read, cloned and validated as a track's, and a part naming neither an
// own nor a built-in material is warned about. A vehicle's "materials" used to be an unknown
// field: its parts were drawn without them.
func TestVehicleMaterials(t *testing.T) {
	saved := BuiltinMaterials
	defer func() { BuiltinMaterials = saved }()
	BuiltinMaterials = func() []string { return []string{"brick", "cardboard", "plywood"} }
	base := builtinFiles(t, "vehicle.ks0223.v1")
	base["assets/camo.png"] = pngOf(t, 32, 32)
	with := func(mats []any, part string) func(m map[string]any) {
		return func(m map[string]any) {
			m["materials"] = mats
			m["visual"].(map[string]any)["material"] = part
		}
	}
	good := map[string]any{"name": "camo", "textures": []any{"assets/camo.png"}, "sizeM": 0.1}
	p, ps := ReadPlugin(edited(t, base, "descriptor.json", with([]any{good}, "camo")))
	if len(ps) != 0 || p == nil {
		t.Fatalf("a vehicle with its own material: %v", ps)
	}
	m := p.Vehicle.Materials
	if len(m) != 1 || len(m[0].Images) != 1 || !bytes.Equal(m[0].Images[0], base["assets/camo.png"]) {
		t.Fatalf("materials %+v: want the image read from the archive", m)
	}
	if c := p.Vehicle.Clone(); &c.Materials[0] == &m[0] || c.Materials[0].Name != "camo" {
		t.Fatal("Clone does not copy the materials")
	}
	_, ps = ReadPlugin(edited(t, base, "descriptor.json", with([]any{map[string]any{"name": "camo", "textures": []any{"assets/none.png"}, "sizeM": 0.1}}, "camo")))
	if errs := ps.Errors(); len(errs) != 1 || errs[0].Path != "descriptor.materials[0].textures[0]" || !strings.Contains(errs[0].Message, "is not in the archive") {
		t.Errorf("a missing image: %v", ps)
	}
	_, ps = ReadPlugin(edited(t, base, "descriptor.json", with([]any{good}, "camoo")))
	if w := ps.Warnings(); len(w) != 1 || w[0].Path != "descriptor.visual.material" || !strings.Contains(w[0].Message, "nor one of the vehicle's") || len(ps.Errors()) != 0 {
		t.Errorf("a part naming no material: %v", ps)
	}
	cut := edited(t, base, "descriptor.json", with([]any{good}, "camo"))
	cut["assets/camo.png"] = cut["assets/camo.png"][:len(cut["assets/camo.png"])-24]
	p, ps = ReadPlugin(cut)
	if p == nil || ps.Err() != nil {
		t.Fatalf("a cut image's header: %v", ps)
	}
	if got := CheckMaterialPixels(p); len(got) != 1 || got[0].Path != "descriptor.materials[0].textures[0]" {
		t.Errorf("CheckMaterialPixels of a vehicle's cut image: %v", got)
	}
}
