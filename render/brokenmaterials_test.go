package render

import (
	"bytes"
	"image"
	"image/png"
	"slices"
	"testing"

	"simgui/plugins"
)

// TestWithoutBrokenMaterials leaves out only what does not load: a material whose image is
// cut short and a name nothing defines lose their elements' materials, an unknown floor
// texture the floor's, while a material that loads and an element's default stay; the layout
// left builds a realistic Static.
func TestWithoutBrokenMaterials(t *testing.T) {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 32, 32))); err != nil {
		t.Fatal(err)
	}
	whole := b.Bytes()
	wall := func(y float64, material string) plugins.Element {
		return plugins.Element{Kind: plugins.ElementWall, Y: y, Length: 1, Width: 0.05, Height: 0.2, Material: material}
	}
	l := &plugins.Layout{
		Floor: plugins.Floor{Length: 4, Width: 4, Texture: "no_such_floor"},
		Elements: []plugins.Element{
			wall(0, "poster"), wall(0.5, "torn"), wall(1, "no_such_material"), wall(1.5, ""), wall(-0.5, "torn"),
		},
		Materials: []plugins.Material{
			{Name: "poster", Textures: []string{"assets/a.png"}, SizeM: 0.5, Images: [][]byte{whole}},
			{Name: "torn", Textures: []string{"assets/a.png", "assets/b.png"}, SizeM: 0.5, Images: [][]byte{whole, whole[:len(whole)-24]}},
		},
	}
	env := RealisticEnvironment()
	if _, err := NewStatic(l, &env); err == nil {
		t.Fatal("the layout as it is builds: the test would check nothing")
	}
	part, dropped := WithoutBrokenMaterials(l)
	if want := []string{"material torn", "material no_such_material", "floor texture no_such_floor"}; !slices.Equal(dropped, want) {
		t.Errorf("dropped %q, want %q", dropped, want)
	}
	var got []string
	for _, e := range part.Elements {
		got = append(got, e.Material)
	}
	if want := []string{"poster", "", "", "", ""}; !slices.Equal(got, want) || part.Floor.Texture != "" {
		t.Errorf("materials left %q, floor texture %q; want %q and none", got, part.Floor.Texture, want)
	}
	if l.Elements[1].Material != "torn" || l.Floor.Texture != "no_such_floor" {
		t.Error("WithoutBrokenMaterials changed the layout it was given")
	}
	if _, err := NewStatic(part, &env); err != nil {
		t.Fatalf("the layout left: %v", err)
	}
	build := func(l *plugins.Layout) (*Static, error) { return NewStatic(l, &env) }
	if s, left, err := StaticLeavingOut(l, build); s == nil || !slices.Equal(left, dropped) || err == nil {
		t.Errorf("StaticLeavingOut: static %v, left out %q, cause %v; want a static, %q and the cause", s != nil, left, err, dropped)
	}
	if s, left, err := StaticLeavingOut(part, build); s == nil || left != nil || err != nil {
		t.Errorf("StaticLeavingOut of a layout that builds: static %v, left out %q, %v; want it whole", s != nil, left, err)
	}
}

// TestPluginChecksKnowTheMaterials holds the plugin checks' list of built-in materials to the
// renderer's registry.
func TestPluginChecksKnowTheMaterials(t *testing.T) {
	if plugins.BuiltinMaterials == nil {
		t.Fatal("the renderer does not tell the plugin checks its materials")
	}
	if got, want := plugins.BuiltinMaterials(), TextureNames(); !slices.Equal(got, want) || !slices.Contains(got, "cardboard") {
		t.Fatalf("plugin checks know %v, the renderer has %v", got, want)
	}
}
