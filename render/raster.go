package render

// span returns the pixel columns [a, b) row y of t covers, clamped to the image, and the
// row's pixel-centre y.
func (t *rtri) span(y, w int) (a, b int, yc float64) {
	yc = float64(y) + 0.5
	xl := t.xt + (yc-t.yt)*t.kLong
	var xs float64
	if yc < t.ym {
		xs = t.xt + (yc-t.yt)*t.kTop
	} else {
		xs = t.xm + (yc-t.ym)*t.kBot
	}
	if t.midLeft {
		xl, xs = xs, xl
	}
	return max(ceilHalf(xl), 0), min(ceilHalf(xs), w), yc
}

// rasterRGB scans rows [y0, y1) of t into the depth and colour buffers. Depth is tested as
// 1/depth, which is affine in screen space, so it is exact (perspective-correct) per pixel.
// A pixel is taken only by a strictly nearer triangle, so equal depths keep the first drawn.
func (fs *frameState) rasterRGB(t *rtri, y0, y1 int) {
	w := fs.w
	r, g, b := t.col.R, t.col.G, t.col.B
	for y := y0; y < y1; y++ {
		xa, xb, yc := t.span(y, w)
		if xa >= xb {
			continue
		}
		zv := t.zt + (float64(xa)+0.5-t.xt)*t.zx + (yc-t.yt)*t.zy
		o := y*w + xa
		zr := fs.z[o : o+xb-xa]
		cr := fs.rgb[3*o : 3*(o+len(zr))]
		for i := range zr {
			if z := float32(zv); z > zr[i] {
				zr[i] = z
				p := cr[3*i : 3*i+3 : 3*i+3]
				p[0], p[1], p[2] = r, g, b
			}
			zv += t.zx
		}
	}
}

// rasterDepth is rasterRGB without colour.
func (fs *frameState) rasterDepth(t *rtri, y0, y1 int) {
	w := fs.w
	for y := y0; y < y1; y++ {
		xa, xb, yc := t.span(y, w)
		if xa >= xb {
			continue
		}
		zv := t.zt + (float64(xa)+0.5-t.xt)*t.zx + (yc-t.yt)*t.zy
		o := y*w + xa
		zr := fs.z[o : o+xb-xa]
		for i := range zr {
			if z := float32(zv); z > zr[i] {
				zr[i] = z
			}
			zv += t.zx
		}
	}
}
