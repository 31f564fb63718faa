package editor

import (
	"bytes"
	"errors"
	"fmt"
	"image/png"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ebitengine/debugui"

	"simgui/plugins"
	"simgui/render"
	"simgui/safefile"
)

// materialRow is one of a track's own materials: its images are files in the archive's assets/
// folder, listed in Textures as "assets/a.png; assets/b.png".
type materialRow struct {
	Name, SizeM, Textures string
	// Image is the path typed to add an image file from disk (not part of the plugin).
	Image string `json:"-"`
}

// newMaterialRow is the row Add material appends.
func newMaterialRow() materialRow { return materialRow{Name: "my_material", SizeM: "0.5"} }

// splitList splits "a; b; c" into its trimmed, non-empty items (nil for none).
func splitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ";") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// errImageKept is addMaterialImage's answer for an image the material has already: nothing to
// do, not a failure.
var errImageKept = errors.New("nothing added")

// addMaterialImage copies the PNG file at p into the draft's assets/ folder, under a name of
// its own made from the file's, and appends that name to m's textures. A file that is not a
// material image (too big, not a PNG, not square, pixels that do not decode), or that would
// take the plugin past the archive's limits, is refused with the reason and nothing changes.
func (d *draft) addMaterialImage(m *materialRow, p string) (string, error) {
	p = expandHome(strings.TrimSpace(p))
	if p == "" {
		return "", errors.New("type the path of a PNG image file to add")
	}
	// Not a pipe or a device, which would hold the window; bounded before reading.
	b, err := safefile.ReadFile(p, plugins.MaxMaterialPNGBytes)
	var big *safefile.TooLargeError
	switch {
	case errors.As(err, &big):
		return "", fmt.Errorf("%s: larger than %d KiB, the most a material image may be", p, plugins.MaxMaterialPNGBytes>>10)
	case errors.Is(err, safefile.ErrNotRegular):
		return "", fmt.Errorf("%s: type the path of a PNG image file", err)
	case err != nil:
		return "", fmt.Errorf("%s: %w", p, unnamed(err, p))
	}
	if msg := plugins.MaterialPNGProblem(b); msg != "" {
		return "", fmt.Errorf("%s: %s", p, msg)
	}
	if _, err := png.Decode(bytes.NewReader(b)); err != nil { // bounded: the header was checked
		return "", fmt.Errorf("%s: pixel data: %v", p, err)
	}
	name := ""
	for _, n := range slices.Sorted(maps.Keys(d.extra)) { // the same image again is the same file
		if strings.HasPrefix(n, plugins.AssetsDir+"/") && bytes.Equal(d.extra[n], b) {
			name = n
			break
		}
	}
	if slices.Contains(splitList(m.Textures), name) {
		return "", fmt.Errorf("%w: %s is already among this material's images, as %s", errImageKept, p, name)
	}
	textures, fresh := m.Textures, name == ""
	if fresh {
		name = d.freeAsset(assetStem(filepath.Base(p)))
		d.extra[name] = b
		if d.added == nil {
			d.added = map[string]bool{}
		}
		d.added[name] = true
	}
	if strings.TrimSpace(m.Textures) == "" {
		m.Textures = name
	} else {
		m.Textures = strings.TrimRight(strings.TrimSpace(m.Textures), ";") + "; " + name
	}
	// The plugin must open again once saved: an image that takes its files past the archive's
	// limits (each image was within its own, the whole was not) is taken out again.
	built, err := d.build()
	if err == nil {
		err = archiveProblem(built.files)
	}
	if err != nil {
		m.Textures = textures
		if fresh {
			delete(d.extra, name)
			delete(d.added, name)
		}
		return "", fmt.Errorf("%s: not added: with it, %w", p, err)
	}
	return name, nil
}

// assetStem makes a file name's stem a safe archive name: lower-case letters, digits and '_'.
func assetStem(file string) string {
	stem := strings.ToLower(strings.TrimSuffix(file, filepath.Ext(file)))
	var b strings.Builder
	under := false
	for _, r := range stem {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			under = false
		} else if !under && b.Len() > 0 {
			b.WriteByte('_')
			under = true
		}
		if b.Len() >= 48 {
			break
		}
	}
	if s := strings.TrimRight(b.String(), "_"); s != "" {
		return s
	}
	return "image"
}

// freeAsset returns assets/<stem>.png, or with _2, _3, ... when that file is taken.
func (d *draft) freeAsset(stem string) string {
	name := path.Join(plugins.AssetsDir, stem+".png")
	for n := 2; d.extra[name] != nil; n++ {
		name = path.Join(plugins.AssetsDir, fmt.Sprintf("%s_%d.png", stem, n))
	}
	return name
}

// materialChoices are the material names a part may take: none (the default), the plugin's
// own (rows), then the built-in ones.
func materialChoices(rows []materialRow) []string {
	out := []string{""}
	for _, m := range rows {
		if n := strings.TrimSpace(m.Name); n != "" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	for _, n := range render.TextureNames() {
		if !slices.Contains(out, n) { // an own material of a built-in's name stands in for it
			out = append(out, n)
		}
	}
	return out
}

// materialRows converts a plugin's own materials to form rows.
func materialRows(ms []plugins.Material) []materialRow {
	var out []materialRow
	for _, m := range ms {
		out = append(out, materialRow{Name: m.Name, SizeM: num(m.SizeM), Textures: strings.Join(m.Textures, "; ")})
	}
	return out
}

// materials converts form rows to a plugin's own materials, numbers parsed by p.
func (p *parser) materials(rows []materialRow) []plugins.Material {
	var out []plugins.Material
	for i, r := range rows {
		mp := index("descriptor.materials", i)
		out = append(out, plugins.Material{Name: strings.TrimSpace(r.Name),
			SizeM: p.float(mp+".sizeM", r.SizeM), Textures: splitList(r.Textures)})
	}
	return out
}

// ownMaterials lays out a plugin's own materials (owner: "track" or "vehicle"), each with a
// field to add an image file; rename is called as a row's name is typed, and used says what
// names them.
func (e *Editor) ownMaterials(ctx *debugui.Context, rows *[]materialRow, owner, images, used string, rename func(i int, from, to string)) {
	ctx.SetGridLayout([]int{-1}, nil)
	ctx.Text("")
	ctx.Text(fmt.Sprintf("The %s's own materials: square PNG images (%d to %d px, at most %d KiB) in the archive's assets/, each covering size m of a face",
		owner, plugins.MinMaterialSide, plugins.MaxMaterialSide, plugins.MaxMaterialPNGBytes>>10))
	widths := []int{26, -2, 60, -5, 70}
	ctx.SetGridLayout(widths, nil)
	for _, h := range []string{"#", "name", "size m", "images (assets/x.png; assets/y.png): " + images, ""} {
		ctx.Text(h)
	}
	for i := range *rows {
		r := &(*rows)[i]
		mp := index("descriptor.materials", i)
		ctx.SetGridLayout(widths, nil)
		ctx.Text(itoa(i))
		was := r.Name
		if e.field(ctx, mp+".name", &r.Name); r.Name != was {
			rename(i, was, r.Name)
		}
		e.field(ctx, mp+".sizeM", &r.SizeM)
		e.field(ctx, mp+".textures", &r.Textures)
		e.button(ctx, "materials["+itoa(i)+"].remove", "Remove", func() { *rows = slices.Delete(*rows, i, i+1) })
		ctx.SetGridLayout([]int{26, 90, -1, 90}, nil)
		ctx.Text("")
		ctx.Text("image file")
		add := func() {
			if name, err := e.d.addMaterialImage(r, r.Image); errors.Is(err, errImageKept) {
				r.Image = ""
				e.done(err.Error())
			} else if err != nil {
				e.failedErr(err)
			} else {
				r.Image = ""
				e.check() // the change first, so that the message is not taken for an old one
				e.done("added " + name + " to " + strings.TrimSpace(r.Name) + " (kept when the plugin is saved or exported)")
			}
		}
		if e.fieldHint(ctx, mp+".image", &r.Image, "path of a PNG file on this computer (Enter adds it)") {
			e.later = append(e.later, add)
		}
		e.button(ctx, "materials["+itoa(i)+"].addImage", "Add image", add)
	}
	ctx.SetGridLayout([]int{120, -1}, nil)
	e.button(ctx, "materials.add", "Add material", func() { *rows = append(*rows, newMaterialRow()) })
	ctx.Text(used)
}

// trackMaterials lays out the track's own materials.
func (e *Editor) trackMaterials(ctx *debugui.Context, f *trackForm) {
	e.ownMaterials(ctx, &f.Materials, "track", "one is drawn per reset", "elements and the floor name a material by its name", f.renameMaterial)
}

// vehicleMaterials lays out the vehicle's own materials.
func (e *Editor) vehicleMaterials(ctx *debugui.Context, f *vehicleForm) {
	e.ownMaterials(ctx, &f.Materials, "vehicle", "the first is drawn", "the material and accent material above name a material by its name", f.renameMaterial)
}

// renameMaterial makes the elements and the floor that named material row i by its old name
// name it by the new one (see renameRefs).
func (f *trackForm) renameMaterial(i int, from, to string) {
	refs := []*string{&f.FloorTexture}
	for k := range f.Elements {
		refs = append(refs, &f.Elements[k].Material)
	}
	renameRefs(f.Materials, i, from, to, refs)
}

// renameMaterial makes the parts that named material row i by its old name name it by the
// new one (see renameRefs).
func (f *vehicleForm) renameMaterial(i int, from, to string) {
	renameRefs(f.Materials, i, from, to, []*string{&f.Material, &f.AccentMaterial})
}

// renameRefs makes the references refs that named material row i of rows by its old name
// name it by the new one, as the name is typed, unless another row has the old name too. An
// empty name on either side renames nothing (the references wait for a name again).
func renameRefs(rows []materialRow, i int, from, to string, refs []*string) {
	from, to = strings.TrimSpace(from), strings.TrimSpace(to)
	if from == "" || to == "" || from == to {
		return
	}
	for k, m := range rows {
		if k != i && strings.TrimSpace(m.Name) == from {
			return
		}
	}
	for _, name := range refs {
		if strings.TrimSpace(*name) == from {
			*name = to
		}
	}
}

// unusedAdded are the images the editor added to assets/ that no material names any more: a
// build leaves them out (the draft keeps them, for an undo to bring back).
func (d *draft) unusedAdded() map[string]bool {
	var rows []materialRow
	switch {
	case d.track != nil:
		rows = d.track.Materials
	case d.vehicle != nil:
		rows = d.vehicle.Materials
	}
	if len(d.added) == 0 || rows == nil {
		return d.added // images no material names
	}
	used := map[string]bool{}
	for _, m := range rows {
		for _, n := range splitList(m.Textures) {
			used[n] = true
		}
	}
	out := map[string]bool{}
	for n := range d.added {
		if !used[n] {
			out[n] = true
		}
	}
	return out
}
