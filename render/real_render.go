package render

import "github.com/go-gl/mathgl/mgl64"

// postState is what the film pass reads: where the output goes and, with a lens, where each
// output pixel samples the drawing.
type postState struct {
	rgb    []byte    // the output
	depth  []float32 // the output depth (nil: none)
	w, h   int       // output size
	lens   *lensMap  // nil: the drawing is the output
	src    []uint64  // the linear image the film develops
	fused  bool      // develop each band right after drawing it
	innerZ []float32 // the drawing's depth in metres, for the lens's depth output
	innerW int
}

// renderReal draws a frame through the realistic pipeline: the scene into a linear buffer
// (through a lens, an undistorted image covering what it sees), motion blur, then the film.
func (r *Renderer) renderReal(dst *Frame, cam *Camera, static *Static, dyn []Object) {
	fs := &r.fs
	film := cam.Film
	if film == nil {
		film = &Film{}
	}
	W, H := cam.Width, cam.Height
	if W*H >= bigFramePixels {
		defer r.giveBack(r.borrowScratch())
	}
	ps := &fs.post
	*ps = postState{rgb: dst.RGB, depth: dst.Depth, w: W, h: H}
	inner := *cam
	if cam.Lens.distorted() {
		ps.lens = r.lenses.get(cam)
		inner.Width, inner.Height, inner.Lens = ps.lens.w, ps.lens.h, ps.lens.inner
	}
	w, h := inner.Width, inner.Height
	fs.w, fs.h = w, h
	fs.view = newView(&inner)
	fs.static = static
	fs.background = newBackground(&fs.view, static, nil) // gains follow the film

	// Depth: the caller's buffer when it is the drawing's size, else ours (converted to metres
	// when asked for or when blur needs it).
	fs.blur.prepare(cam, film)
	fs.depth = dst.Depth != nil || fs.blur.on
	if dst.Depth != nil && ps.lens == nil {
		fs.z = dst.Depth
	} else {
		if cap(r.zbuf) < w*h {
			r.zbuf = make([]float32, w*h)
		}
		fs.z = r.zbuf[:w*h]
	}
	ps.innerZ, ps.innerW = fs.z, w
	rf := &fs.real
	if cap(rf.lin) < w*h {
		rf.lin = make([]uint64, w*h)
	}
	rf.lin = rf.lin[:w*h]
	sc := static.realPart()
	rf.scene, rf.lt = sc, &sc.light
	rf.tris = rf.tris[:0]
	// Floor shadows as setupDynShadows casts them: with the shadow map, the sun well up.
	var sun *mgl64.Vec3
	if sc.hasShadow && sc.sunUp > 0.02 {
		sun = &sc.shadow.ld
	}
	dyn = r.withLOD(cam, r.inView(dyn, sun))
	r.setupDynShadows(dyn, sc)
	r.setupFloorShadows(sc)
	fs.sizeRows(w, h)
	r.setupRealStatic(static)
	for i := range dyn {
		if dyn[i].Mesh != nil {
			r.setupRealObject(&dyn[i], static)
		}
	}
	cx, cy := fs.view.cx, fs.view.cy
	if ps.lens != nil {
		_, _, ocx, ocy := cam.Intrinsics()
		cx, cy = ocx+0.5, ocy+0.5
	}
	fs.film.prepare(film, cam.Gains, W, H, cx, cy, cam.Seed)
	ps.src = rf.lin
	ps.fused = ps.lens == nil && !fs.blur.on && dst.RGB != nil
	switch {
	case ps.lens != nil && !fs.blur.on && r.phaseWorkers(h, w) == 1:
		// One goroutine draws: each output row is developed as soon as the rows of the
		// drawing its taps read are drawn, while they are still in the cache.
		y := 0
		for y0 := 0; y0 < h; y0 += tileRows {
			y1 := min(h, y0+tileRows)
			fs.drawBandReal(y0, y1)
			for ; y < H && int(ps.lens.need[y]) <= y1; y++ {
				fs.developRow(y)
			}
		}
		for ; y < H; y++ {
			fs.developRow(y)
		}
	default:
		r.runPhase(h, w, (*frameState).drawBandReal)
		if fs.blur.on {
			if cap(rf.blurred) < len(rf.lin) {
				rf.blurred = make([]uint64, len(rf.lin))
			}
			rf.blurred = rf.blurred[:len(rf.lin)]
			r.runPhase(h, w, (*frameState).blurRows)
			ps.src = rf.blurred
		}
		if !ps.fused && (dst.RGB != nil || ps.lens != nil && dst.Depth != nil) {
			r.runPhase(H, W, (*frameState).developBand)
		}
	}
}

// sizeRows fits the per-row buffers of the realistic pipeline to a drawing of w×h: the rows'
// covers, the floor's shadow mask (when a caster's shadow is in view), its row of zeros, and a
// row of scratch per band. They are kept from frame to frame.
func (fs *frameState) sizeRows(w, h int) {
	rf := &fs.real
	if len(rf.shadePolys) > 0 && cap(rf.shade) < w*h {
		rf.shade = make([]uint16, w*h)
	}
	rf.shade = rf.shade[:cap(rf.shade)]
	if len(rf.noShade) < w {
		rf.noShade = make([]uint16, w)
	}
	if n := (h + tileRows - 1) / tileRows * w; len(rf.rowTmp) < n {
		rf.rowTmp = make([]uint64, n)
	}
	if cap(fs.cover) < h {
		fs.cover = make([]rowCover, h)
	}
	fs.cover = fs.cover[:h]
	if cap(rf.shadeCover) < h {
		rf.shadeCover = make([]rowCover, h)
	}
	rf.shadeCover = rf.shadeCover[:h]
}

// drawBandReal draws rows y0..y1-1 of the linear buffer completely, and develops them when the
// film needs nothing else.
func (fs *frameState) drawBandReal(y0, y1 int) {
	w := fs.w
	clear(fs.z[y0*w : y1*w])
	for y := y0; y < y1; y++ {
		fs.cover[y] = rowCover{lo: int32(w)}
	}
	if len(fs.real.shadePolys) > 0 {
		fs.shadeBand(y0, y1)
	}
	for i := range fs.real.tris {
		t := &fs.real.tris[i]
		if int(t.rowEnd) <= y0 || int(t.rowStart) >= y1 {
			continue
		}
		fs.rasterReal(t, max(int(t.rowStart), y0), min(int(t.rowEnd), y1))
	}
	for y := y0; y < y1; y++ {
		fs.backgroundRowReal(y)
	}
	if ps := &fs.post; ps.fused {
		for y := y0; y < y1; y++ {
			fs.film.develop(ps.rgb[3*y*w:3*(y+1)*w], fs.real.lin[y*w:(y+1)*w], y, w, drawnShift)
		}
	}
}

// developBand develops output rows y0..y1-1: through the lens (bilinear), then the film.
func (fs *frameState) developBand(y0, y1 int) {
	for y := y0; y < y1; y++ {
		fs.developRow(y)
	}
}

// developRow develops output row y: through the lens (bilinear), then the film.
func (fs *frameState) developRow(y int) {
	ps := &fs.post
	W := ps.w
	lm := ps.lens
	if lm != nil && ps.depth != nil {
		lm.depthRow(ps.depth[y*W:(y+1)*W], ps.innerZ, y)
	}
	if ps.rgb == nil {
		return
	}
	if lm != nil {
		fs.film.developLens(ps.rgb[3*y*W:3*(y+1)*W], lm, ps.src, y, W)
	} else {
		fs.film.develop(ps.rgb[3*y*W:3*(y+1)*W], ps.src[y*W:(y+1)*W], y, W, drawnShift)
	}
}
