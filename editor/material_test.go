package editor

import (
	"bytes"
	"encoding/json"
	"errors"
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"simgui/plugins"
	"simgui/plugins/archive"
)

// testPNG is a w×w PNG of one colour.
func testPNG(t *testing.T, w int, c color.RGBA) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, w))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// materialTrackFiles are the files of a valid track that uses materials everywhere it can: an
// own material of two images (one the floor's texture), a wall in it, a box in a built-in one.
func materialTrackFiles(t *testing.T) map[string][]byte {
	t.Helper()
	d, err := newDraft(plugins.TypeTrack)
	if err != nil {
		t.Fatal(err)
	}
	d.track.Base.ID, d.track.Base.DisplayName = "track.acme.tiles.v1", "Tiles"
	b, err := d.build()
	if err != nil {
		t.Fatal(err)
	}
	var desc map[string]any
	if err := json.Unmarshal(b.files[plugins.DescriptorFile], &desc); err != nil {
		t.Fatal(err)
	}
	desc["materials"] = []any{map[string]any{"name": "blue_tiles", "textures": []string{"assets/blue.png", "assets/teal.png"}, "sizeM": 0.5}}
	desc["floor"] = map[string]any{"x": 0, "y": 0, "length": 6, "width": 6, "texture": "blue_tiles"}
	desc["route"] = map[string]any{"waypoints": [][2]float64{{0, -2}, {-0.5, 1}}, "reachDistance": 0.3, "corridorWidth": 0.8,
		"goalRadius": 0.2, "controller": "waypoint_follower", "graph": "main"}
	desc["elements"] = []any{
		map[string]any{"kind": "wall", "name": "w", "x": 1, "length": 2, "width": 0.05, "height": 0.3, "material": "blue_tiles"},
		map[string]any{"kind": "box", "name": "b", "x": -1, "length": 0.2, "width": 0.2, "height": 0.2, "material": "brick", "color": "#a04030"},
		map[string]any{"kind": "marker", "name": "tag", "x": 0.98, "y": 0.5, "z": 0.15, "length": 0.1, "yawDeg": 180, "arucoId": 5},
	}
	files := b.files
	if files[plugins.DescriptorFile], err = json.Marshal(desc); err != nil {
		t.Fatal(err)
	}
	files["assets/blue.png"] = testPNG(t, 16, color.RGBA{40, 60, 200, 255})
	files["assets/teal.png"] = testPNG(t, 16, color.RGBA{40, 160, 160, 255})
	return files
}

// TestMaterialsRoundTrip: a track's own materials, its elements' and floor's material names,
// a marker's ArUco id, its route's metadata, and a vehicle's material and accent material and a sensor's noise
// mean come out of the form as they went in.
func TestMaterialsRoundTrip(t *testing.T) {
	files := materialTrackFiles(t)
	want, ps := plugins.ReadPlugin(files)
	if want == nil || len(ps.Errors()) > 0 {
		t.Fatalf("the test's track is not valid: %v", ps)
	}
	d, _, err := draftFromFiles(files, "test")
	if err != nil {
		t.Fatal(err)
	}
	b, err := d.build()
	if err != nil {
		t.Fatal(err)
	}
	if _, ps := b.validate(); len(ps) > 0 {
		t.Errorf("problems after the round trip: %v", ps)
	}
	got, _ := plugins.ReadPlugin(b.files)
	if got == nil || !reflect.DeepEqual(got.Track.Materials, want.Track.Materials) ||
		!reflect.DeepEqual(got.Track.Elements, want.Track.Elements) || got.Track.Floor.Texture != "blue_tiles" ||
		!reflect.DeepEqual(got.Track.Route, want.Track.Route) {
		t.Errorf("track after the round trip:\n got %s\nwant %s", js(got.Track), js(want.Track))
	}

	v, err := newDraft(plugins.TypeVehicle)
	if err != nil {
		t.Fatal(err)
	}
	v.vehicle.Base.ID, v.vehicle.Base.DisplayName = "vehicle.acme.brick.v1", "Brick"
	v.vehicle.Material, v.vehicle.AccentMaterial = "brick", "tape"
	v.vehicle.Sensors[0].Noise, v.vehicle.Sensors[0].NoiseMean = "2", 0.5
	vb, err := v.build()
	if err != nil {
		t.Fatal(err)
	}
	v2, _, err := draftFromFiles(vb.files, "test")
	if err != nil {
		t.Fatal(err)
	}
	if f := v2.vehicle; f.Material != "brick" || f.AccentMaterial != "tape" || f.Sensors[0].NoiseMean != 0.5 {
		t.Errorf("vehicle after the round trip: materials %q, %q, noise mean %v", f.Material, f.AccentMaterial, f.Sensors[0].NoiseMean)
	}
}

// TestAddMaterialImage: an image file added from disk is copied into assets/ under a name that
// is free, and named in the material's textures; a file that is no PNG, too big or missing is
// refused with the reason, and nothing is added.
func TestAddMaterialImage(t *testing.T) {
	d, _, err := draftFromFiles(materialTrackFiles(t), "test")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "Blue Tiles.PNG")
	if err := os.WriteFile(good, testPNG(t, 32, color.RGBA{10, 20, 250, 255}), 0o644); err != nil {
		t.Fatal(err)
	}
	m := &d.track.Materials[0]
	name, err := d.addMaterialImage(m, good)
	if err != nil {
		t.Fatal(err)
	}
	if name != "assets/blue_tiles.png" || !strings.HasSuffix(m.Textures, "; assets/blue_tiles.png") || d.extra[name] == nil {
		t.Errorf("added as %q, textures %q", name, m.Textures)
	}
	// The same image again is refused by this material and shared by another; a different
	// image of the same file name gets a name of its own.
	if again, err := d.addMaterialImage(m, good); err == nil || !strings.Contains(err.Error(), "already among this material's images") {
		t.Errorf("the same image again: %q, %v", again, err)
	}
	other := &materialRow{Name: "other"}
	if shared, err := d.addMaterialImage(other, good); err != nil || shared != name || other.Textures != name {
		t.Errorf("the same image in another material: %q (%v), textures %q", shared, err, other.Textures)
	}
	if err := os.WriteFile(good, testPNG(t, 32, color.RGBA{250, 20, 10, 255}), 0o644); err != nil {
		t.Fatal(err)
	}
	if second, err := d.addMaterialImage(m, good); err != nil || second != "assets/blue_tiles_2.png" {
		t.Errorf("another image of the same file name added as %q: %v", second, err)
	}
	big := filepath.Join(dir, "big.png")
	if err := os.WriteFile(big, bytes.Repeat([]byte{0}, plugins.MaxMaterialPNGBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	text := filepath.Join(dir, "notes.png")
	if err := os.WriteFile(text, []byte("not an image"), 0o644); err != nil {
		t.Fatal(err)
	}
	pipe := filepath.Join(dir, "pipe.png")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	before := len(d.extra)
	for _, c := range []struct{ path, says string }{
		{big, "KiB"},
		{text, "not a PNG"},
		{filepath.Join(dir, "missing.png"), "no such file"},
		{"", "type the path"},
		{dir, "a folder"},
		{"/dev/zero", "a character device"},
		{pipe, "a named pipe"}, // read, it would hold the window until something wrote to it
	} {
		tex := m.Textures
		if _, err := d.addMaterialImage(m, c.path); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("adding %q: %v, want it to say %q", c.path, err, c.says)
		}
		if m.Textures != tex || len(d.extra) != before {
			t.Errorf("adding %q changed the draft", c.path)
		}
	}
}

// TestRenameMaterialFollows: as a material's name is typed over, the elements and the floor
// that named it follow; an empty name, or a name another material has too, moves nothing.
func TestRenameMaterialFollows(t *testing.T) {
	f := &trackForm{
		Materials:    []materialRow{{Name: "poster_wall"}, {Name: "tiles"}},
		Elements:     []elementRow{{Material: "poster_wall"}, {Material: "tiles"}, {Material: "brick"}},
		FloorTexture: "poster_wall",
	}
	for _, step := range []struct{ from, to string }{{"poster_wall", "poster_wal"}, {"poster_wal", "poster"}} {
		f.Materials[0].Name = step.to
		f.renameMaterial(0, step.from, step.to)
	}
	if f.Elements[0].Material != "poster" || f.FloorTexture != "poster" || f.Elements[1].Material != "tiles" || f.Elements[2].Material != "brick" {
		t.Errorf("after renaming poster_wall to poster: elements %q %q %q, floor %q",
			f.Elements[0].Material, f.Elements[1].Material, f.Elements[2].Material, f.FloorTexture)
	}
	f.renameMaterial(0, "poster", "")
	if f.Elements[0].Material != "poster" {
		t.Errorf("an emptied name moved the reference to %q", f.Elements[0].Material)
	}
	f.Materials[1].Name = "poster" // two materials of one name: which one is meant is not known
	f.renameMaterial(0, "poster", "posters")
	if f.Elements[0].Material != "poster" {
		t.Errorf("a name two materials share moved to %q", f.Elements[0].Material)
	}
}

// TestChangeKindTakesItsDefaults: a new wall turned marker takes the marker's shape and
// colour; a value typed stays; leaving the marker kind drops the ArUco id.
func TestChangeKindTakesItsDefaults(t *testing.T) {
	r := newElementRow()
	r.Length = "0.12" // typed
	r.Kind = plugins.ElementMarker
	r.changeKind(plugins.ElementWall)
	want := kindDefaults[plugins.ElementMarker]
	if r.Width != want.Width || r.Height != want.Height || r.Z != want.Z || r.Color != want.Color || r.Length != "0.12" {
		t.Errorf("wall to marker: %+v", r)
	}
	r.ArucoID = "5"
	r.Kind = plugins.ElementBox
	r.changeKind(plugins.ElementMarker)
	if r.ArucoID != "" || r.Color != kindDefaults[plugins.ElementBox].Color || r.Height != kindDefaults[plugins.ElementBox].Height {
		t.Errorf("marker to box: %+v", r)
	}
	// Each kind's defaults, on a track of its own with a floor, validate.
	for kind := range kindDefaults {
		d, err := newDraft(plugins.TypeTrack)
		if err != nil {
			t.Fatal(err)
		}
		d.track.Base.ID, d.track.Base.DisplayName = "track.acme.kinds.v1", "Kinds"
		row := newElementRow()
		row.Kind, row.X, row.Y = kind, "-2", "2"
		row.changeKind(plugins.ElementWall)
		d.track.Elements = []elementRow{row}
		b, err := d.build()
		if err != nil {
			t.Fatal(err)
		}
		if _, ps := b.validate(); len(ps.Errors()) > 0 {
			t.Errorf("a new %s: %v", kind, ps.Errors())
		}
	}
}

// TestUnusedAddedImagesAreLeftOut: an image added and then no longer named by any material is
// not in the built files; the draft keeps it, so that an undo brings it back.
func TestUnusedAddedImagesAreLeftOut(t *testing.T) {
	d, _, err := draftFromFiles(materialTrackFiles(t), "test")
	if err != nil {
		t.Fatal(err)
	}
	img := filepath.Join(t.TempDir(), "stripe.png")
	if err := os.WriteFile(img, testPNG(t, 16, color.RGBA{1, 2, 3, 255}), 0o644); err != nil {
		t.Fatal(err)
	}
	m := &d.track.Materials[0]
	before := m.Textures
	name, err := d.addMaterialImage(m, img)
	if err != nil {
		t.Fatal(err)
	}
	built := func() map[string][]byte {
		b, err := d.build()
		if err != nil {
			t.Fatal(err)
		}
		return b.files
	}
	if built()[name] == nil {
		t.Fatalf("%s is named and not built", name)
	}
	m.Textures = before // the image taken out of the material again
	if _, ok := built()[name]; ok {
		t.Errorf("%s is named by no material and still built", name)
	}
	if built()["assets/blue.png"] == nil {
		t.Error("the opened plugin's own image was left out")
	}
	m.Textures += "; " + name // an undo
	if built()[name] == nil {
		t.Errorf("%s named again and not built", name)
	}
}

// TestElementAt finds the element whose footprint holds a point: a turned wall along its
// length, a cylinder within its radius, the last drawn of two, none off them.
func TestElementAt(t *testing.T) {
	f := &trackForm{Elements: []elementRow{
		{Kind: plugins.ElementWall, X: "0", Y: "0", Length: "4", Width: "0.1", YawDeg: "90"},
		{Kind: plugins.ElementCylinder, X: "1", Y: "1", Radius: "0.2"},
		{Kind: plugins.ElementBox, X: "0", Y: "1.5", Length: "0.4", Width: "0.4"},
		{Kind: plugins.ElementRoad, Points: "0,-1; 0,1", Width: "1"},
	}}
	for _, c := range []struct {
		x, y float64
		want int
	}{{0.02, -1.9, 0}, {0.2, -1.9, -1}, {1.1, 1.1, 1}, {1.3, 1.3, -1}, {0.1, 1.6, 2}, {0.5, 0, -1}} {
		if got := f.elementAt(c.x, c.y); got != c.want {
			t.Errorf("(%g, %g): element %d, want %d", c.x, c.y, got, c.want)
		}
	}
}

// TestOpenLeavesOutUnreadableValues: a descriptor with values of the wrong type opens, those
// values left out and named in the notes, the rest as it was; malformed JSON still does not.
func TestOpenLeavesOutUnreadableValues(t *testing.T) {
	files := materialTrackFiles(t)
	var desc map[string]any
	if err := json.Unmarshal(files[plugins.DescriptorFile], &desc); err != nil {
		t.Fatal(err)
	}
	desc["elements"].([]any)[2].(map[string]any)["arucoId"] = 2.5
	desc["route"].(map[string]any)["corridorWidth"] = "wide"
	desc["elements"].([]any)[0].(map[string]any)["points"] = []any{[]any{1, "x"}}
	b, err := json.Marshal(desc)
	if err != nil {
		t.Fatal(err)
	}
	bad := maps.Clone(files)
	bad[plugins.DescriptorFile] = b
	d, notes, err := draftFromFiles(bad, "test")
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(notes, "\n")
	for _, want := range []string{"descriptor.elements[2].arucoId: 2.5 is not a whole number", "descriptor.route.corridorWidth",
		"descriptor.elements[0].points[0][1]"} {
		if !strings.Contains(joined, want) {
			t.Errorf("notes %q do not name %s", joined, want)
		}
	}
	if d.track.Elements[2].ArucoID != "" || d.track.Corridor != "0" || d.track.Elements[1].Material != "brick" || d.track.Waypoints == "" {
		t.Errorf("opened: marker id %q, corridor %q, box material %q", d.track.Elements[2].ArucoID, d.track.Corridor, d.track.Elements[1].Material)
	}
	broken := maps.Clone(files)
	broken[plugins.DescriptorFile] = []byte(`{"id": "track.acme.tiles.v1",`)
	if _, _, err := draftFromFiles(broken, "test"); err == nil || !strings.Contains(err.Error(), "malformed JSON") {
		t.Errorf("malformed JSON: %v", err)
	}
}

func TestWithoutValue(t *testing.T) {
	for _, c := range []struct{ doc, path, want string }{
		{`{"a": [1, {"b": 2.50, "c": 3}]}`, ".a[1].b", `{"a":[1,{"c":3}]}`},
		{`{"a": [1, "x"]}`, ".a[1]", `{"a":[1,null]}`},
		{`{"a": {"b.c": 1}}`, ".a.b.c", ""}, // a key with a dot is not a path's
		{`{"a": 1}`, ".b", ""},
		{`{"a": [1]}`, ".a[3]", ""},
		{`{"a": 1}`, "", ""},
		{`{"a": 1}`, ".a[x]", ""},
	} {
		got, ok := withoutValue([]byte(c.doc), c.path)
		if ok != (c.want != "") || string(got) != c.want {
			t.Errorf("%s without %q: %q %v, want %q", c.doc, c.path, got, ok, c.want)
		}
	}
}

// TestOpenSaysWhichFieldsAreNotKept: the form holds only the fields simgui reads, so Save and
// Export leave out the others (a typo such as "mas" with its value, the Unity fields of a
// rusim export, a manifest's "homepage"). They were dropped without a word, and the typo's
// warning `simgui plugin validate` gives was never shown: opening now names each of them.
func TestOpenSaysWhichFieldsAreNotKept(t *testing.T) {
	files := maps.Clone(materialTrackFiles(t))
	edit := func(name string, f func(m map[string]any)) {
		var m map[string]any
		if err := json.Unmarshal(files[name], &m); err != nil {
			t.Fatal(err)
		}
		f(m)
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = b
	}
	edit(plugins.DescriptorFile, func(m map[string]any) {
		m["unityPrefab"] = "Assets/Track.prefab"
		m["elements"].([]any)[1].(map[string]any)["heigth"] = 0.3
	})
	edit(plugins.ManifestFile, func(m map[string]any) { m["homepage"] = "https://example.org" })
	_, notes, err := draftFromFiles(files, "test")
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(notes, "\n")
	for _, want := range []string{`Save and Export leave out fields simgui does not read`, `descriptor: "unityPrefab"`,
		`descriptor.elements[1]: "heigth"`, `manifest: "homepage"`} {
		if !strings.Contains(joined, want) {
			t.Errorf("notes %q do not say %s", joined, want)
		}
	}
	if _, notes, _ := draftFromFiles(materialTrackFiles(t), "test"); len(notes) != 0 {
		t.Errorf("a plugin with no unknown fields opens with notes %q", notes)
	}
}

// TestVehicleOwnMaterials: a vehicle's own material comes out of the form as it went in with
// its image kept, its parts may name it, renaming it renames their references, and an image
// added to it is kept by a build.
func TestVehicleOwnMaterials(t *testing.T) {
	v, err := newDraft(plugins.TypeVehicle)
	if err != nil {
		t.Fatal(err)
	}
	v.vehicle.Base.ID, v.vehicle.Base.DisplayName = "vehicle.acme.camo.v1", "Camo"
	v.vehicle.Materials = []materialRow{newMaterialRow()}
	img := filepath.Join(t.TempDir(), "Camo Paint.png")
	if err := os.WriteFile(img, testPNG(t, 16, color.RGBA{60, 90, 40, 255}), 0o644); err != nil {
		t.Fatal(err)
	}
	name, err := v.addMaterialImage(&v.vehicle.Materials[0], img)
	if err != nil || name != "assets/camo_paint.png" {
		t.Fatalf("adding the image: %q, %v", name, err)
	}
	v.vehicle.Material = "my_material"
	if choices := materialChoices(v.vehicle.Materials); len(choices) < 3 || choices[1] != "my_material" {
		t.Fatalf("the parts' choices %q: want none, then the vehicle's own, then the built-in ones", choices)
	}
	v.vehicle.Materials[0].Name = "camo"
	v.vehicle.renameMaterial(0, "my_material", "camo")
	if v.vehicle.Material != "camo" {
		t.Fatalf("the part's material after the rename: %q", v.vehicle.Material)
	}
	b, err := v.build()
	if err != nil {
		t.Fatal(err)
	}
	if _, ps := b.validate(); len(ps) > 0 {
		t.Fatalf("problems: %v", ps)
	}
	got, ps := plugins.ReadPlugin(b.files)
	if got == nil || len(ps) > 0 {
		t.Fatalf("the built files: %v", ps)
	}
	want := []plugins.Material{{Name: "camo", Textures: []string{"assets/camo_paint.png"}, SizeM: 0.5, Images: [][]byte{b.files["assets/camo_paint.png"]}}}
	if !reflect.DeepEqual(got.Vehicle.Materials, want) || got.Vehicle.Visual.Material != "camo" || b.files["assets/camo_paint.png"] == nil {
		t.Fatalf("the built vehicle's materials %s, part %q; want %s", js(got.Vehicle.Materials), got.Vehicle.Visual.Material, js(want))
	}
	v2, _, err := draftFromFiles(b.files, "test")
	if err != nil {
		t.Fatal(err)
	}
	if f := v2.vehicle; len(f.Materials) != 1 || f.Materials[0] != (materialRow{Name: "camo", SizeM: "0.5", Textures: "assets/camo_paint.png"}) || f.Material != "camo" {
		t.Fatalf("the vehicle's form after the round trip: %+v, part %q", f.Materials, f.Material)
	}
}

// TestAddMaterialImageWithinTheTotal: an image that would take the plugin's files past the
// archive's total is refused with the reason and nothing changes, as an image over its own
// limits is; Save refuses files past the total, which would not open again.
func TestAddMaterialImageWithinTheTotal(t *testing.T) {
	d, _, err := draftFromFiles(materialTrackFiles(t), "test")
	if err != nil {
		t.Fatal(err)
	}
	img := filepath.Join(t.TempDir(), "stripe.png")
	pix := testPNG(t, 32, color.RGBA{1, 2, 3, 255})
	if err := os.WriteFile(img, pix, 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := d.build()
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	for _, f := range b.files {
		total += int64(len(f))
	}
	// Other images fill the plugin to a byte short of the image's own size.
	const filler = "assets/filler.png"
	d.extra[filler] = make([]byte, archive.DefaultLimits.MaxTotal-total-int64(len(pix))+1)
	m := &d.track.Materials[0]
	textures, files := m.Textures, len(d.extra)
	if name, err := d.addMaterialImage(m, img); err == nil || !strings.Contains(err.Error(), "over the 64 MiB a plugin may hold in all") {
		t.Errorf("an image past the total: added as %q (%v)", name, err)
	}
	if m.Textures != textures || len(d.extra) != files || len(d.added) != 0 {
		t.Errorf("a refused image changed the draft: textures %q, %d files, added %v", m.Textures, len(d.extra), d.added)
	}
	d.extra[filler] = d.extra[filler][:len(d.extra[filler])-1024]
	if _, err := d.addMaterialImage(m, img); err != nil {
		t.Fatalf("an image within the total: %v", err)
	}

	e := testEditor(t, plugins.TypeTrack)
	e.jobs = make(chan func() func(), 8)
	e.opts.ExportDir = t.TempDir()
	e.load(d, nil)
	e.d.track.Base.ID = "track.acme.full.v1"
	e.d.extra[filler] = append(e.d.extra[filler], make([]byte, 2048)...) // past the total again
	e.save()
	finish(t, e)
	if e.statusKind != statusFailed || !strings.Contains(e.status, "nothing saved: the plugin's files come to 64.1 MiB, over the 64 MiB") {
		t.Errorf("saving files past the total: %q (%s)", e.status, e.statusKind)
	}
	if _, err := os.Stat(filepath.Join(e.opts.ExportDir, "track.acme.full.v1")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused Save made the folder: %v", err)
	}
}
