package render

import (
	"math"
)

// The built-in wall and object materials, generated procedurally like the floor textures (so
// they are part of the binary, and a name, variant and colour always give the same texels).
// Each is a set of variants that domain randomization picks from. Periods are the real sizes
// of what repeats, so that a texture mapped in metres has the right scale on any element.
func init() {
	RegisterMaterial("cardboard", colorCardboard, 4, cardboard)
	RegisterMaterial("painted_wood", RGB{208, 200, 184}, 3, paintedWood)
	RegisterMaterial("concrete", RGB{150, 150, 146}, 3, concrete)
	RegisterMaterial("brick", RGB{150, 70, 50}, 3, brick)
	RegisterMaterial("tape", RGB{232, 196, 40}, 2, tape)
}

// Material names the renderer's realistic look gives elements that name none.
var defaultMaterial = map[string]string{
	"wall": "cardboard", "box": "cardboard", "cylinder": "painted_wood", "polygon": "concrete", "road": "asphalt",
}

// cardboard is kraft liner: fine fibres over a slow mottle and faint ridges of the flutes
// inside every 8 mm, repeating every 0.5 m. Variant 1 has a strip of packing tape across it,
// 2 scuffs and stains, 3 printed marks and a fold.
func cardboard(base RGB, variant int) (*Texture, error) {
	const period, size = 0.5, 256
	s := func(x uint32) uint32 { return variantSeed(x, variant) }
	tapeLo := 0.06 + 0.1*hash2(variant, 1, 71)
	return NewTexture(size, period, func(u, v float64) RGB {
		i, j := int(u/period*size), int(v/period*size)
		fibre := hash2(i, j, s(61))
		mottle := fbm(u/period, v/period, 3, 3, 3, s(62))
		flute := math.Sin(2 * math.Pi * v / 0.008)
		k := 0.84 + 0.10*fibre + 0.16*mottle + 0.025*flute
		c := base.Scale(k)
		switch variant {
		case 1: // brown tape, glossier and darker, 48 mm wide
			if v > tapeLo && v < tapeLo+0.048 {
				c = base.Scale(0.78+0.06*fibre).Lerp(RGB{150, 110, 60}, 0.35)
			}
		case 2: // scuffs and water stains
			stain := fbm(u/period, v/period, 4, 4, 3, s(63))
			if stain > 0.62 {
				c = c.Scale(1 - 1.6*(stain-0.62))
			}
		case 3: // printed marks and a fold
			if math.Abs(u-0.31) < 0.002 {
				c = c.Scale(0.8)
			}
			bi, bj := int(u/0.06), int(v/0.02)
			if hash2(bi, bj, s(64)) > 0.82 && math.Mod(u, 0.06) > 0.008 && math.Mod(v, 0.02) > 0.006 {
				c = c.Lerp(RGB{40, 36, 34}, 0.75)
			}
		}
		return c
	})
}

// paintedWood is boards 0.12 m wide (along v) painted in the base colour, the grain showing
// through and dark gaps between boards, repeating every 0.48 m. Variant 1 has chipped paint
// showing the wood, 2 narrower boards.
func paintedWood(base RGB, variant int) (*Texture, error) {
	const period, size = 0.48, 256
	board := 0.12
	if variant == 2 {
		board = 0.08
	}
	s := func(x uint32) uint32 { return variantSeed(x, variant) }
	return NewTexture(size, period, func(u, v float64) RGB {
		x, y := u/period, v/period
		grain := fbm(x, y, 2, 48, 3, s(81))
		brush := fbm(x, y, 24, 2, 2, s(82))
		k := 0.9 + 0.06*grain + 0.05*brush
		c := base.Scale(k)
		if variant == 1 {
			if chip := fbm(x, y, 6, 6, 3, s(83)); chip > 0.66 {
				c = RGB{150, 112, 72}.Scale(0.8 + 0.3*grain)
			}
		}
		if math.Mod(v, board) < 0.003 {
			c = c.Scale(0.55)
		}
		return c
	})
}

// concrete is grey cement with a slow mottle, fine aggregate and small dark pores, repeating
// every 1 m.
func concrete(base RGB, variant int) (*Texture, error) {
	const period, size = 1.0, 256
	s := func(x uint32) uint32 { return variantSeed(x, variant) }
	return NewTexture(size, period, func(u, v float64) RGB {
		i, j := int(u/period*size), int(v/period*size)
		mottle := fbm(u/period, v/period, 4, 4, 4, s(91))
		grit := hash2(i, j, s(92))
		k := 0.8 + 0.22*mottle + 0.1*grit
		if hash2(i/2, j/2, s(93)) > 0.985 {
			k *= 0.55 // a pore
		}
		return base.Scale(k)
	})
}

// brick is a running bond of 215 × 65 mm bricks with 10 mm mortar (a course is 75 mm, a brick
// and joint 225 mm), each brick its own shade; it repeats every 0.9 m along, 0.3 m up.
func brick(base RGB, variant int) (*Texture, error) {
	const period, size = 0.9, 512
	const length, course, joint = 0.225, 0.075, 0.01
	s := func(x uint32) uint32 { return variantSeed(x, variant) }
	mortar := RGB{178, 172, 160}
	return NewTexture(size, period, func(u, v float64) RGB {
		row := int(math.Floor(v / course))
		off := 0.0
		if row%2 != 0 {
			off = length / 2
		}
		uu := math.Mod(u+off, period)
		col := int(math.Floor(uu / length))
		ju, jv := math.Mod(uu, length), math.Mod(v, course)
		i, j := int(u/period*size), int(v/period*size)
		speck := hash2(i, j, s(101))
		if ju < joint || jv < joint {
			return mortar.Scale(0.9 + 0.1*speck)
		}
		shade := hash2(col, mod(row, 4), s(102))
		return base.Scale(0.78+0.3*shade+0.08*speck).Lerp(RGB{90, 50, 40}, 0.15*hash2(col, row, s(103)))
	})
}

// tape is vinyl floor-marking tape: the base colour with a faint sheen and wrinkles, every 0.25 m.
func tape(base RGB, variant int) (*Texture, error) {
	const period, size = 0.25, 64
	s := func(x uint32) uint32 { return variantSeed(x, variant) }
	return NewTexture(size, period, func(u, v float64) RGB {
		sheen := fbm(u/period, v/period, 2, 8, 2, s(111))
		return base.Scale(0.92 + 0.1*sheen)
	})
}
