package render

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// floorLight is the floor's baked light: per texel over a rectangle of the plane z = 0, how
// much sky light reaches it (contact shadow next to whatever stands on the floor) and how much
// sun (the static scene's shadows, filtered), each in 16 levels packed into a byte:
// ao<<4 | vis. Frames turn it into light through a 256-entry table, so a floor pixel costs one
// more lookup.
type floorLight struct {
	x0, y0, texel float64
	w, h          int
	idx           []uint8
}

// Contact shadow shape: ao = 1 − strength·exp(−d/contactRange) at distance d from the foot of
// a solid (on the floor) or height d above the floor (on a wall).
const contactRange = 0.045

func contactAO(strength, d float64) float64 { return 1 - strength*math.Exp(-d/contactRange) }

// Light map size: texels of at least minLightTexel metres, at most maxLightSide a side.
const (
	minLightTexel = 0.005
	maxLightSide  = 2048
)

// bakeFloorLight bakes the light of the rectangle x0..x1, y0..y1 of the floor in texels of
// texel metres (at least the rectangle's extent/maxLightSide): solids are the static meshes
// standing on the floor (their footprints give the contact shadow), sm the static shadow map
// (nil: no shadows).
func bakeFloorLight(x0, y0, x1, y1, texel float64, solids []*Mesh, sm *shadowMap, env *Environment, sunUp float64) *floorLight {
	fl := &floorLight{x0: x0, y0: y0, texel: texel}
	fl.w = max(1, min(maxLightSide, int(math.Ceil((x1-x0)/texel))))
	fl.h = max(1, min(maxLightSide, int(math.Ceil((y1-y0)/texel))))
	n := fl.w * fl.h
	fl.idx = make([]uint8, n)

	// Distance (texels) to the nearest footprint texel: footprints are 0, the rest start far.
	dist := make([]float32, n)
	for i := range dist {
		dist[i] = inf32
	}
	if env.ContactShadow > 0 {
		for _, m := range solids {
			for _, t := range m.tris {
				var q [3][3]float64
				for k, vi := range t.v {
					p := m.verts[vi]
					q[k] = [3]float64{(float64(p[0]) - x0) / texel, (float64(p[1]) - y0) / texel, 0}
				}
				drawLightTri(dist, fl.w, fl.h, q[0], q[1], q[2])
			}
		}
	}
	// Contact shadow by distance in quarter texels, up to where it has faded.
	var aoLUT []uint8
	if env.ContactShadow > 0 {
		for q := 0; ; q++ {
			ao := contactAO(env.ContactShadow, float64(q)/4*texel)
			aoLUT = append(aoLUT, uint8(math.Round(ao*15)))
			if aoLUT[q] == 15 {
				break
			}
		}
		chamfer(dist, fl.w, fl.h, float32(len(aoLUT))/4) // the table's reach
	}
	bias := 0.0
	if sm != nil {
		bias = slopeBias(sunUp, sm.texel)
	}
	// Shadow-map coordinates are linear in the texel indexes.
	var o, di, dj [3]float64
	if sm != nil && sunUp > 0 {
		o = sm.toTexels(mgl64.Vec3{x0 + 0.5*texel, y0 + 0.5*texel, 0})
		a := sm.toTexels(mgl64.Vec3{x0 + 1.5*texel, y0 + 0.5*texel, 0})
		b := sm.toTexels(mgl64.Vec3{x0 + 0.5*texel, y0 + 1.5*texel, 0})
		for c := range 3 {
			di[c], dj[c] = a[c]-o[c], b[c]-o[c]
		}
	}
	at := func(i, j int) [3]float64 {
		fi, fj := float64(i), float64(j)
		return [3]float64{o[0] + fi*di[0] + fj*dj[0], o[1] + fi*di[1] + fj*dj[1], o[2] + fi*di[2] + fj*dj[2]}
	}
	for j := range fl.h {
		for i0 := 0; i0 < fl.w; i0 += lightBlock {
			i1 := min(i0+lightBlock, fl.w)
			// The block's texels all lit or all in shadow (most of an open floor) need no
			// lookup each: what visibleAt reads of them, tiles of the map tell at once.
			verdict := runLit
			if sm != nil && sunUp > 0 {
				a, b := at(i0, j), at(i1-1, j)
				verdict = sm.tilesVerdict(math.Floor(min(a[0], b[0])-1.5), math.Floor(min(a[1], b[1])-1.5),
					math.Floor(max(a[0], b[0])-1.5)+3, math.Floor(max(a[1], b[1])-1.5)+3,
					down32(min(a[2], b[2])-bias), up32(max(a[2], b[2])-bias))
			}
			for i := i0; i < i1; i++ {
				k := j*fl.w + i
				ao := uint8(15)
				// Beyond the table (+Inf where nothing stands on the floor) the floor is fully lit.
				if q := dist[k] * 4; aoLUT != nil && q >= 0 && q < float32(len(aoLUT)) {
					ao = aoLUT[int(q)]
				}
				vis := uint8(15)
				switch verdict {
				case runDark:
					vis = 0
				case runMixed:
					vis = uint8(math.Round(sm.visibleAt(at(i, j), bias) * 15))
				}
				fl.idx[k] = ao<<4 | vis
			}
		}
	}
	return fl
}

// lightBlock is how many texels of a light-map row share one look at the shadow map's tiles.
const lightBlock = 8

// down32 and up32 round x to a float32 no greater and no less than it: a range so widened
// keeps every depth visibleAt compares inside it.
func down32(x float64) float32 {
	f := float32(x)
	if float64(f) > x {
		f = math.Nextafter32(f, float32(math.Inf(-1)))
	}
	return f
}

func up32(x float64) float32 {
	f := float32(x)
	if float64(f) < x {
		f = math.Nextafter32(f, float32(math.Inf(1)))
	}
	return f
}

// chamfer turns d (0 on sources, +Inf elsewhere) into approximate Euclidean distances in
// texels with the two-pass 1, √2 chamfer transform (Borgefors 1986), exact (as the full
// transform gives them) where they are below reach; elsewhere they stay reach or more. Only
// blocks of chamferBlock² texels within reach of a source are visited: a shortest path of the
// transform to a texel within reach runs within reach of its source, also reordered as the two
// passes take it, and the contact shadow needs no more (a floor far from every wall is most
// of an arena's).
func chamfer(d []float32, w, h int, reach float32) {
	const a, b = 1, math.Sqrt2
	runs := chamferRuns(d, w, h, reach)
	for y := range h {
		row := d[y*w : (y+1)*w]
		var up []float32
		if y > 0 {
			up = d[(y-1)*w : y*w]
		}
		for _, r := range runs[y/chamferBlock] {
			for x := r[0]; x < r[1]; x++ {
				// The row before's terms first, the one just written last: a texel then
				// waits on its neighbour for one sum and one min, not four.
				v := row[x]
				if up != nil {
					v = min(v, up[x]+a)
					if x > 0 {
						v = min(v, up[x-1]+b)
					}
					if x < w-1 {
						v = min(v, up[x+1]+b)
					}
				}
				if x > 0 {
					v = min(v, row[x-1]+a)
				}
				row[x] = v
			}
		}
	}
	for y := h - 1; y >= 0; y-- {
		row := d[y*w : (y+1)*w]
		var down []float32
		if y < h-1 {
			down = d[(y+1)*w : (y+2)*w]
		}
		rs := runs[y/chamferBlock]
		for i := len(rs) - 1; i >= 0; i-- {
			for x := rs[i][1] - 1; x >= rs[i][0]; x-- {
				v := row[x]
				if down != nil {
					v = min(v, down[x]+a)
					if x < w-1 {
						v = min(v, down[x+1]+b)
					}
					if x > 0 {
						v = min(v, down[x-1]+b)
					}
				}
				if x < w-1 {
					v = min(v, row[x+1]+a)
				}
				row[x] = v
			}
		}
	}
}

// chamferBlock is the side of the blocks chamfer visits or skips, in texels.
const chamferBlock = 16

// chamferRuns returns, per row of blocks, the runs of columns [x0, x1) chamfer visits: the
// blocks within reach of a block holding a source (a distance below reach moves fewer than
// reach texels along each axis).
func chamferRuns(d []float32, w, h int, reach float32) [][][2]int {
	const B = chamferBlock
	bw, bh := (w+B-1)/B, (h+B-1)/B
	src := make([]bool, bw*bh)
	for y := range h {
		for x, v := range d[y*w : (y+1)*w] {
			if v == 0 {
				src[y/B*bw+x/B] = true
			}
		}
	}
	k := int(min(reach, float32(max(w, h))))/B + 1 // blocks a distance below reach can cross
	// Dilate by k blocks: along rows, then along columns.
	across := make([]bool, bw*bh)
	for by := range bh {
		for bx := range bw {
			for j := max(0, bx-k); j <= min(bw-1, bx+k) && !across[by*bw+bx]; j++ {
				across[by*bw+bx] = src[by*bw+j]
			}
		}
	}
	runs := make([][][2]int, bh)
	for by := range bh {
		var rs [][2]int
		for bx := range bw {
			on := false
			for j := max(0, by-k); j <= min(bh-1, by+k) && !on; j++ {
				on = across[j*bw+bx]
			}
			if !on {
				continue
			}
			x0, x1 := bx*B, min(w, (bx+1)*B)
			if n := len(rs); n > 0 && rs[n-1][1] == x0 {
				rs[n-1][1] = x1
			} else {
				rs = append(rs, [2]int{x0, x1})
			}
		}
		runs[by] = rs
	}
	return runs
}

// at returns the packed light of floor point (x, y); outside the map the floor is fully lit.
func (fl *floorLight) at(x, y float64) uint8 {
	i, j := int(math.Floor((x-fl.x0)/fl.texel)), int(math.Floor((y-fl.y0)/fl.texel))
	if i < 0 || j < 0 || i >= fl.w || j >= fl.h {
		return 0xff
	}
	return fl.idx[j*fl.w+i]
}

// blend returns the light at light-map coordinates (u, v) in texels with 16 fractional bits,
// interpolated bilinearly between the four nearest texels' sky and sun levels (where a texel
// spans several pixels, nearest sampling would show its edges as steps).
func (fl *floorLight) blend(u, v int64) uint8 {
	u, v = u-1<<15, v-1<<15 // texel centres
	i, j := int(u>>16), int(v>>16)
	fx, fy := int32(u>>8)&255, int32(v>>8)&255
	i0, i1 := max(0, min(fl.w-1, i)), max(0, min(fl.w-1, i+1))
	j0, j1 := max(0, min(fl.h-1, j)), max(0, min(fl.h-1, j+1))
	r0, r1 := fl.idx[j0*fl.w:j0*fl.w+fl.w], fl.idx[j1*fl.w:j1*fl.w+fl.w]
	c00, c10, c01, c11 := int32(r0[i0]), int32(r0[i1]), int32(r1[i0]), int32(r1[i1])
	// Both 4-bit levels at once: sky in bits 16.., sun in bits 0.., weights in 1/256.
	sp := func(c int32) int32 { return (c>>4)<<16 | c&15 }
	top := sp(c00)*(256-fx) + sp(c10)*fx
	bot := sp(c01)*(256-fx) + sp(c11)*fx
	// Each level times 65536 fits 20 bits, so the halves do not mix.
	ao := ((top>>16)*(256-fy) + (bot>>16)*fy + 1<<15) >> 16
	vis := ((top&0xffff)*(256-fy) + (bot&0xffff)*fy + 1<<15) >> 16
	return uint8(ao<<4 | vis)
}
