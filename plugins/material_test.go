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
