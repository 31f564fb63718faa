package render

import "math"

// filmState is a film prepared for a frame: its tables (with the camera's GainTable folded
// in) and the vignette. What depends only on the film, the gains and the frame size is kept
// from frame to frame.
type filmState struct {
	lut   *filmLUT
	noisy bool
	// enc (without noise) and out (with noise) are the lut's per-channel byte tables, mapped
	// through the camera's GainTable when it has one.
	enc *encodeLUTs3
	out *noiseOut
	// gainedFor is the lut and table the gained copies were made for.
	gainedFor struct {
		lut   *filmLUT
		gains GainTable
	}
	gainedEnc *encodeLUTs3
	gainedOut *noiseOut

	vig    []uint16 // per output pixel, linOne = no loss
	vigFor vigKey
	flat   []uint16 // linOne per pixel of a row: the vignette of a film without one
	seed   uint64
}

type vigKey struct {
	w, h             int
	strength, cx, cy float64
}

// prepare sets st up for film f, then gains (nil: none), on an output of w×h with principal
// point (cx, cy), reusing the tables and the vignette when they fit.
func (st *filmState) prepare(f *Film, gains *GainTable, w, h int, cx, cy float64, seed uint64) {
	st.lut = filmTable(f)
	st.noisy = st.lut.noisy
	st.seed = seed
	st.tables(gains)
	if f.Vignette <= 0 {
		st.vig = nil
		if len(st.flat) < w {
			st.flat = make([]uint16, w)
			for i := range st.flat {
				st.flat[i] = linOne
			}
		}
		return
	}
	k := vigKey{w: w, h: h, strength: f.Vignette, cx: cx, cy: cy}
	if k == st.vigFor && len(st.vig) == w*h {
		return
	}
	n := w * h
	if cap(st.vig) < n {
		st.vig = make([]uint16, n)
	}
	st.vig, st.vigFor = st.vig[:n], k
	r2 := (float64(w)*float64(w) + float64(h)*float64(h)) / 4
	for y := range h {
		for x := range w {
			dx, dy := float64(x)+0.5-cx, float64(y)+0.5-cy
			st.vig[y*w+x] = uint16(math.Round(linOne * math.Max(0, 1-f.Vignette*(dx*dx+dy*dy)/r2)))
		}
	}
}

// tables points enc and out at the lut's tables, or at copies mapped through gains, made
// again only when the lut or the gains change (a training camera's once per episode).
func (st *filmState) tables(gains *GainTable) {
	lut := st.lut
	if gains == nil {
		st.enc, st.out = lut.enc, lut.out
		return
	}
	g := &st.gainedFor
	if g.lut != lut || g.gains != *gains {
		g.lut, g.gains = lut, *gains
		if lut.noisy {
			if st.gainedOut == nil {
				st.gainedOut = new(noiseOut)
			}
			for c := range 3 {
				for i, v := range lut.out[c] {
					st.gainedOut[c][i] = gains[c][v]
				}
			}
		} else {
			if st.gainedEnc == nil {
				st.gainedEnc = new(encodeLUTs3)
			}
			for c := range 3 {
				for i, v := range lut.enc[c] {
					st.gainedEnc[c][i] = gains[c][v]
				}
			}
		}
	}
	st.enc, st.out = st.gainedEnc, st.gainedOut
}

// rowSeed returns the state of output row y's noise stream (splitmixStep): frames with the
// same seed get the same noise whatever worker draws the row.
func (st *filmState) rowSeed(y int) uint64 {
	return st.seed ^ uint64(y+1)*0xa0761d6478bd642f
}

// Scales of the rows develop takes: packed linear pixels as drawn (lanes up to linMax), or
// as the lens's resampling leaves them (lanes 32 times that: bilinear weights in 32nds).
const (
	drawnShift     = linShift
	resampledShift = linShift + 5
)

// develop turns one output row of packed linear pixels (src, lanes scaled as shift says) into
// 8-bit dst with vignetting, gains, clipping, noise and the transfer curve, in one table
// lookup per channel (two with noise). A lane times the vignette (at most linOne) shifted
// down is at most linMax, a uint16, so it indexes the tables as it is.
func (st *filmState) develop(dst []byte, src []uint64, y, w int, shift uint) {
	vig := st.flat
	if st.vig != nil {
		vig = st.vig[y*w : y*w+w]
	}
	src, dst, vig = src[:w], dst[:3*w], vig[:w]
	shift &= 63 // tells the compiler so: a shift by 64 or more would need a test
	if !st.noisy && st.vig == nil && shift == drawnShift {
		// No vignette on a row as drawn: each lane indexes its table as it is.
		e := st.enc
		_ = e[0][0]
		for x, p := range src {
			d := dst[3*x : 3*x+3 : 3*x+3]
			d[0], d[1], d[2] = e[0][uint16(p)], e[1][uint16(p>>laneShift)], e[2][uint16(p>>(2*laneShift))]
		}
		return
	}
	if !st.noisy {
		e := st.enc
		_ = e[0][0] // one nil check, outside the loop
		for x, p := range src {
			k := uint64(vig[x])
			d := dst[3*x : 3*x+3 : 3*x+3]
			d[0] = e[0][uint16((p&laneMask)*k>>shift)]
			d[1] = e[1][uint16((p>>laneShift&laneMask)*k>>shift)]
			d[2] = e[2][uint16((p>>(2*laneShift))*k>>shift)]
		}
		return
	}
	developNoisy(dst, src, vig, shift, st.lut.bucket, st.out, st.rowSeed(y))
}

// developNoisyGo is develop's noisy loop in Go (developNoisy's reference and fallback): the
// row's noise stream starts at seed.
func developNoisyGo(dst []byte, src []uint64, vig []uint16, shift uint, b *[3][linMax + 1]uint16, o *noiseOut, seed uint64) {
	dst, vig = dst[:3*len(src)], vig[:len(src)]
	shift &= 63
	_, _ = b[0][0], o[0][0]
	var bits uint64
	for x, p := range src {
		if x&3 == 0 { // 4 pixels' noise levels from one draw: 4 bits a channel
			seed, bits = splitmixStep(seed)
		}
		k, l := uint64(vig[x]), uint16(bits)
		bits >>= 16
		d := dst[3*x : 3*x+3 : 3*x+3]
		d[0] = o[0][(b[0][uint16((p&laneMask)*k>>shift)]|l&(noiseLevels-1))&noiseMask]
		d[1] = o[1][(b[1][uint16((p>>laneShift&laneMask)*k>>shift)]|l>>4&(noiseLevels-1))&noiseMask]
		d[2] = o[2][(b[2][uint16((p>>(2*laneShift))*k>>shift)]|l>>8&(noiseLevels-1))&noiseMask]
	}
}

// developLens develops output row y straight from the undistorted image src through the
// lens's taps: resample and develop in one pass. The pass is most of a distorted frame's
// cost, so on amd64 it is written in assembly (lensRow, lensRowEnc without noise), whose
// bytes TestLensRowMatchesGoOnLensMaps holds equal to the Go loops'.
func (st *filmState) developLens(dst []byte, lm *lensMap, src []uint64, y, w int) {
	vig := st.flat
	if st.vig != nil {
		vig = st.vig[y*w : y*w+w]
	}
	if len(src) < lm.w*lm.h {
		// The taps reach anywhere in the undistorted image (newLensMap keeps them inside).
		panic("render: a lens row's source is smaller than the lens's undistorted image")
	}
	taps, src := lm.taps[y*w:(y+1)*w], src[:lm.w*lm.h]
	if !st.noisy {
		lensRowEnc(dst[:3*w], taps, vig[:w], src, lm.w, st.enc)
		return
	}
	lensRow(dst[:3*w], taps, vig[:w], src, lm.w, st.lut.bucket, st.out, st.rowSeed(y))
}

// lensRowGo is lensRow in Go: each tap's bilinear blend of src (iw pixels wide), then develop's
// noisy channel lines, written out again here (as a function they are not inlined). It is the
// reference the assembly is tested against, and lensRow where there is no assembly.
func lensRowGo(dst []byte, taps []lensTap, vig []uint16, src []uint64, iw int, b *[3][linMax + 1]uint16, o *noiseOut, seed uint64) {
	dst, vig = dst[:3*len(taps)], vig[:len(taps)]
	var bits uint64
	for x, tp := range taps {
		p := tp.blend(src, iw)
		if x&3 == 0 { // 4 pixels' noise levels from one draw: 4 bits a channel
			seed, bits = splitmixStep(seed)
		}
		k, l := uint64(vig[x]), uint16(bits)
		bits >>= 16
		d := dst[3*x : 3*x+3 : 3*x+3]
		d[0] = o[0][(b[0][uint16((p&laneMask)*k>>resampledShift)]|l&(noiseLevels-1))&noiseMask]
		d[1] = o[1][(b[1][uint16((p>>laneShift&laneMask)*k>>resampledShift)]|l>>4&(noiseLevels-1))&noiseMask]
		d[2] = o[2][(b[2][uint16((p>>(2*laneShift))*k>>resampledShift)]|l>>8&(noiseLevels-1))&noiseMask]
	}
}

// blend is the tap's bilinear blend of src, the undistorted image iw pixels wide: its lanes
// scaled by 32 (the weights' sum).
func (tp lensTap) blend(src []uint64, iw int) uint64 {
	j := int(tp.idx)
	top, bot := src[j:j+2:j+2], src[j+iw:j+iw+2:j+iw+2]
	return top[0]*uint64(tp.w[0]) + top[1]*uint64(tp.w[1]) + bot[0]*uint64(tp.w[2]) + bot[1]*uint64(tp.w[3])
}

// lensRowEncGo is lensRowGo for a film without noise: each tap's bilinear blend of src,
// vignetted, indexes the film's table per channel. It is the reference lensRowEnc's assembly
// is tested against, and lensRowEnc's where there is none.
func lensRowEncGo(dst []byte, taps []lensTap, vig []uint16, src []uint64, iw int, e *encodeLUTs3) {
	dst, vig = dst[:3*len(taps)], vig[:len(taps)]
	_ = e[0][0]
	for x, tp := range taps {
		p, k := tp.blend(src, iw), uint64(vig[x])
		d := dst[3*x : 3*x+3 : 3*x+3]
		d[0] = e[0][uint16((p&laneMask)*k>>resampledShift)]
		d[1] = e[1][uint16((p>>laneShift&laneMask)*k>>resampledShift)]
		d[2] = e[2][uint16((p>>(2*laneShift))*k>>resampledShift)]
	}
}

// depthRow fills dr with output row y's depth through the lens: the nearest tap's (depth does
// not blend), +Inf where the lens sees nothing.
func (lm *lensMap) depthRow(dr, innerZ []float32, y int) {
	W, iw := len(dr), lm.w
	taps := lm.taps[y*W : (y+1)*W]
	for x, tp := range taps {
		w := tp.w
		if w == ([4]uint8{}) {
			dr[x] = inf32
			continue
		}
		// The nearest tap is the one of largest weight.
		j := int(tp.idx)
		if w[1]+w[3] >= 16 {
			j++
		}
		if w[2]+w[3] >= 16 {
			j += iw
		}
		dr[x] = innerZ[j]
	}
}
