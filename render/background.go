package render

import (
	"encoding/binary"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// background draws what no triangle covers: the plane z = 0 (the textured floor rectangle and
// the plain ground around it) and the sky. The plane is ray-cast per row rather than
// rasterised: a view ray through pixel (x, y) has world direction base + x·dx + y·dy, and with a
// camera that does not roll, dx is horizontal, so every pixel of a row meets the plane at the
// same planar depth and the hit point moves linearly along the row (the "mode 7" of old
// consoles). A rolled camera takes a per-pixel path.
type background struct {
	base, dx, dy mgl64.Vec3 // view ray of pixel (0, 0)'s centre and its change per column, row
	cam          mgl64.Vec3
	above        bool    // the camera is above the plane z = 0, so it can see it
	rollFree     bool    // dx is horizontal
	near, far    float64 // the planar depths at which the plane is seen (near: see planeNearDiv)
	sky          *[skyLUTSize]RGB
	ground       RGB
	floor        *floorRect
	texel        float64 // metres per level-0 texel; 0 for a plain floor
	// gains maps every colour drawn (nil: none), words as a floor's texels take it;
	// groundP and plainP are the ground and the plain floor through it, packed (packRGB).
	gains           *GainTable
	words           *gainWords
	groundP, plainP uint32
}

// planeNearDiv brings the plane's near limit this much closer than the triangles' near plane.
// The plane is ray-cast, not clipped, so it needs none; but a wide lens low over the floor sees
// it nearer than the near plane at the bottom of the frame, and there the sky showed.
const planeNearDiv = 64

func newBackground(v *view, s *Static, gains *GainTable) background {
	ix, iy := 1/v.fx, 1/v.fy
	bg := background{
		base: v.fwd.Add(v.left.Mul((v.cx - 0.5) * ix)).Add(v.up.Mul((v.cy - 0.5) * iy)),
		dx:   v.left.Mul(-ix), dy: v.up.Mul(-iy),
		cam: v.pos, above: v.pos[2] > 0, near: v.near / planeNearDiv, far: v.far,
		sky: &s.sky, ground: s.ground, floor: &s.floor,
		gains: gains, groundP: packRGB(gains.rgb(s.ground)), plainP: packRGB(gains.rgb(s.floor.plain)),
	}
	bg.rollFree = math.Abs(bg.dx[2]) < 1e-12*ix
	if s.floor.ok && s.floor.tex != nil {
		bg.texel = s.floor.tex.period / float64(s.floor.tex.Size())
	}
	return bg
}

// clampNear raises the depths of depth (nil: none asked for) nearer than the near plane to it,
// when a drawing of w×h pixels can see the plane that near: depth readings stay within
// near..far (or +Inf) while the colour shows the floor. The plane's 1/depth is linear over the
// drawing, so it is nearest at one of its corners; a lens's output samples inside the drawing.
func (bg *background) clampNear(depth []float32, w, h int) {
	if depth == nil || !bg.above {
		return
	}
	near := bg.near * planeNearDiv
	x, y := float64(w-1), float64(h-1)
	b := bg.base[2]
	dz := -min(b, b+x*bg.dx[2], b+y*bg.dy[2], b+x*bg.dx[2]+y*bg.dy[2])
	if dz*near <= bg.cam[2] { // 1/t = dz/z <= 1/near everywhere
		return
	}
	n32 := float32(near)
	for i, d := range depth {
		if d < n32 {
			depth[i] = n32
		}
	}
}

// skyAt returns the sky colour seen along direction d.
func (bg *background) skyAt(d mgl64.Vec3) RGB {
	e := d[2] / d.Len()
	i := int((e + 1) * 0.5 * (skyLUTSize - 1))
	return bg.sky[max(0, min(skyLUTSize-1, i))]
}

// backgroundRow fills row y wherever the plane is nearer than what is drawn (or nothing is
// drawn) and the sky wherever nothing is drawn; with a depth buffer it also turns the row's
// 1/depth into metres (+Inf for sky), the plane's own depth being exact rather than inverted
// twice. Only the row's covered columns (rowCover) are tested pixel by pixel; the others are
// known to be empty.
func (fs *frameState) backgroundRow(y int) {
	bg := &fs.background
	w := fs.w
	o := y * w
	zr := fs.z[o : o+w]
	var cr []byte
	if fs.rgb != nil {
		cr = fs.rgb[3*o : 3*(o+w)]
	}
	rd := bg.base.Add(bg.dy.Mul(float64(y)))
	if !bg.rollFree {
		fs.backgroundRowRolled(rd, zr, cr)
		return
	}
	cv := fs.cover[y]
	if bg.above && rd[2] < 0 {
		// rd·fwd = 1, so the ray parameter t is the planar depth.
		if t := bg.cam[2] / -rd[2]; t >= bg.near && t <= bg.far {
			fs.floorRow(rd, t, zr, cr, cv)
			return
		}
	}
	skyRow(zr, cr, packRGB(bg.gains.rgb(bg.skyAt(rd.Add(bg.dx.Mul(float64(w)/2))))), fs.depth, cv)
}

var inf32 = float32(math.Inf(1))

// rowCover is the columns [lo, hi) of a row that triangles' spans reached; every pixel
// outside is empty (1/depth 0). lo >= hi: none.
type rowCover struct{ lo, hi int32 }

// add widens c to take in columns [a, b).
func (c *rowCover) add(a, b int) {
	c.lo, c.hi = min(c.lo, int32(a)), max(c.hi, int32(b))
}

// within returns c as columns of the segment [a, b) of its row, clamped to 0..b−a: the
// segment's pixels before lo' and from hi' on are empty.
func (c rowCover) within(a, b int) (lo, hi int) {
	n := b - a
	lo = min(max(int(c.lo)-a, 0), n)
	hi = min(max(int(c.hi)-a, lo), n)
	return lo, hi
}

// skyRow paints packed colour c where nothing is drawn and, if depth, converts the row to
// metres. Sky comes in long runs, painted eight pixels at a time. An empty pixel is one the
// smallest 1/depth is nearer than: a drawn one is at most far away, so its 1/depth is larger.
func skyRow(zr []float32, cr []byte, c uint32, depth bool, cv rowCover) {
	lo, hi := cv.within(0, len(zr))
	nearerRuns(zr, math.SmallestNonzeroFloat32, depth, lo, hi, func(a, b int) { skyRun(zr[a:b], cr, a, c, depth) })
}

// skyRun paints the empty pixels zr, from column a of the row cr (nil: no colour), in c, and
// sets their depth to +Inf if depth.
func skyRun(zr []float32, cr []byte, a int, c uint32, depth bool) {
	plainRun(zr, cr, a, inf32, c, depth)
}

// plainSpan draws the plane in packed colour c at 1/depth iz (depth t) where it is nearer,
// and converts the span to metres if depth. Columns [lo, hi) may be drawn on; the others
// are empty.
func plainSpan(zr []float32, cr []byte, iz, t float32, c uint32, depth bool, lo, hi int) {
	nearerRuns(zr, iz, depth, lo, hi, func(a, b int) { plainRun(zr[a:b], cr, a, t, c, depth) })
}

// nearerRuns calls run for each run [a, b) of the row zr where the plane at 1/depth iz is
// nearer than what is drawn, converting the other pixels to metres if depth. Columns
// [lo, hi) may be drawn on; the others are empty, so one run each.
func nearerRuns(zr []float32, iz float32, depth bool, lo, hi int, run func(a, b int)) {
	if lo > 0 {
		run(0, lo)
	}
	if hi < len(zr) {
		run(hi, len(zr))
	}
	if !depth {
		// Without depth to convert, the pixels nearer than the plane are only passed over, four
		// at a time.
		for x := lo; x < hi; {
			for x+4 <= hi && !(iz > zr[x]) && !(iz > zr[x+1]) && !(iz > zr[x+2]) && !(iz > zr[x+3]) {
				x += 4
			}
			for x < hi && !(iz > zr[x]) {
				x++
			}
			a := x
			for x < hi && iz > zr[x] {
				x++
			}
			if a < x {
				run(a, x)
			}
		}
		return
	}
	for x := lo; x < hi; {
		if z := zr[x]; !(iz > z) {
			if depth {
				zr[x] = 1 / z
			}
			x++
			continue
		}
		a := x
		for x < hi && iz > zr[x] {
			x++
		}
		run(a, x)
	}
}

// plainRun paints the plane's pixels zr, from column a of cr (nil: no colour), in c at
// depth t.
func plainRun(zr []float32, cr []byte, a int, t float32, c uint32, depth bool) {
	if len(zr) == 0 {
		return
	}
	if cr != nil {
		fillPacked(cr[3*a:3*(a+len(zr))], c)
	}
	if depth {
		for i := range zr {
			zr[i] = t
		}
	}
}

// floorRow draws the plane on a row that meets it at planar depth t.
func (fs *frameState) floorRow(rd mgl64.Vec3, t float64, zr []float32, cr []byte, cv rowCover) {
	bg := &fs.background
	w := len(zr)
	iz, t32 := float32(1/t), float32(t)
	depth := fs.depth
	// Hit point of column x: (px0 + x·pdx, py0 + x·pdy).
	px0, py0 := bg.cam[0]+t*rd[0], bg.cam[1]+t*rd[1]
	pdx, pdy := t*bg.dx[0], t*bg.dx[1]
	xa, xb := 0, 0
	f := bg.floor
	if f.ok {
		lo, hi := linearRange(px0-f.x0, pdx, f.length, 0, float64(w))
		lo, hi = linearRange(py0-f.y0, pdy, f.width, lo, hi)
		if lo < hi {
			xa, xb = max(0, int(math.Ceil(lo))), min(w, int(math.Ceil(hi)))
			xb = max(xa, xb)
		}
	}
	var ca, cb []byte
	if cr != nil {
		ca, cb = cr[:3*xa], cr[3*xb:]
	}
	// The ground left and right of the floor (none where the floor fills the row).
	if xa > 0 {
		lo, hi := cv.within(0, xa)
		plainSpan(zr[:xa], ca, iz, t32, bg.groundP, depth, lo, hi)
	}
	if xb < w {
		lo, hi := cv.within(xb, w)
		plainSpan(zr[xb:], cb, iz, t32, bg.groundP, depth, lo, hi)
	}
	if xa >= xb {
		return
	}
	lo, hi := cv.within(xa, xb)
	zr = zr[xa:xb]
	if cr != nil {
		cr = cr[3*xa : 3*xb]
	}
	if f.tex == nil || cr == nil {
		plainSpan(zr, cr, iz, t32, bg.plainP, depth, lo, hi)
		return
	}
	// Texel footprint of a pixel across the row and down to the next row (at mid-row); the
	// mip level matches their geometric mean.
	fh := math.Hypot(pdx, pdy)
	fv := math.Inf(1)
	if rn := rd.Add(bg.dy); rn[2] < 0 {
		tn := bg.cam[2] / -rn[2]
		xm := float64(w) / 2
		fv = math.Hypot(bg.cam[0]+tn*(rn[0]+xm*bg.dx[0])-(px0+xm*pdx), bg.cam[1]+tn*(rn[1]+xm*bg.dx[1])-(py0+xm*pdy))
	}
	lv, scale := f.tex.level(math.Sqrt(fh*fv) / bg.texel)
	k := 65536 / bg.texel * scale // fixed-point texels of the level per metre
	ft := floorTexels{lv: lv, gains: bg.words,
		u:  int64(math.Floor((px0 - f.x0 + float64(xa)*pdx) * k)),
		v:  int64(math.Floor((py0 - f.y0 + float64(xa)*pdy) * k)),
		du: int64(math.Round(pdx * k)), dv: int64(math.Round(pdy * k)),
	}
	nearerRuns(zr, iz, depth, lo, hi, func(a, b int) { ft.run(cr, zr[a:b], a, t32, depth) })
}

// floorTexels is a floor row's walk through a texture level: fixed-point (16.16) texel
// coordinates (u, v) at the span's first column, stepping (du, dv) a column.
type floorTexels struct {
	lv           *texLevel
	gains        *gainWords
	u, v, du, dv int64
}

// run paints the floor's pixels zr, from column a of the span cr, at depth t. Column a's
// texel coordinates are the span's start stepped a times, exactly as a walk would reach them.
func (ft *floorTexels) run(cr []byte, zr []float32, a int, t float32, depth bool) {
	if len(zr) == 0 {
		return
	}
	b := a + len(zr)
	texRun(cr[3*a:3*b], ft.lv, ft.u+int64(a)*ft.du, ft.v+int64(a)*ft.dv, ft.du, ft.dv, ft.gains)
	if depth {
		for i := range zr {
			zr[i] = t
		}
	}
}

// texRun paints the pixels of dst (3 bytes each) with the texels of lv at fixed-point
// (16.16) texel coordinates (u, v), stepping (du, dv) a pixel, through gains if set. It works
// on the low 32 bits: the texel index takes bits 16..16+shift−1, below bit 32 as textures are
// at most MaxTextureSide texels a side, and wrapping sums keep those bits exact.
func texRun(dst []byte, lv *texLevel, u, v, du, dv int64, gains *gainWords) {
	tx := lv.packed
	if len(dst) < 3 || len(tx) == 0 {
		return
	}
	// A level has 2^shift × 2^shift texels, so masking the index with len−1 wraps the rows
	// and proves it in range: no bounds check, and a register fewer in the loop.
	sh := lv.shift & 31
	mask := uint32(1)<<sh - 1
	last := uint(len(tx) - 1)
	uu, vv, duu, dvv := uint32(u), uint32(v), uint32(du), uint32(dv)
	d := dst
	if gains == nil {
		for len(d) >= 4 { // every pixel but the last: its 4-byte store sets the next one's red
			binary.LittleEndian.PutUint32(d, tx[uint((vv>>16)<<sh|uu>>16&mask)&last])
			d = d[3:]
			uu += duu
			vv += dvv
		}
		put3(d, 0, tx[uint((vv>>16)<<sh|uu>>16&mask)&last])
		return
	}
	for len(d) >= 4 {
		binary.LittleEndian.PutUint32(d, gains.packed(tx[uint((vv>>16)<<sh|uu>>16&mask)&last]))
		d = d[3:]
		uu += duu
		vv += dvv
	}
	put3(d, 0, gains.packed(tx[uint((vv>>16)<<sh|uu>>16&mask)&last]))
}

// backgroundRowRolled is backgroundRow for a rolled camera: the plane's depth changes along
// the row, so each pixel casts its own ray.
func (fs *frameState) backgroundRowRolled(rd mgl64.Vec3, zr []float32, cr []byte) {
	bg := &fs.background
	f := bg.floor
	dxLen := bg.dx.Len()
	for x, z := range zr {
		d := rd.Add(bg.dx.Mul(float64(x)))
		if bg.above && d[2] < 0 {
			if t := bg.cam[2] / -d[2]; t >= bg.near && t <= bg.far {
				if float32(1/t) > z {
					if cr != nil {
						c := bg.ground
						px, py := bg.cam[0]+t*d[0]-f.x0, bg.cam[1]+t*d[1]-f.y0
						if f.ok && px >= 0 && px < f.length && py >= 0 && py < f.width {
							c = f.plain
							if f.tex != nil {
								// Footprint across the ray, stretched by the grazing angle.
								foot := t * dxLen / math.Sqrt(-d[2]/d.Len())
								c = f.tex.sample(px, py, foot/bg.texel)
							}
						}
						c = bg.gains.rgb(c)
						p := cr[3*x : 3*x+3 : 3*x+3]
						p[0], p[1], p[2] = c.R, c.G, c.B
					}
					if fs.depth {
						zr[x] = float32(t)
					}
					continue
				}
			}
		}
		switch {
		case z == 0 && cr != nil:
			c := bg.gains.rgb(bg.skyAt(d))
			p := cr[3*x : 3*x+3 : 3*x+3]
			p[0], p[1], p[2] = c.R, c.G, c.B
			if fs.depth {
				zr[x] = inf32
			}
		case z == 0 && fs.depth:
			zr[x] = inf32
		case fs.depth:
			zr[x] = 1 / z
		}
	}
}

// linearRange narrows [lo, hi) to the x where 0 <= a + b·x < l.
func linearRange(a, b, l, lo, hi float64) (float64, float64) {
	if b == 0 {
		if a < 0 || a >= l {
			return lo, lo
		}
		return lo, hi
	}
	x0, x1 := -a/b, (l-a)/b
	if b < 0 {
		x0, x1 = x1, x0
	}
	return max(lo, x0), min(hi, x1)
}

// level returns the mip level whose texels best match a footprint of foot level-0 texels, and
// the level's texel count per level-0 texel (1/2^level).
func (t *Texture) level(foot float64) (*texLevel, float64) {
	l, scale := 0, 1.0
	for foot >= 2 && l < len(t.levels)-1 {
		foot /= 2
		scale /= 2
		l++
	}
	return &t.levels[l], scale
}

// sample returns the texel at (u, v) metres from the level matching foot level-0 texels.
func (t *Texture) sample(u, v, foot float64) RGB {
	lv, scale := t.level(foot)
	k := float64(t.Size()) / t.period * scale
	mask := 1<<lv.shift - 1
	i := int(math.Floor(u*k)) & mask
	j := int(math.Floor(v*k)) & mask
	return lv.texels[j<<lv.shift|i]
}
