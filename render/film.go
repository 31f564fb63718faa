package render

import (
	"fmt"
	"math"
	"sync"
)

// Film is how a camera turns light into pixels in the realistic pipeline, in this order, all in
// linear light: motion blur over the exposure (ShutterS), exposure and white balance gains,
// vignetting, clipping at full scale, Gaussian read noise plus shot noise (whose variance grows
// with the signal, as photon counts do), then the transfer curve to 8 bits. The zero Film is
// exposure 1, no noise, no vignetting, no blur, the sRGB curve.
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

// filmState is a film prepared for a frame: per-signal noise deviations and the transfer curve.
// What depends only on the film and the frame size is kept from frame to frame.
type filmState struct {
	enc   *encodeLUT
	noisy bool
	// sigma[s>>4] is the noise deviation at linear signal s (linOne units), times 1024.
	sigma    [linOne>>4 + 1]int32
	sigmaFor [2]float64 // the read and shot noise sigma was made for
	encGamma float64
	vig      []uint16 // per output pixel, linOne = no loss; nil: no vignetting
	vigFor   vigKey
	vigBuf   []uint16
	seed     uint64
}

type vigKey struct {
	w, h             int
	strength, cx, cy float64
}

// prepare sets fs up for film f on an output of w×h with principal point (cx, cy), reusing
// the vignette table when it fits.
func (st *filmState) prepare(f *Film, w, h int, cx, cy float64, seed uint64) {
	if st.enc == nil || f.Gamma != st.encGamma {
		st.enc, st.encGamma = encodeTable(f.Gamma), f.Gamma
	}
	st.seed = seed
	st.noisy = f.ReadNoise > 0 || f.ShotNoise > 0
	if st.noisy && st.sigmaFor != [2]float64{f.ReadNoise, f.ShotNoise} {
		st.sigmaFor = [2]float64{f.ReadNoise, f.ShotNoise}
		rn, sn := f.ReadNoise/255*linOne, f.ShotNoise/255*linOne
		for i := range st.sigma {
			s := float64(i<<4) / linOne
			st.sigma[i] = int32(math.Round(math.Sqrt(rn*rn+sn*sn*s) * 1024))
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

// normalBits is how many random bits pick a noise sample.
const normalBits = 12

// normal1024 holds the 2^12 quantiles of the standard normal distribution at
// (i + ½)/2^12, times 1024: a uniformly random index gives a Gaussian sample (to a 1/4096
// quantile step, tails cut at 3.6σ) from a table small enough to stay in the fastest cache.
var normal1024 = sync.OnceValue(func() *[1 << normalBits]int16 {
	var t [1 << normalBits]int16
	for i := range t {
		p := (float64(i) + 0.5) / (1 << normalBits)
		t[i] = int16(math.Round(1024 * math.Sqrt2 * math.Erfinv(2*p-1)))
	}
	return &t
})

// rowNoise returns the noise generator of output row y: frames with the same seed get the
// same noise whatever worker draws the row.
func (st *filmState) rowNoise(y int) splitmix64 {
	return splitmix64{st.seed ^ uint64(y+1)*0xa0761d6478bd642f}
}

// develop turns one output row of linear pixels (src, 3 values each) into 8-bit dst with
// vignetting, clipping, noise and the transfer curve.
func (st *filmState) develop(dst []byte, src []uint16, y, w int) {
	enc := st.enc
	var vig []uint16
	if st.vig != nil {
		vig = st.vig[y*w : y*w+w]
	}
	src, dst = src[:3*w], dst[:3*w]
	if !st.noisy && vig == nil {
		for i, v := range src {
			dst[i] = enc[min(v, linOne)]
		}
		return
	}
	if !st.noisy {
		for x, k := range vig {
			p := src[3*x : 3*x+3 : 3*x+3]
			d := dst[3*x : 3*x+3 : 3*x+3]
			kk := uint32(k)
			d[0] = enc[min(uint32(p[0])*kk>>linShift, linOne)]
			d[1] = enc[min(uint32(p[1])*kk>>linShift, linOne)]
			d[2] = enc[min(uint32(p[2])*kk>>linShift, linOne)]
		}
		return
	}
	tab := normal1024()
	sigma := &st.sigma
	g := st.rowNoise(y)
	const mask = 1<<normalBits - 1
	for x := range w {
		p := src[3*x : 3*x+3 : 3*x+3]
		d := dst[3*x : 3*x+3 : 3*x+3]
		k := uint32(linOne)
		if vig != nil {
			k = uint32(vig[x])
		}
		bits := g.next() // 12 bits a channel
		for c := range 3 {
			v := min(uint32(p[c])*k>>linShift, linOne)
			n := int32(int64(sigma[v>>4]) * int64(tab[bits&mask]) >> 20) // σ·1024 × N·1024 / 2^20
			bits >>= normalBits
			d[c] = enc[max(0, min(linOne, int32(v)+n))]
		}
	}
}
