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
	enc    *encodeLUTs3
	bucket *[3][linMax + 1]uint16
	out    *noiseOut
}

// encodeLUTs3 is a film's transfer without noise, per channel.
type encodeLUTs3 [3][linMax + 1]uint8

// noiseOut is a film's bucket|level to byte table, the same for each channel (the camera's
// GainTable makes them differ; one array, so that a pixel's three lookups share a register).
type noiseOut [3][noiseBuckets * noiseLevels]uint8

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

// maxFilmLUTs bounds the films whose tables are kept (about 450 kB each): a camera keeps its
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
		t.enc = new(encodeLUTs3)
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
		t.out = new(noiseOut)
		for b := range noiseBuckets {
			s := decodeCurve(f.Gamma, float64(b)/(noiseBuckets-1)) * linOne
			sigma := math.Sqrt(rn*rn + sn*sn*s/linOne)
			for i, n := range q {
				t.out[0][b*noiseLevels+i] = enc[int(clampTo(math.Round(s+sigma*n), 0, linOne))]
			}
		}
	}
	if t.noisy {
		t.out[1], t.out[2] = t.out[0], t.out[0]
	}
	if filmLUTs.m == nil || len(filmLUTs.m) >= maxFilmLUTs {
		filmLUTs.m = map[filmKey]*filmLUT{}
	}
	filmLUTs.m[k] = t
	return t
}
