package render

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"math"
	"math/bits"
	"slices"
	"sync"

	"golang.org/x/image/draw"

	"simgui/plugins"
)

// textureCache keeps built textures by key, bounded by count and bytes: when a texture would
// pass either, it starts afresh (the textures in use stay alive with their scenes). Textures
// are immutable, so sharing them is safe.
type textureCache[K comparable] struct {
	sync.Mutex
	m                  map[K]*Texture
	bytes              int
	maxCount, maxBytes int
}

// get returns the texture of k, building it on a miss (outside the lock: two callers may
// build the same one, and the last is kept).
func (c *textureCache[K]) get(k K, build func() (*Texture, error)) (*Texture, error) {
	c.Lock()
	t := c.m[k]
	c.Unlock()
	if t != nil {
		return t, nil
	}
	t, err := build()
	if err != nil {
		return nil, err
	}
	c.Lock()
	defer c.Unlock()
	if c.m == nil || len(c.m) >= c.maxCount || c.bytes+t.bytes() > c.maxBytes {
		c.m, c.bytes = map[K]*Texture{}, 0
	}
	if old := c.m[k]; old != nil {
		c.bytes -= old.bytes()
	}
	c.bytes += t.bytes()
	c.m[k] = t
	return t, nil
}

// texCache keeps built material textures: generating one takes milliseconds and every reset
// of a randomized scene asks for the same few. A plugin's 1024² images take about 9 MB each
// with their levels: by count alone, 128 held over a gigabyte.
var texCache = textureCache[texKey]{maxCount: 128, maxBytes: 192 << 20}

type texKey struct {
	name, color string
	variant     int
	png         *byte // first byte of a plugin image, for track materials
}

func cachedTexture(k texKey, build func() (*Texture, error)) (*Texture, error) {
	return texCache.get(k, build)
}

// CheckMaterial reports whether material name loads for layout l (nil: the registered ones
// only): each of its textures, a layout's own decoded from its images. A Static is made of
// textures that load, so a caller can leave out only the materials that do not.
func CheckMaterial(l *plugins.Layout, name string) error {
	for v, n := 0, 1; v < n; v++ {
		_, count, err := materialTexture(l, name, "", v)
		if err != nil {
			return err
		}
		n = count
	}
	return nil
}

// StaticLeavingOut builds l's Static with build (NewStatic or SharedStatic in an environment).
// A floor texture or element material that does not load should not blind a camera or a
// preview: when build fails, the Static is built again with those left out
// (WithoutBrokenMaterials), and failing that without any material. It returns the Static, what
// it left out (nil when nothing) and build's error on l, which says why; a nil Static when even
// the plain layout does not build.
func StaticLeavingOut(l *plugins.Layout, build func(*plugins.Layout) (*Static, error)) (*Static, []string, error) {
	s, err := build(l)
	if err == nil {
		return s, nil, nil
	}
	if part, left := WithoutBrokenMaterials(l); len(left) > 0 {
		if s, err2 := build(part); err2 == nil {
			return s, left, err
		}
	}
	if s, err2 := build(l.WithoutMaterials()); err2 == nil {
		return s, []string{"every material and the floor texture"}, err
	}
	return nil, nil, err
}

// WithoutBrokenMaterials returns l with the materials that do not load left out (elements
// naming one take their kind's default material, a floor its plain colour) and what it left
// out, as "material x" and "floor texture y".
func WithoutBrokenMaterials(l *plugins.Layout) (*plugins.Layout, []string) {
	part := *l
	part.Elements = slices.Clone(l.Elements)
	var dropped []string
	broken := map[string]bool{}
	for i := range part.Elements {
		name := part.Elements[i].Material
		if name == "" {
			continue
		}
		bad, seen := broken[name]
		if !seen {
			bad = CheckMaterial(l, name) != nil
			broken[name] = bad
			if bad {
				dropped = append(dropped, "material "+name)
			}
		}
		if bad {
			part.Elements[i].Material = ""
		}
	}
	if name := part.Floor.Texture; name != "" && CheckMaterial(l, name) != nil {
		part.Floor.Texture = ""
		dropped = append(dropped, "floor texture "+name)
	}
	return &part, dropped
}

// materialTexture returns texture variant of material name tinted from color, and how many
// textures the material has: a layout's own material first (its PNG images, drawn as they are),
// then a registered one.
func materialTexture(l *plugins.Layout, name, color string, variant int) (*Texture, int, error) {
	if l != nil {
		for i := range l.Materials {
			m := &l.Materials[i]
			if m.Name != name || len(m.Images) == 0 {
				continue
			}
			v := mod(variant, len(m.Images))
			img := m.Images[v]
			if len(img) == 0 {
				return nil, 0, fmt.Errorf("material %s: texture %d has no image", name, v)
			}
			t, err := cachedTexture(texKey{name: name, variant: v, png: &img[0]}, func() (*Texture, error) {
				return DecodePNGTexture(img, m.SizeM)
			})
			if err != nil {
				return nil, 0, fmt.Errorf("material %s: %w", name, err)
			}
			return t, len(m.Images), nil
		}
	}
	n := MaterialVariants(name)
	if n == 0 {
		_, err := NewMaterialTexture(name, color, 0) // for its error message
		return nil, 0, err
	}
	v := mod(variant, n)
	t, err := cachedTexture(texKey{name: name, color: color, variant: v}, func() (*Texture, error) {
		return NewMaterialTexture(name, color, v)
	})
	return t, n, err
}

// DecodePNGTexture makes a texture from a material's PNG image (square, of
// plugins.MinMaterialSide to MaxMaterialSide pixels, at most plugins.MaxMaterialPNGBytes)
// covering sizeM metres. Images whose side is not a power of two are resampled (Catmull-Rom)
// to the power of two below.
func DecodePNGTexture(b []byte, sizeM float64) (*Texture, error) {
	if len(b) > plugins.MaxMaterialPNGBytes {
		return nil, fmt.Errorf("PNG of %d bytes: at most %d", len(b), plugins.MaxMaterialPNGBytes)
	}
	if !(sizeM > 0) || math.IsInf(sizeM, 0) {
		return nil, fmt.Errorf("texture size %g m: want a positive number", sizeM)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("not a PNG: %w", err)
	}
	side := cfg.Width
	if cfg.Width != cfg.Height || side < plugins.MinMaterialSide || side > plugins.MaxMaterialSide {
		return nil, fmt.Errorf("PNG of %d×%d pixels: want a square of %d to %d", cfg.Width, cfg.Height,
			plugins.MinMaterialSide, plugins.MaxMaterialSide)
	}
	img, err := png.Decode(bytes.NewReader(b)) // the header was checked, so this allocation is bounded
	if err != nil {
		return nil, fmt.Errorf("not a PNG: %w", err)
	}
	n := 1 << (bits.Len(uint(side)) - 1)
	dst := image.NewNRGBA(image.Rect(0, 0, n, n))
	if n == side {
		draw.Draw(dst, dst.Bounds(), img, img.Bounds().Min, draw.Src)
	} else {
		draw.CatmullRom.Scale(dst, dst.Bounds(), img, img.Bounds(), draw.Src, nil)
	}
	step := sizeM / float64(n)
	return NewTexture(n, sizeM, func(u, v float64) RGB {
		// Image rows run top down; texture v runs up (on a wall) or north (on a floor).
		i, j := int(u/step), n-1-int(v/step)
		o := dst.PixOffset(i, j)
		return RGB{dst.Pix[o], dst.Pix[o+1], dst.Pix[o+2]}
	})
}
