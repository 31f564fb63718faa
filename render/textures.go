package render

import "math"

// The built-in floor textures. Each is generated procedurally from a fixed seed (the variant
// shifts it), so a texture name, variant and base colour always give the same texels.
func init() {
	RegisterMaterial("plywood", RGB{214, 182, 136}, 3, plywood)
	RegisterMaterial("carpet", RGB{92, 102, 118}, 3, carpet)
	RegisterMaterial("tile", RGB{222, 220, 210}, 3, tile)
	RegisterTexture("checker", RGB{200, 200, 200}, checker)
	RegisterMaterial("grass", RGB{96, 140, 70}, 3, grass)
	RegisterMaterial("asphalt", RGB{78, 80, 84}, 3, asphalt)
}

// variantSeed shifts a texture's noise seeds for variant v (0 keeps them).
func variantSeed(seed uint32, v int) uint32 { return seed + uint32(v)*7919 }

// grass is blades of fine noise over broad patches of lighter and darker growth, every 2 m.
func grass(base RGB, variant int) (*Texture, error) {
	const period, size = 2.0, 256
	return NewTexture(size, period, func(u, v float64) RGB {
		i, j := int(u/period*size), int(v/period*size)
		blade := hash2(i, j, variantSeed(41, variant))
		patch := fbm(u/period, v/period, 3, 3, 3, variantSeed(42, variant))
		c := base.Scale(0.78 + 0.18*blade + 0.22*patch)
		// Dry patches lean yellow.
		return c.Lerp(RGB{150, 150, 80}, 0.25*math.Max(0, patch-0.55))
	})
}

// asphalt is a dark speckled surface with faint aggregate, every 1 m.
func asphalt(base RGB, variant int) (*Texture, error) {
	const period, size = 1.0, 256
	return NewTexture(size, period, func(u, v float64) RGB {
		i, j := int(u/period*size), int(v/period*size)
		speck := hash2(i, j, variantSeed(51, variant))
		wear := fbm(u/period, v/period, 4, 4, 2, variantSeed(52, variant))
		return base.Scale(0.85 + 0.15*speck + 0.08*wear)
	})
}

// plywood is a pale sheet with long grain along x and a dark seam every 1.2 m (a sheet's width).
func plywood(base RGB, variant int) (*Texture, error) {
	const period = 1.2
	return NewTexture(256, period, func(u, v float64) RGB {
		x, y := u/period, v/period
		grain := fbm(x, y, 3, 64, 3, variantSeed(11, variant))
		figure := math.Sin(2 * math.Pi * (y*14 + 1.8*fbm(x, y, 2, 4, 2, variantSeed(12, variant))))
		k := 0.86 + 0.16*grain + 0.04*figure
		if u < 0.005 || v < 0.005 {
			k *= 0.72 // the joint between sheets
		}
		return base.Scale(k)
	})
}

// carpet is a fine, fuzzy noise over a slow mottle, repeating every 0.5 m.
func carpet(base RGB, variant int) (*Texture, error) {
	const period, size = 0.5, 128
	return NewTexture(size, period, func(u, v float64) RGB {
		i, j := int(u/period*size), int(v/period*size)
		fuzz := hash2(i, j, variantSeed(21, variant))
		mottle := fbm(u/period, v/period, 4, 4, 2, variantSeed(22, variant))
		return base.Scale(0.80 + 0.22*fuzz + 0.14*mottle)
	})
}

// tile is 0.30 m square tiles with 6 mm grout, each tile a slightly different shade.
func tile(base RGB, variant int) (*Texture, error) {
	const period, side, grout = 0.6, 0.3, 0.006
	return NewTexture(128, period, func(u, v float64) RGB {
		tu, tv := math.Mod(u, side), math.Mod(v, side)
		if tu < grout || tv < grout {
			return base.Scale(0.62)
		}
		shade := hash2(int(u/side), int(v/side), variantSeed(31, variant))
		speck := fbm(u/period, v/period, 16, 16, 2, variantSeed(32, variant))
		return base.Scale(0.90 + 0.08*shade + 0.05*speck)
	})
}

// checker is 0.5 m squares of the base colour and a darker shade: a clear motion cue.
func checker(base RGB) (*Texture, error) {
	return NewTexture(2, 1.0, func(u, v float64) RGB {
		if (u < 0.5) != (v < 0.5) {
			return base.Scale(0.55)
		}
		return base
	})
}

// hash2 maps integer lattice coordinates and a seed to [0, 1), with good avalanche.
func hash2(x, y int, seed uint32) float64 {
	h := uint32(x)*0x8da6b343 ^ uint32(y)*0xd8163841 ^ seed*0xcb1ab31f
	h ^= h >> 16
	h *= 0x7feb352d
	h ^= h >> 15
	h *= 0x846ca68b
	h ^= h >> 16
	return float64(h>>8) / (1 << 24)
}

// valueNoise is smooth noise in [0, 1] at (x, y) in [0, 1)², on a lattice of cx × cy cells,
// periodic with period 1 in both coordinates so that textures tile seamlessly.
func valueNoise(x, y float64, cx, cy int, seed uint32) float64 {
	fx, fy := x*float64(cx), y*float64(cy)
	x0, y0 := math.Floor(fx), math.Floor(fy)
	tx, ty := fx-x0, fy-y0
	tx, ty = tx*tx*(3-2*tx), ty*ty*(3-2*ty)
	i0, j0 := mod(int(x0), cx), mod(int(y0), cy)
	i1, j1 := (i0+1)%cx, (j0+1)%cy
	a := hash2(i0, j0, seed) + (hash2(i1, j0, seed)-hash2(i0, j0, seed))*tx
	b := hash2(i0, j1, seed) + (hash2(i1, j1, seed)-hash2(i0, j1, seed))*tx
	return a + (b-a)*ty
}

// fbm sums octaves of valueNoise, each with twice the lattice and half the weight, scaled to
// about [0, 1].
func fbm(x, y float64, cx, cy, octaves int, seed uint32) float64 {
	sum, w, norm := 0.0, 1.0, 0.0
	for o := range octaves {
		sum += w * valueNoise(x, y, cx<<o, cy<<o, seed+uint32(o))
		norm += w
		w /= 2
	}
	return sum / norm
}

func mod(a, n int) int {
	a %= n
	if a < 0 {
		a += n
	}
	return a
}
