package render

import (
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
	above        bool // the camera is above the plane z = 0, so it can see it
	rollFree     bool // dx is horizontal
	near, far    float64
	sky          *[skyLUTSize]RGB
	ground       RGB
	floor        *floorRect
	texel        float64 // metres per level-0 texel; 0 for a plain floor
}

func newBackground(v *view, s *Static) background {
	ix, iy := 1/v.fx, 1/v.fy
	bg := background{
		base: v.fwd.Add(v.left.Mul((v.cx - 0.5) * ix)).Add(v.up.Mul((v.cy - 0.5) * iy)),
		dx:   v.left.Mul(-ix), dy: v.up.Mul(-iy),
		cam: v.pos, above: v.pos[2] > 0, near: v.near, far: v.far,
		sky: &s.sky, ground: s.ground, floor: &s.floor,
	}
	bg.rollFree = math.Abs(bg.dx[2]) < 1e-12*ix
	if s.floor.ok && s.floor.tex != nil {
		bg.texel = s.floor.tex.period / float64(s.floor.tex.Size())
	}
	return bg
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
// twice.
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
	if bg.above && rd[2] < 0 {
		// rd·fwd = 1, so the ray parameter t is the planar depth.
		if t := bg.cam[2] / -rd[2]; t >= bg.near && t <= bg.far {
			fs.floorRow(rd, t, zr, cr)
			return
		}
	}
	skyRow(zr, cr, bg.skyAt(rd.Add(bg.dx.Mul(float64(w)/2))), fs.depth)
}

var inf32 = float32(math.Inf(1))

// skyRow paints c where nothing is drawn and, if depth, converts the row to metres. Sky comes
// in long runs, painted by doubling copies rather than pixel by pixel.
func skyRow(zr []float32, cr []byte, c RGB, depth bool) {
	w := len(zr)
	for x := 0; x < w; {
		if z := zr[x]; z != 0 {
			if depth {
				zr[x] = 1 / z
			}
			x++
			continue
		}
		a := x
		for x < w && zr[x] == 0 {
			x++
		}
		if cr != nil {
			fillRGB(cr[3*a:3*x], c)
		}
		if depth {
			run := zr[a:x]
			for i := range run {
				run[i] = inf32
			}
		}
	}
}

// fillRGB paints every pixel of dst (3 bytes each) in c.
func fillRGB(dst []byte, c RGB) {
	if len(dst) < 3 {
		return
	}
	dst[0], dst[1], dst[2] = c.R, c.G, c.B
	for n := 3; n < len(dst); n *= 2 {
		copy(dst[n:], dst[:n])
	}
}

// plainSpan draws the plane in one colour at 1/depth iz (depth t) where it is nearer, and
// converts the span to metres if depth.
func plainSpan(zr []float32, cr []byte, iz, t float32, c RGB, depth bool) {
	if cr != nil {
		cr = cr[:3*len(zr)]
	}
	for x, z := range zr {
		if iz > z {
			if cr != nil {
				p := cr[3*x : 3*x+3 : 3*x+3]
				p[0], p[1], p[2] = c.R, c.G, c.B
			}
			if depth {
				zr[x] = t
			}
		} else if depth {
			zr[x] = 1 / z
		}
	}
}

// floorRow draws the plane on a row that meets it at planar depth t.
func (fs *frameState) floorRow(rd mgl64.Vec3, t float64, zr []float32, cr []byte) {
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
	plainSpan(zr[:xa], ca, iz, t32, bg.ground, depth)
	plainSpan(zr[xb:], cb, iz, t32, bg.ground, depth)
	if xa >= xb {
		return
	}
	zr = zr[xa:xb]
	if cr != nil {
		cr = cr[3*xa : 3*xb]
	}
	if f.tex == nil || cr == nil {
		plainSpan(zr, cr, iz, t32, f.plain, depth)
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
	u := int64(math.Floor((px0 - f.x0 + float64(xa)*pdx) * k))
	v := int64(math.Floor((py0 - f.y0 + float64(xa)*pdy) * k))
	du, dv := int64(math.Round(pdx*k)), int64(math.Round(pdy*k))
	sh := lv.shift
	mask := int64(1)<<sh - 1
	tx := lv.texels
	for x, z := range zr {
		if iz > z {
			c := tx[((v>>16)&mask)<<sh|(u>>16)&mask]
			p := cr[3*x : 3*x+3 : 3*x+3]
			p[0], p[1], p[2] = c.R, c.G, c.B
			if depth {
				zr[x] = t32
			}
		} else if depth {
			zr[x] = 1 / z
		}
		u += du
		v += dv
	}
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
			c := bg.skyAt(d)
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
