package plugins

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"path"
	"regexp"
	"slices"
	"strings"
)

// Material is a plugin's own surface: one or more PNG images in the archive's assets folder (a
// set domain randomization picks from, for a track's), each covering SizeM × SizeM metres of a
// face and repeating. A track's elements name it in Element.Material, a vehicle's parts in
// Visual.Material and Visual.AccentMaterial.
type Material struct {
	Name string `json:"name"`
	// Textures are archive paths, assets/<file>.png.
	Textures []string `json:"textures"`
	// SizeM is the side in metres one image covers.
	SizeM float64 `json:"sizeM"`
	// Images hold the PNG files of Textures, in order, read from the archive (DecodePlugin).
	Images [][]byte `json:"-"`
}

// Limits of a material's images: a PNG file of at most MaxMaterialPNGBytes, square, with a side
// of MinMaterialSide to MaxMaterialSide pixels; at most MaxMaterialTextures per material and
// MaxMaterials per plugin.
const (
	MaxMaterialPNGBytes = 512 << 10
	MinMaterialSide     = 16
	MaxMaterialSide     = 1024
	MaxMaterialTextures = 8
	MaxMaterials        = 32
)

// materialName is the form of material names: lower case letters, digits and '_'.
var materialName = regexp.MustCompile(`^[a-z0-9_]{1,64}$`)

// LoadMaterialImages fills each material's Images from the plugin's files (archive names); a
// missing file is left nil for validation to report.
func LoadMaterialImages(ms []Material, files map[string][]byte) {
	for i := range ms {
		m := &ms[i]
		m.Images = make([][]byte, len(m.Textures))
		for k, name := range m.Textures {
			m.Images[k] = files[name]
		}
	}
}

// checkMaterials checks a track's materials and the material names its elements and floor use.
func (ps *Problems) checkMaterials(t *TrackDescriptor) {
	seen := ps.checkOwnMaterials(t.Materials, "track")
	unknown := map[string][]int{} // element indices by material name nothing defines
	var names []string
	for i, e := range t.Elements {
		p := index("descriptor.elements", i) + ".material"
		if e.Material != "" && !materialName.MatchString(e.Material) {
			ps.add(p, "%q: want 1 to 64 lower-case letters, digits or '_'", e.Material)
		} else if e.Material != "" && !seen[e.Material] && !builtinMaterial(e.Material) {
			if unknown[e.Material] == nil {
				names = append(names, e.Material)
			}
			unknown[e.Material] = append(unknown[e.Material], i)
		}
	}
	for _, name := range names { // one warning a name
		is := unknown[name]
		also := ""
		if len(is) > 1 {
			also = fmt.Sprintf(" (and %d more elements)", len(is)-1)
		}
		ps.warn(index("descriptor.elements", is[0])+".material", "%q%s is neither a built-in material (%s) nor one of the track's: drawn in the element kind's default material",
			name, also, strings.Join(BuiltinMaterials(), ", "))
	}
	if f := t.Floor; f != nil && f.Texture != "" && !seen[f.Texture] && !builtinMaterial(f.Texture) {
		ps.warn("descriptor.floor.texture", "%q is neither a built-in floor texture or material (%s) nor one of the track's: the floor is drawn in its plain colour",
			f.Texture, strings.Join(BuiltinMaterials(), ", "))
	}
}

// checkOwnMaterials checks a plugin's own materials (owner: "track" or "vehicle") and returns
// their names.
func (ps *Problems) checkOwnMaterials(ms []Material, owner string) map[string]bool {
	if len(ms) > MaxMaterials {
		ps.add("descriptor.materials", "%d materials; at most %d", len(ms), MaxMaterials)
	}
	seen := map[string]bool{}
	for i, m := range ms {
		p := index("descriptor.materials", i)
		if !materialName.MatchString(m.Name) {
			ps.add(p+".name", "%q: want 1 to 64 lower-case letters, digits or '_'", m.Name)
		}
		if seen[m.Name] {
			ps.add(p+".name", "%q is declared twice", m.Name)
		} else if BuiltinMaterials != nil && builtinMaterial(m.Name) {
			ps.warn(p+".name", "%q is also a built-in material: the %s's own images are drawn wherever the %s names it", m.Name, owner, owner)
		}
		seen[m.Name] = true
		if !(m.SizeM > 0 && m.SizeM <= 100) {
			ps.add(p+".sizeM", "%s is outside (0, 100] metres", fmtNum(m.SizeM))
		}
		if len(m.Textures) == 0 || len(m.Textures) > MaxMaterialTextures {
			ps.add(p+".textures", "%d textures; want 1 to %d", len(m.Textures), MaxMaterialTextures)
		}
		for k, name := range m.Textures {
			tp := index(p+".textures", k)
			if path.Dir(name) != AssetsDir || !strings.HasSuffix(strings.ToLower(name), ".png") {
				ps.add(tp, "%q: want a PNG file in the archive's %s folder (%s/<name>.png)", name, AssetsDir, AssetsDir)
				continue
			}
			if k >= len(m.Images) || m.Images[k] == nil {
				ps.add(tp, "%q is not in the archive", name)
				continue
			}
			if msg := MaterialPNGProblem(m.Images[k]); msg != "" {
				ps.add(tp, "%s: %s", name, msg)
			}
		}
	}
	return seen
}

// BuiltinMaterials lists the renderer's built-in materials and floor textures, sorted: the
// renderer sets it when it is linked in. While it is nil, material names are checked for their
// form only.
var BuiltinMaterials func() []string

// builtinMaterial reports whether name is a built-in material (true when none are known).
func builtinMaterial(name string) bool {
	if BuiltinMaterials == nil {
		return true
	}
	_, found := slices.BinarySearch(BuiltinMaterials(), name)
	return found
}

// CheckMaterialPixels decodes the pixels of p's material images and reports those that do not
// decode (data cut short, a corrupt stream) at the images' paths. ValidateTrack and ReadPlugin
// read only the images' headers, because the registry validates every user plugin whenever a
// simulation starts and a 1024-pixel image takes tens of milliseconds to decode; `plugin
// validate`, `export` and `install` run this too, so that a broken image is found when the
// plugin is made, not when a camera first draws it. Images whose header is already wrong are
// left to ValidateTrack.
func CheckMaterialPixels(p *Plugin) Problems {
	var ps Problems
	var ms []Material
	switch {
	case p == nil:
	case p.Track != nil:
		ms = p.Track.Materials
	case p.Vehicle != nil:
		ms = p.Vehicle.Materials
	}
	for i, m := range ms {
		for k, b := range m.Images {
			if k >= len(m.Textures) || b == nil || MaterialPNGProblem(b) != "" {
				continue
			}
			path := index(index("descriptor.materials", i)+".textures", k)
			img, err := png.Decode(bytes.NewReader(b)) // bounded: the header was checked
			if err != nil {
				ps.add(path, "%s: pixel data: %v", m.Textures[k], err)
			} else if translucent(img) {
				ps.warn(path, "%s has transparent pixels: materials are opaque, so they show their colour channels as they are (often black)", m.Textures[k])
			}
		}
	}
	return ps
}

// MaterialPNGProblem returns what is wrong with a material image's size or header, or "" (see
// CheckMaterialPixels for its pixels).
func MaterialPNGProblem(b []byte) string {
	if len(b) > MaxMaterialPNGBytes {
		return fmt.Sprintf("%d bytes; at most %d KiB", len(b), MaxMaterialPNGBytes>>10)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return "not a PNG image: " + err.Error()
	}
	if cfg.Width != cfg.Height || cfg.Width < MinMaterialSide || cfg.Width > MaxMaterialSide {
		return fmt.Sprintf("%d×%d pixels; want a square of %d to %d pixels", cfg.Width, cfg.Height, MinMaterialSide, MaxMaterialSide)
	}
	return ""
}

// checkVisualMaterials checks a vehicle's own materials and the material names of its parts:
// their form, and that the vehicle or the renderer has them (a warning: the vehicle is drawn
// without its materials).
func (ps *Problems) checkVisualMaterials(v *VehicleDescriptor) {
	own := ps.checkOwnMaterials(v.Materials, "vehicle")
	if v.Visual == nil {
		return
	}
	for _, f := range []struct{ field, name string }{{"material", v.Visual.Material}, {"accentMaterial", v.Visual.AccentMaterial}} {
		if f.name != "" && !materialName.MatchString(f.name) {
			ps.add("descriptor.visual."+f.field, "%q: want 1 to 64 lower-case letters, digits or '_'", f.name)
		} else if f.name != "" && !own[f.name] && !builtinMaterial(f.name) {
			ps.warn("descriptor.visual."+f.field, "%q is neither a built-in material (%s) nor one of the vehicle's: the vehicle is drawn without its materials",
				f.name, strings.Join(BuiltinMaterials(), ", "))
		}
	}
}

// translucent reports whether an image has a pixel that is not fully opaque.
func translucent(img image.Image) bool {
	if o, ok := img.(interface{ Opaque() bool }); ok {
		return !o.Opaque()
	}
	return false
}
