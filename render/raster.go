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

// raster scans rows [y0, y1) of t into the depth buffer and, when the frame has one, the
// colour buffer. Depth is tested as 1/depth, which is affine in screen space, so it is exact
// (perspective-correct) per pixel. A pixel is taken only by a strictly nearer triangle, so
// equal depths keep the first drawn. Each row's span is span's arithmetic written out, on t's
// fields copied into locals once: the call and the reloads cost more than the pixels of the
// small triangles vehicles are made of.
func (fs *frameState) raster(t *rtri, y0, y1 int) {
	w := fs.w
	r, g, b := t.col.R, t.col.G, t.col.B
	xt, yt, xm, ym := t.xt, t.yt, t.xm, t.ym
	kLong, kTop, kBot, midLeft := t.kLong, t.kTop, t.kBot, t.midLeft
	zt, zx, zy := t.zt, t.zx, t.zy
	rgb := fs.rgb != nil
	for y := y0; y < y1; y++ {
		yc := float64(y) + 0.5
		xl := xt + (yc-yt)*kLong
		var xs float64
		if yc < ym {
			xs = xt + (yc-yt)*kTop
		} else {
			xs = xm + (yc-ym)*kBot
		}
		if midLeft {
			xl, xs = xs, xl
		}
		xa, xb := max(ceilHalf(xl), 0), min(ceilHalf(xs), w)
		if xa >= xb {
			continue
		}
		fs.cover[y].add(xa, xb)
		zv := zt + (float64(xa)+0.5-xt)*zx + (yc-yt)*zy
		o := y*w + xa
		zr := fs.z[o : o+xb-xa]
		// Each pixel's 1/depth from the span's first: a running sum would chain every pixel's
		// test on the addition before it.
		if !rgb {
			for i := range zr {
				if z := float32(zv + float64(i)*zx); z > zr[i] {
					zr[i] = z
				}
			}
			continue
		}
		cr := fs.rgb[3*o : 3*(o+len(zr))]
		for i := range zr {
			if z := float32(zv + float64(i)*zx); z > zr[i] {
				zr[i] = z
				p := cr[3*i : 3*i+3 : 3*i+3]
				p[0], p[1], p[2] = r, g, b
			}
		}
	}
}
