package render

import (
	"fmt"
	"maps"
	"math"
	"math/bits"
	"slices"
	"strings"
	"sync"

	"simgui/plugins"
)

// Texture is a square, tiling floor texture with a mipmap pyramid. Floors sample it nearest-texel
// from the level whose texel size matches a pixel's footprint on the floor, so distant floor
// does not shimmer. Immutable once built.
type Texture struct {
	period float64 // metres covered by one repeat
	levels []texLevel
}

// bytes returns the memory the texture's texels take.
func (t *Texture) bytes() int {
	n := 0
	for _, lv := range t.levels {
		n += len(lv.texels)*3 + len(lv.packed)*4
	}
	return n
}

type texLevel struct {
	shift  uint // log2 of the side in texels
	texels []RGB
	packed []uint32 // texels as packRGB words, for the flat look's floor
}

// pack fills lv.packed from lv.texels.
func (lv *texLevel) pack() {
	lv.packed = make([]uint32, len(lv.texels))
	for i, c := range lv.texels {
		lv.packed[i] = packRGB(c)
	}
}

// MaxTextureSide is the largest texture side in texels (a texture that size already holds a
// billion texels).
const MaxTextureSide = 1 << 15

// NewTexture builds a texture of size×size texels (size a power of two, 1..MaxTextureSide) repeating
// every period metres; texel(u, v) gives the colour at (u, v) metres, 0 <= u, v < period, and is
// called at texel centres.
func NewTexture(size int, period float64, texel func(u, v float64) RGB) (*Texture, error) {
	if size < 1 || size > MaxTextureSide || size&(size-1) != 0 {
		return nil, fmt.Errorf("texture size %d: want a power of two up to %d", size, MaxTextureSide)
	}
	if !(period > 0) {
		return nil, fmt.Errorf("texture period %g m: want > 0", period)
	}
	t := &Texture{period: period}
	lv := texLevel{shift: uint(bits.TrailingZeros(uint(size))), texels: make([]RGB, size*size)}
	step := period / float64(size)
	for j := range size {
		for i := range size {
			lv.texels[j*size+i] = texel((float64(i)+0.5)*step, (float64(j)+0.5)*step)
		}
	}
	lv.pack()
	t.levels = append(t.levels, lv)
	for size > 1 {
		prev := lv
		size /= 2
		lv = texLevel{shift: prev.shift - 1, texels: make([]RGB, size*size)}
		ps := size * 2
		for j := range size {
			for i := range size {
				var r, g, b int
				for _, o := range [4]int{0, 1, ps, ps + 1} {
					c := prev.texels[2*j*ps+2*i+o]
					r, g, b = r+int(c.R), g+int(c.G), b+int(c.B)
				}
				lv.texels[j*size+i] = RGB{uint8((r + 2) / 4), uint8((g + 2) / 4), uint8((b + 2) / 4)}
			}
		}
		lv.pack()
		t.levels = append(t.levels, lv)
	}
	return t, nil
}

// Size is the side of the texture in texels (level 0).
func (t *Texture) Size() int { return 1 << t.levels[0].shift }

// Period is the repeat length in metres.
func (t *Texture) Period() float64 { return t.period }

// At returns the level-0 texel covering (u, v) metres (any real values; the texture repeats).
func (t *Texture) At(u, v float64) RGB {
	n := t.Size()
	i := int(math.Floor(u/t.period*float64(n))) & (n - 1)
	j := int(math.Floor(v/t.period*float64(n))) & (n - 1)
	return t.levels[0].texels[j*n+i]
}

// shaded returns a copy of t with every texel scaled by k (baked lighting).
func (t *Texture) shaded(k float64) *Texture {
	s := &Texture{period: t.period, levels: make([]texLevel, len(t.levels))}
	for i, lv := range t.levels {
		tx := make([]RGB, len(lv.texels))
		for j, c := range lv.texels {
			tx[j] = c.Scale(k)
		}
		s.levels[i] = texLevel{shift: lv.shift, texels: tx}
		s.levels[i].pack()
	}
	return s
}

// TextureFunc makes a texture tinted from a base colour.
type TextureFunc func(base RGB) (*Texture, error)

// VariantFunc makes texture number variant (0 <= variant < the material's count) of a
// material's set, tinted from a base colour.
type VariantFunc func(base RGB, variant int) (*Texture, error)

type textureKind struct {
	base     RGB
	variants int
	fn       VariantFunc
}

var (
	texMu    sync.Mutex
	texKinds = map[string]textureKind{}
)

// RegisterTexture makes a floor texture available by name (plugins.Floor.Texture) as a
// material with one texture; base is the colour used when the floor gives none. Call it from
// init; it panics on an empty or duplicate name or a nil fn.
func RegisterTexture(name string, base RGB, fn TextureFunc) {
	if fn == nil {
		panic("render: RegisterTexture needs a name and a func")
	}
	RegisterMaterial(name, base, 1, func(b RGB, _ int) (*Texture, error) { return fn(b) })
}

// RegisterMaterial makes a material available by name (plugins.Element.Material,
// plugins.Visual.Material, plugins.Floor.Texture): a set of variants textures, each made by
// fn, tinted from base when the element gives no colour. Domain randomization picks among the
// variants (Environment.TextureSwap); variant 0 is the one used otherwise. Call it from init;
// it panics on an empty or duplicate name, a nil fn or fewer than one variant.
func RegisterMaterial(name string, base RGB, variants int, fn VariantFunc) {
	if name == "" || fn == nil || variants < 1 {
		panic("render: RegisterMaterial needs a name, a func and at least one variant")
	}
	texMu.Lock()
	defer texMu.Unlock()
	if _, dup := texKinds[name]; dup {
		panic("render: duplicate texture " + name)
	}
	texKinds[name] = textureKind{base: base, variants: variants, fn: fn}
}

// The plugin checks warn of a material name the renderer does not know.
func init() { plugins.BuiltinMaterials = TextureNames }

// materialBase returns the colour material name is made in when given none (black if it is
// unknown).
func materialBase(name string) RGB {
	texMu.Lock()
	defer texMu.Unlock()
	return texKinds[name].base
}

// TextureNames lists the registered materials (floor textures included), sorted.
func TextureNames() []string {
	texMu.Lock()
	defer texMu.Unlock()
	return slices.Sorted(maps.Keys(texKinds))
}

// MaterialVariants returns how many textures the material name has, 0 if it is unknown.
func MaterialVariants(name string) int {
	texMu.Lock()
	defer texMu.Unlock()
	return texKinds[name].variants
}

// NewNamedTexture builds the registered texture name, tinted from color ("#rrggbb", or "" for
// the texture's own default).
func NewNamedTexture(name, color string) (*Texture, error) {
	return NewMaterialTexture(name, color, 0)
}

// NewMaterialTexture builds texture variant (taken modulo the material's count) of the
// registered material name, tinted from color ("#rrggbb", or "" for the material's default).
func NewMaterialTexture(name, color string, variant int) (*Texture, error) {
	texMu.Lock()
	k, ok := texKinds[name]
	texMu.Unlock()
	if !ok {
		return nil, fmt.Errorf("unknown material %q (known: %s)", name, strings.Join(TextureNames(), ", "))
	}
	base, err := colorOr(color, k.base)
	if err != nil {
		return nil, fmt.Errorf("texture %s: %w", name, err)
	}
	t, err := k.fn(base, mod(variant, k.variants))
	if err != nil {
		return nil, fmt.Errorf("texture %s: %w", name, err)
	}
	return t, nil
}
