package render

import (
	"math"
	"math/bits"

	"github.com/go-gl/mathgl/mgl64"
)

// backgroundRowReal is backgroundRow for the realistic pipeline: the plane z = 0 (floor with
// its texture, baked light and the moving casters' shadows; the plain ground beyond) and the
// sky, in linear light. The ray through column x of the row is d(x) = rd + x·dx; where it goes
// down, it meets the plane at planar depth t = z/−d_z, so 1/t is linear along the row even for
// a rolled camera, while the hit point is linear only without roll (then one chunk covers the
// row; with roll, chunks of chunkPx pixels are exact at their ends).
func (fs *frameState) backgroundRowReal(y int) {
	bg := &fs.background
	rf := &fs.real
	w := fs.w
	o := y * w
	zr := fs.z[o : o+w]
	px := rf.lin[o : o+w]
	rd := bg.base.Add(bg.dy.Mul(float64(y)))
	// Columns [xa, xb) see the plane within near..far: 1/t(x) = (−rd_z − x·dx_z)/z.
	xa, xb := 0, 0
	if bg.above {
		h := bg.cam[2]
		a, b := -rd[2]/h, -bg.dx[2]/h // 1/t = a + b·x
		lo, hi := linearRange(a-1/bg.far, b, 1/bg.near-1/bg.far, 0, float64(w))
		if lo < hi {
			// Column x is sampled at x (base is pixel 0's centre); the columns that meet the
			// plane are contiguous, so take a little more and trim by the exact test.
			xa, xb = max(0, int(math.Floor(lo))), min(w, int(math.Ceil(hi))+1)
			for xa < xb && !fs.floorHit(rd, xa) {
				xa++
			}
			for xb > xa && !fs.floorHit(rd, xb-1) {
				xb--
			}
		}
	}
	cv := fs.cover[y]
	fs.skySpan(rd, zr[:xa], px[:xa], 0, cv)
	if xa < xb {
		var shade []uint16 // nil: no caster's shadow on the floor
		if len(rf.shadePolys) > 0 {
			shade = rf.shade[o+xa : o+xb]
		}
		fs.floorSpanReal(rd, y, xa, xb, zr[xa:xb], px[xa:xb], shade)
	}
	fs.skySpan(rd, zr[xb:], px[xb:], xb, cv)
}

// floorHit reports whether column x's ray meets the plane within near..far.
func (fs *frameState) floorHit(rd mgl64.Vec3, x int) bool {
	bg := &fs.background
	dz := rd[2] + float64(x)*bg.dx[2]
	if dz >= 0 {
		return false
	}
	t := bg.cam[2] / -dz
	return t >= bg.near && t <= bg.far
}

// skySpan paints the sky where nothing is drawn on columns x0.. of a row (cv: the columns
// triangles reached) and converts depths.
func (fs *frameState) skySpan(rd mgl64.Vec3, zr []float32, px []uint64, x0 int, cv rowCover) {
	if len(zr) == 0 {
		// A row all floor leaves both sides empty: looking up its sky colour anyway (a
		// square root and a division, twice a row) took a fifth of the background's time
		// at 84×84.
		return
	}
	bg := &fs.background
	sky := &fs.real.lt.sky
	px = px[:len(zr)]
	if fs.depth {
		defer toMetres(zr)
	}
	if !bg.rollFree {
		for i, z := range zr {
			if z == 0 {
				px[i] = sky[bg.skyIndex(rd.Add(bg.dx.Mul(float64(x0+i))))]
			}
		}
		return
	}
	// Without roll the row has one sky colour.
	c := sky[bg.skyIndex(rd.Add(bg.dx.Mul(float64(fs.w)/2)))]
	lo, hi := cv.within(x0, x0+len(zr))
	for i := range px[:lo] {
		px[i] = c
	}
	for i := lo; i < hi; i++ {
		if zr[i] == 0 {
			px[i] = c
		}
	}
	for i := range px[hi:] {
		px[hi+i] = c
	}
}

// toMetres turns a row's 1/depth into metres, +Inf where nothing is drawn.
func toMetres(zr []float32) {
	for i, z := range zr {
		zr[i] = metres(z)
	}
}

// skyIndex is skyAt's table index.
func (bg *background) skyIndex(d mgl64.Vec3) int {
	e := d[2] / d.Len()
	i := int((e + 1) * 0.5 * (skyLUTSize - 1))
	return max(0, min(skyLUTSize-1, i))
}

// floorOne is a floor walk's metre: positions carry floorFrac fractional bits, so that the
// truncated step of a column drifts at most 15 µm over a row of 4096 pixels (with 16 bits it
// drifted up to a light-map texel over a 640-pixel row, and a shadow's straight edge came out
// as a saw). A position times a scale of 2^16 a texel stays below 2^63 up to 2^19 texels from
// the floor's corner, more than a light map has; a texture's index, masked, takes bits the
// product keeps even where it wraps.
const (
	floorFrac = 28
	floorOne  = 1 << floorFrac
)

// floorWalk is the plane seen along m columns of a row from column x, walked linearly: 1/t
// and the floor-local position (metres in floorOne units) at column x and their steps a
// column, the hit points at both ends, and the pixel's footprint in metres along the row (fh)
// and to the next row (fv, +Inf past the horizon).
type floorWalk struct {
	pa, pb        mgl64.Vec3
	invM, iz, dzi float64
	X, Y, dX, dY  int64
	fh, fv        float64
}

// floorWalk returns the walk of m columns of the row whose column-0 ray is rd, from column x.
// It is written out in scalars, the vector methods' operations in their order (so the same
// values): through mgl64's arrays its temporaries went by the stack, and it took a quarter of
// the floor's time at 84×84, where it runs once a row.
func (bg *background) floorWalk(rd mgl64.Vec3, x, m int) floorWalk {
	h, f := bg.cam[2], bg.floor
	cx, cy, cz := bg.cam[0], bg.cam[1], bg.cam[2]
	dx0, dx1, dx2 := bg.dx[0], bg.dx[1], bg.dx[2]
	hit := func(x float64) (p mgl64.Vec3, iz float64) { // hit point and 1/t of column x
		d0, d1, d2 := rd[0]+dx0*x, rd[1]+dx1*x, rd[2]+dx2*x
		iz = -d2 / h
		s := 1 / iz
		return mgl64.Vec3{cx + d0*s, cy + d1*s, cz + d2*s}, iz
	}
	var c floorWalk
	var izb float64
	c.pa, c.iz = hit(float64(x))
	c.pb, izb = hit(float64(x + m))
	c.invM = 1 / float64(m)
	c.dzi = (izb - c.iz) * c.invM
	c.X = int64((c.pa[0] - f.x0) * floorOne)
	c.Y = int64((c.pa[1] - f.y0) * floorOne)
	c.dX = int64((c.pb[0] - c.pa[0]) * c.invM * floorOne)
	c.dY = int64((c.pb[1] - c.pa[1]) * c.invM * floorOne)
	c.fh = math.Hypot(c.pb[0]-c.pa[0], c.pb[1]-c.pa[1]) * c.invM
	c.fv = math.Inf(1)
	xf := float64(x)
	if rn2 := rd[2] + bg.dy[2] + dx2*xf; rn2 < 0 {
		rn0, rn1 := rd[0]+bg.dy[0]+dx0*xf, rd[1]+bg.dy[1]+dx1*xf
		tn := h / -rn2
		c.fv = math.Hypot(cx+tn*rn0-c.pa[0], cy+tn*rn1-c.pa[1])
	}
	return c
}

// floorSpanReal draws the plane on columns [xa, xb) of a row where it is nearer than what is
// drawn, with the casters' shadows where shade (nil: none) says.
func (fs *frameState) floorSpanReal(rd mgl64.Vec3, y, xa, xb int, zr []float32, px []uint64, shade []uint16) {
	bg := &fs.background
	rf := &fs.real
	sc := rf.scene
	f := bg.floor
	n := xb - xa
	chunk := n
	if !bg.rollFree {
		chunk = chunkPx
	}
	srgb := srgbTable
	lm := sc.floorLit
	lut := &rf.lt.floorLUT
	ground := rf.lt.ground
	if sc.litFloor != nil && f.ok {
		fs.litFloorSpan(rd, y, xa, xb, zr, px, shade)
		return
	}
	if shade == nil {
		shade = rf.noShade[:n]
	}
	for i0 := 0; i0 < n; i0 += chunk {
		m := min(chunk, n-i0)
		fw := bg.floorWalk(rd, xa+i0, m)
		X, Y, dX, dY, dzi := fw.X, fw.Y, fw.dX, fw.dY, fw.dzi
		Lq, Wq := int64(f.length*floorOne), int64(f.width*floorOne)
		var lv *texLevel
		var kt int64
		var sh uint
		var mask int64
		tex := sc.floorTex
		if f.ok && tex != nil {
			texel := tex.period / float64(tex.Size())
			var scale float64
			lv, scale = tex.level(math.Sqrt(fw.fh*fw.fv) / texel)
			kt = int64(math.Round(65536 / texel * scale))
			sh = lv.shift
			mask = int64(1)<<sh - 1
		}
		var klm int64
		var lw, lh int64
		smooth := false // magnified: blend the light map's texels
		if lm != nil {
			klm = int64(math.Round(65536 / lm.texel))
			lw, lh = int64(lm.w), int64(lm.h)
			smooth = fw.fh < 0.5*lm.texel
		}
		iz := fw.iz
		zc := zr[i0 : i0+m]
		pc := px[i0 : i0+m]
		sc := shade[i0 : i0+m]
		for i, z := range zc {
			iz32 := float32(iz)
			if iz32 > z {
				if f.ok && uint64(X) < uint64(Lq) && uint64(Y) < uint64(Wq) {
					code := uint8(0xff)
					switch {
					case smooth:
						code = lm.blend((X*klm)>>floorFrac, (Y*klm)>>floorFrac)
					case lm != nil:
						li, lj := (X*klm)>>(16+floorFrac), (Y*klm)>>(16+floorFrac)
						if uint64(li) < uint64(lw) && uint64(lj) < uint64(lh) {
							code = lm.idx[lj*lw+li]
						}
					}
					if m := sc[i]; m != 0 { // a caster's shadow: the sun's level by the share lit
						code = code&0xf0 | uint8((int(code&15)*(16-bits.OnesCount16(m))+8)>>4)
					}
					L := &lut[code]
					if lv != nil {
						pc[i] = packLight(reflected(srgb, lv.texels[(((Y*kt)>>(16+floorFrac))&mask)<<sh|((X*kt)>>(16+floorFrac))&mask], L[0], L[1], L[2]))
					} else {
						pc[i] = packLight(L[0], L[1], L[2])
					}
				} else {
					pc[i] = ground
				}
				if fs.depth {
					zc[i] = 1 / iz32
				}
			} else if fs.depth {
				zc[i] = metres(z)
			}
			iz += dzi
			X, Y = X+dX, Y+dY
		}
	}
}
