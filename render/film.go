package render

import (
	"fmt"
	"math"
	"sync"
)

// Film is how a camera turns light into pixels in the realistic pipeline, in this order, all in
// linear light: motion blur over the exposure (ShutterS), vignetting, exposure and white
// balance gains, clipping at full scale, Gaussian read noise plus shot noise (whose variance
// grows with the signal, as photon counts do), then the transfer curve to 8 bits. The zero Film
// is exposure 1, no noise, no vignetting, no blur, the sRGB curve.
//
// The last four steps are one table lookup per channel (two with noise), made once per film:
// the noise takes one of 16 equally likely levels per channel (the normal distribution's
// quantiles, scaled to its variance), and the signal is bucketed to a quarter of an output
// level before the noise is added.
type Film struct {
	// Exposure multiplies the light; 0 means 1.
	Exposure float64
	// WhiteBalance multiplies each channel (R, G, B); zero means {1, 1, 1}.
	WhiteBalance [3]float64
	// Vignette darkens towards the corners: light falls by Vignette·(r/R)², r the distance
	// from the principal point and R the half diagonal (0..1).
	Vignette float64
	// ReadNoise is the standard deviation of the Gaussian read noise, in linear 0..255 units
	// (255 = full scale).
	ReadNoise float64
	// ShotNoise is the standard deviation of the shot noise at full scale in linear 0..255
	// units; at signal s (0..1) it is ShotNoise·√s.
	ShotNoise float64
	// Gamma is the transfer curve: 0 is sRGB, otherwise the power law v^(1/Gamma).
	Gamma float64
	// ShutterS is the exposure time in seconds over which the camera's Motion blurs the frame
	// (0: no blur).
	ShutterS float64
}

// Validate reports what is wrong with f, if anything.
func (f *Film) Validate() error {
	for _, x := range []float64{f.Exposure, f.WhiteBalance[0], f.WhiteBalance[1], f.WhiteBalance[2], f.Vignette, f.ReadNoise, f.ShotNoise, f.Gamma, f.ShutterS} {
		if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
			return fmt.Errorf("film %+v: want finite, non-negative numbers", *f)
		}
	}
	switch {
	case f.Exposure > 64:
		return fmt.Errorf("film exposure %g: want at most 64", f.Exposure)
	case f.Vignette > 1:
		return fmt.Errorf("film vignette %g: want 0..1", f.Vignette)
	case f.ReadNoise > 255 || f.ShotNoise > 255:
		return fmt.Errorf("film noise %g, %g: want 0..255", f.ReadNoise, f.ShotNoise)
	case f.Gamma != 0 && (f.Gamma < 0.2 || f.Gamma > 5):
		return fmt.Errorf("film gamma %g: want 0 (sRGB) or 0.2..5", f.Gamma)
	case f.ShutterS > 1:
		return fmt.Errorf("film shutter %g s: want at most 1 s", f.ShutterS)
	}
	for _, g := range f.WhiteBalance {
		if g > 16 {
			return fmt.Errorf("film white balance %v: want gains up to 16", f.WhiteBalance)
		}
	}
	return nil
}

// gains returns exposure × white balance per channel.
func (f *Film) gains() [3]float64 {
	e := f.Exposure
	if e == 0 {
		e = 1
	}
	wb := f.WhiteBalance
	if wb == ([3]float64{}) {
		wb = [3]float64{1, 1, 1}
	}
	return [3]float64{e * wb[0], e * wb[1], e * wb[2]}
}

// filmState is a film prepared for a frame: its tables and the vignette. What depends only on
// the film and the frame size is kept from frame to frame.
type filmState struct {
	lut    *filmLUT
	vig    []uint16 // per output pixel, linOne = no loss; nil: no vignetting
	vigFor vigKey
	vigBuf []uint16
	flat   []uint16 // linOne per pixel of a row: the vignette of a film without one
	seed   uint64
}

type vigKey struct {
	w, h             int
	strength, cx, cy float64
}

// prepare sets fs up for film f on an output of w×h with principal point (cx, cy), reusing
// the vignette table when it fits.
func (st *filmState) prepare(f *Film, w, h int, cx, cy float64, seed uint64) {
	st.lut = filmTable(f)
	st.seed = seed
	if st.lut.noisy && len(st.flat) < w {
		st.flat = make([]uint16, w)
		for i := range st.flat {
			st.flat[i] = linOne
		}
	}
	if f.Vignette <= 0 {
		st.vig = nil
		return
	}
	k := vigKey{w: w, h: h, strength: f.Vignette, cx: cx, cy: cy}
	if k == st.vigFor && st.vigBuf != nil {
		st.vig = st.vigBuf
		return
	}
	n := w * h
	if cap(st.vigBuf) < n {
		st.vigBuf = make([]uint16, n)
	}
	st.vigBuf, st.vigFor = st.vigBuf[:n], k
	r2 := (float64(w)*float64(w) + float64(h)*float64(h)) / 4
	for y := range h {
		for x := range w {
			dx, dy := float64(x)+0.5-cx, float64(y)+0.5-cy
			st.vigBuf[y*w+x] = uint16(math.Round(linOne * math.Max(0, 1-f.Vignette*(dx*dx+dy*dy)/r2)))
		}
	}
	st.vig = st.vigBuf
}

// rowNoise returns the noise generator of output row y: frames with the same seed get the
// same noise whatever worker draws the row.
func (st *filmState) rowNoise(y int) splitmix64 {
	return splitmix64{st.seed ^ uint64(y+1)*0xa0761d6478bd642f}
}

// develop turns one output row of packed linear pixels (src) into 8-bit dst with
// vignetting, gains, clipping, noise and the transfer curve. Channels are at most linMax and
// the vignette at most linOne, so a vignetted channel is a uint16 and indexes the tables as it
// is.
func (st *filmState) develop(dst []byte, src []uint64, y, w int) {
	lut := st.lut
	var vig []uint16
	if st.vig != nil {
		vig = st.vig[y*w : y*w+w]
	}
	src, dst = src[:w], dst[:3*w]
	switch {
	case !lut.noisy && vig == nil:
		enc := lut.enc
		for x, p := range src {
			d := dst[3*x : 3*x+3 : 3*x+3]
			d[0], d[1], d[2] = enc[0][uint16(p)], enc[1][uint16(p>>laneShift)], enc[2][uint16(p>>(2*laneShift))]
		}
	case !lut.noisy:
		enc := lut.enc
		vig = vig[:len(src)]
		for x, p := range src {
			k := uint64(vig[x])
			d := dst[3*x : 3*x+3 : 3*x+3]
			d[0] = enc[0][uint16((p&laneMask)*k>>linShift)]
			d[1] = enc[1][uint16((p>>laneShift&laneMask)*k>>linShift)]
			d[2] = enc[2][uint16((p>>(2*laneShift))*k>>linShift)]
		}
	default:
		bucket, out := lut.bucket, &lut.out
		g := st.rowNoise(y)
		var bits uint64
		left := 0
		if vig == nil {
			vig = st.flat
		}
		vig = vig[:len(src)]
		for x, p := range src {
			if left == 0 { // 5 pixels' worth of noise levels from one draw
				bits, left = g.next(), 5
			}
			left--
			k, l := uint64(vig[x]), uint16(bits)
			bits >>= 12
			d := dst[3*x : 3*x+3 : 3*x+3]
			d[0] = out[(bucket[0][uint16((p&laneMask)*k>>linShift)]|l&(noiseLevels-1))&noiseMask]
			d[1] = out[(bucket[1][uint16((p>>laneShift&laneMask)*k>>linShift)]|l>>4&(noiseLevels-1))&noiseMask]
			d[2] = out[(bucket[2][uint16((p>>(2*laneShift))*k>>linShift)]|l>>8&(noiseLevels-1))&noiseMask]
		}
	}
}

// The noise: the signal after gains (clipped) falls in one of noiseBuckets buckets spread
// evenly over the transfer curve's output (a quarter of an output level each), and a random
// one of noiseLevels levels picks the noise, so that out[bucket|level] is the bucket's signal
// plus its read and shot noise at that level, clipped and encoded.
const (
	noiseLevels  = 16
	noiseBuckets = 1024
	// noiseMask keeps a bucket|level index inside the table (and tells the compiler so).
	noiseMask = noiseBuckets*noiseLevels - 1
	// bucketSteps is the resolution of the gain-free bucket table: quarters of a linear unit,
	// finer than a bucket near black (where sRGB is steepest).
	bucketSteps = 4
)

// filmLUT is a film's transfer from a vignetted channel (linOne units, any uint16) to a byte:
// per channel, enc (without noise) gives the byte, with exposure and white balance, clipping
// and the curve; with noise, bucket gives the bucket (times noiseLevels) of the signal after
// gains and clipping, and out a bucket|level's byte.
type filmLUT struct {
	noisy  bool
	enc    *[3][linMax + 1]uint8
	bucket *[3][linMax + 1]uint16
	out    [noiseBuckets * noiseLevels]uint8
}

type filmKey struct {
	gamma, read, shot float64
	gains             [3]float64
}

var filmLUTs struct {
	sync.Mutex
	m       map[filmKey]*filmLUT
	buckets map[float64][]uint16 // per gamma: linear signal in 1/bucketSteps units to bucket
}

// noiseQuantiles are the midpoints of noiseLevels equally likely slices of the standard
// normal distribution, scaled to unit variance.
var noiseQuantiles = sync.OnceValue(func() (q [noiseLevels]float64) {
	ss := 0.0
	for i := range q {
		p := (float64(i) + 0.5) / noiseLevels
		q[i] = math.Sqrt2 * math.Erfinv(2*p-1)
		ss += q[i] * q[i]
	}
	k := math.Sqrt(noiseLevels / ss)
	for i := range q {
		q[i] *= k
	}
	return q
})

// maxFilmLUTs bounds the films whose tables are kept (about 400 kB each): a camera keeps its
// film, and randomized films change once per reset.
const maxFilmLUTs = 16

// filmTable returns film f's tables, cached.
func filmTable(f *Film) *filmLUT {
	k := filmKey{gamma: f.Gamma, read: f.ReadNoise, shot: f.ShotNoise, gains: f.gains()}
	filmLUTs.Lock()
	defer filmLUTs.Unlock()
	if t := filmLUTs.m[k]; t != nil {
		return t
	}
	t := &filmLUT{noisy: f.ReadNoise > 0 || f.ShotNoise > 0}
	if !t.noisy {
		enc := encodeTable(f.Gamma)
		t.enc = new([3][linMax + 1]uint8)
		for c, g := range k.gains {
			for v := range t.enc[c] {
				t.enc[c][v] = enc[uint16(min(linOne, math.Round(float64(v)*g)))]
			}
		}
	} else {
		b0 := filmLUTs.buckets[f.Gamma]
		if b0 == nil {
			b0 = make([]uint16, bucketSteps*linOne+1)
			for i := range b0 {
				b0[i] = uint16(math.Round(encodeCurve(f.Gamma, float64(i)/(bucketSteps*linOne))*(noiseBuckets-1))) * noiseLevels
			}
			if filmLUTs.buckets == nil || len(filmLUTs.buckets) >= maxFilmLUTs {
				filmLUTs.buckets = map[float64][]uint16{}
			}
			filmLUTs.buckets[f.Gamma] = b0
		}
		t.bucket = new([3][linMax + 1]uint16)
		for c, g := range k.gains {
			for v := range t.bucket[c] {
				t.bucket[c][v] = b0[int(min(bucketSteps*linOne, math.Round(float64(v)*g*bucketSteps)))]
			}
		}
		enc := encodeTable(f.Gamma)
		rn, sn := f.ReadNoise/255*linOne, f.ShotNoise/255*linOne
		q := noiseQuantiles()
		for b := range noiseBuckets {
			s := decodeCurve(f.Gamma, float64(b)/(noiseBuckets-1)) * linOne
			sigma := math.Sqrt(rn*rn + sn*sn*s/linOne)
			for i, n := range q {
				t.out[b*noiseLevels+i] = enc[int(clampTo(math.Round(s+sigma*n), 0, linOne))]
			}
		}
	}
	if filmLUTs.m == nil || len(filmLUTs.m) >= maxFilmLUTs {
		filmLUTs.m = map[filmKey]*filmLUT{}
	}
	filmLUTs.m[k] = t
	return t
}
