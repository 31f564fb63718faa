package render

// postState is what the film pass reads: where the output goes and, with a lens, where each
// output pixel samples the drawing.
type postState struct {
	rgb    []byte    // the output
	depth  []float32 // the output depth (nil: none)
	w, h   int       // output size
	lens   *lensMap  // nil: the drawing is the output
	src    []uint64  // the linear image the film develops
	rows   []uint64  // one row of scratch per band
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
	ps := &fs.post
	*ps = postState{rgb: dst.RGB, depth: dst.Depth, w: W, h: H, rows: ps.rows}
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
	r.setupDynShadows(dyn, sc)
	r.setupFloorShadows(sc)
	if len(rf.shadePolys) > 0 && cap(rf.shade) < w*h {
		rf.shade = make([]uint16, w*h)
	}
	rf.shade = rf.shade[:cap(rf.shade)]
	if len(rf.noShade) < w {
		rf.noShade = make([]uint16, w)
	}
	r.setupRealStatic(static)
	for i := range dyn {
		if dyn[i].Mesh != nil {
			r.setupRealObject(&dyn[i], static)
		}
	}
	cx, cy := fs.view.cx, fs.view.cy
	if ps.lens != nil {
		_, _, ocx, ocy := cam.intrinsics()
		cx, cy = ocx+0.5, ocy+0.5
	}
	fs.film.prepare(film, cam.Gains, W, H, cx, cy, cam.Seed)
	ps.src = rf.lin
	ps.fused = ps.lens == nil && !fs.blur.on && dst.RGB != nil
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
		tiles := (H + tileRows - 1) / tileRows
		if cap(ps.rows) < tiles*W {
			ps.rows = make([]uint64, tiles*W)
		}
		ps.rows = ps.rows[:tiles*W]
		r.runPhase(H, W, (*frameState).developBand)
	}
}

// drawBandReal draws rows y0..y1-1 of the linear buffer completely, and develops them when the
// film needs nothing else.
func (fs *frameState) drawBandReal(y0, y1 int) {
	w := fs.w
	clear(fs.z[y0*w : y1*w])
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
	ps := &fs.post
	W := ps.w
	band := y0 / tileRows
	row := ps.rows[band*W : (band+1)*W]
	for y := y0; y < y1; y++ {
		lm := ps.lens
		if lm != nil && ps.depth != nil {
			lm.depthRow(ps.depth[y*W:(y+1)*W], ps.innerZ, y)
		}
		if ps.rgb == nil {
			continue
		}
		if lm != nil {
			lm.resample(row, ps.src, y)
			fs.film.develop(ps.rgb[3*y*W:3*(y+1)*W], row, y, W, resampledShift)
		} else {
			fs.film.develop(ps.rgb[3*y*W:3*(y+1)*W], ps.src[y*W:(y+1)*W], y, W, drawnShift)
		}
	}
}
