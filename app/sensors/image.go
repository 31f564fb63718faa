package sensors

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"image"
	"image/png"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"simgui/app/sensors/jpegenc"
	"simgui/plugins"
)

// Image formats of a contract's camera and depth sensors (SensorDescriptor.Format).
const (
	FormatRaw        = "raw"         // camera: the pixels; depth: little-endian float32 metres
	FormatPNG        = "png"         // camera: 8-bit PNG; depth: 16-bit grey PNG in millimetres, 0 = no return
	FormatJPEG       = "jpeg"        // camera: a JPEG file
	FormatJPEGBase64 = "jpeg_base64" // camera: a JPEG file in standard base64, as rusim's API sends frames
	FormatFloat32    = "float32"     // depth: as raw
)

// Image is a frame drawn on request (System.Frame) in the sensor's contract format. Its
// buffers are reused by the next Frame call with the same Image: copy what you keep.
type Image struct {
	Width, Height int
	// Channels is 3 (R, G, B) or 1 (grey) for cameras, 1 for depth.
	Channels int
	// Format is the contract format Data is in.
	Format string
	// Pixels are a camera's 8-bit pixels, rows top first, Channels bytes per pixel; nil for depth.
	Pixels []byte
	// Depth holds planar depth in metres, rows top first, +Inf where nothing is hit; nil for
	// cameras.
	Depth []float32
	// Data is the frame in Format (see the Format constants).
	Data []byte
	// Step and Stamp are the step count and sim time the frame shows.
	Step  uint64
	Stamp time.Duration

	jpeg []byte
	b64  []byte
	raw  []byte
	png  bytes.Buffer
	img  image.NRGBA
	gray image.Gray
	g16  image.Gray16
}

var pngEncoder = png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &pngPool{}}

type pngPool struct{ p sync.Pool }

func (p *pngPool) Get() *png.EncoderBuffer {
	b, _ := p.p.Get().(*png.EncoderBuffer)
	return b
}
func (p *pngPool) Put(b *png.EncoderBuffer) { p.p.Put(b) }

// CheckCameraFormat returns an error for a format a camera contract may not declare
// (plugins.SensorFormats, which EncodeCamera encodes every one of).
func CheckCameraFormat(f string) error { return checkFormat(plugins.SensorCamera, f) }

// CheckDepthFormat returns an error for a format a depth contract may not declare
// (plugins.SensorFormats, which EncodeDepth encodes every one of).
func CheckDepthFormat(f string) error { return checkFormat(plugins.SensorDepth, f) }

func checkFormat(sensorType, f string) error {
	formats := plugins.SensorFormats(sensorType)
	if f == "" || slices.Contains(formats, f) {
		return nil
	}
	return fmt.Errorf("%s format %q: want one of %s", sensorType, f, strings.Join(formats, ", "))
}

// EncodeCamera fills dst.Data from dst.Pixels in dst.Format; quality is the JPEG quality.
func EncodeCamera(dst *Image, quality int, enc jpegenc.Encoder) error {
	n := dst.Width * dst.Height
	switch dst.Format {
	case FormatRaw:
		dst.Data = dst.Pixels[:n*dst.Channels]
		return nil
	case FormatPNG:
		dst.png.Reset()
		var err error
		if dst.Channels == 1 {
			dst.gray = image.Gray{Pix: dst.Pixels[:n], Stride: dst.Width, Rect: image.Rect(0, 0, dst.Width, dst.Height)}
			err = pngEncoder.Encode(&dst.png, &dst.gray)
		} else {
			rgbToNRGBA(&dst.img, dst.Pixels, dst.Width, dst.Height)
			err = pngEncoder.Encode(&dst.png, &dst.img)
		}
		dst.Data = dst.png.Bytes()
		return err
	case FormatJPEG, FormatJPEGBase64:
		pix, stride := dst.Pixels, 3*dst.Width
		if dst.Channels == 1 { // the encoders take RGB
			rgb := make([]byte, 3*n)
			for i, g := range dst.Pixels[:n] {
				rgb[3*i], rgb[3*i+1], rgb[3*i+2] = g, g, g
			}
			pix = rgb
		}
		var err error
		dst.jpeg, err = enc.Encode(dst.jpeg[:0], pix, dst.Width, dst.Height, stride, quality)
		if err != nil {
			return err
		}
		if dst.Format == FormatJPEG {
			dst.Data = dst.jpeg
			return nil
		}
		dst.b64 = base64.StdEncoding.AppendEncode(dst.b64[:0], dst.jpeg)
		dst.Data = dst.b64
		return nil
	}
	return CheckCameraFormat(dst.Format)
}

// EncodeDepth fills dst.Data from dst.Depth in dst.Format.
func EncodeDepth(dst *Image) error {
	n := dst.Width * dst.Height
	switch dst.Format {
	case FormatRaw, FormatFloat32:
		dst.raw = AppendFloat32s(dst.raw[:0], dst.Depth[:n])
		dst.Data = dst.raw
		return nil
	case FormatPNG:
		g := &dst.g16
		if len(g.Pix) != 2*n {
			*g = *image.NewGray16(image.Rect(0, 0, dst.Width, dst.Height))
		}
		for i, d := range dst.Depth[:n] {
			binary.BigEndian.PutUint16(g.Pix[2*i:], DepthMillimetres(d))
		}
		dst.png.Reset()
		err := pngEncoder.Encode(&dst.png, g)
		dst.Data = dst.png.Bytes()
		return err
	}
	return CheckDepthFormat(dst.Format)
}

// DepthMillimetres is a depth reading (metres) as 16-bit depth images carry it: whole
// millimetres up to 65535, 0 for no return (+Inf) and NaN.
func DepthMillimetres(d float32) uint16 {
	if math.IsInf(float64(d), 0) || math.IsNaN(float64(d)) {
		return 0
	}
	return uint16(max(0, min(math.Round(float64(d)*1000), 65535)))
}

// AppendFloat32s appends little-endian float32s (the layout of R_FLOAT32 images).
func AppendFloat32s(dst []byte, v []float32) []byte {
	for _, f := range v {
		dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(f))
	}
	return dst
}

// rgbToNRGBA copies packed RGB into an opaque NRGBA image, reusing its buffer.
func rgbToNRGBA(img *image.NRGBA, rgb []byte, w, h int) {
	if len(img.Pix) != 4*w*h {
		*img = *image.NewNRGBA(image.Rect(0, 0, w, h))
	}
	for i := range w * h {
		img.Pix[4*i], img.Pix[4*i+1], img.Pix[4*i+2], img.Pix[4*i+3] = rgb[3*i], rgb[3*i+1], rgb[3*i+2], 255
	}
}

// Gray converts packed RGB to 8-bit luma (ITU-R BT.601 weights) in place: the first w·h bytes
// of pix become the grey image.
func Gray(pix []byte, n int) []byte {
	for i := range n {
		r, g, b := uint32(pix[3*i]), uint32(pix[3*i+1]), uint32(pix[3*i+2])
		pix[i] = uint8((19595*r + 38470*g + 7471*b + 1<<15) >> 16)
	}
	return pix[:n]
}

// noiseTableBits sizes the tables image noise is drawn from.
const noiseTableBits = 16

// normalTable holds 2^16 standard normal samples, the same in every process: image noise looks
// Gaussian to anyone but a cryptographer, and a table lookup per pixel is what makes noisy
// 640×480 frames affordable (a NormFloat64 per channel would cost about 10 ms a frame).
var normalTable = sync.OnceValue(func() []float64 {
	r := rand.New(rand.NewPCG(0x5ee4_7a61e, 0x9a55_1a4))
	t := make([]float64, 1<<noiseTableBits)
	for i := range t {
		t[i] = r.NormFloat64()
	}
	return t
})

// PixelNoise adds Gaussian noise (Mean + Stddev·N(0, 1), in 0..255 intensity units, rounded)
// to 8-bit pixels, each channel of each pixel independently, clamped to 0..255. The samples
// come from a fixed table of normal variates indexed by a generator seeded per frame, so a
// frame's noise depends only on its seed.
type PixelNoise struct{ tab []int16 }

// NewPixelNoise returns the pixel noise of n, or nil when n is off.
func NewPixelNoise(n Noise) *PixelNoise {
	if !n.On() {
		return nil
	}
	p := &PixelNoise{tab: make([]int16, 1<<noiseTableBits)}
	for i, z := range normalTable() {
		p.tab[i] = int16(max(-32767, min(32767, math.Round(n.Mean+n.Stddev*z))))
	}
	return p
}

// Apply adds the noise of the frame with seed to pix.
func (p *PixelNoise) Apply(pix []byte, seed uint64) {
	if p == nil {
		return
	}
	g := splitmix{seed}
	var bits uint64
	for i := range pix {
		if i&3 == 0 {
			bits = g.next()
		}
		v := int32(pix[i]) + int32(p.tab[uint16(bits)])
		bits >>= 16
		pix[i] = uint8(max(0, min(255, v)))
	}
}

// DepthNoise adds Gaussian noise (Mean + Stddev·N(0, 1) metres) to finite depths, drawn like
// PixelNoise from a fixed table indexed by a generator seeded per frame.
type DepthNoise struct{ tab []float32 }

// NewDepthNoise returns the depth noise of n, or nil when n is off.
func NewDepthNoise(n Noise) *DepthNoise {
	if !n.On() {
		return nil
	}
	p := &DepthNoise{tab: make([]float32, 1<<noiseTableBits)}
	for i, z := range normalTable() {
		p.tab[i] = float32(n.Mean + n.Stddev*z)
	}
	return p
}

// Apply adds the noise of the frame with seed to the finite depths, keeping them >= 0.
func (p *DepthNoise) Apply(depth []float32, seed uint64) {
	if p == nil {
		return
	}
	g := splitmix{seed}
	var bits uint64
	for i, d := range depth {
		if i&3 == 0 {
			bits = g.next()
		}
		k := uint16(bits)
		bits >>= 16
		if !math.IsInf(float64(d), 0) {
			depth[i] = max(0, d+p.tab[k])
		}
	}
}

// splitmix is SplitMix64, a tiny generator good enough to index a noise table.
type splitmix struct{ s uint64 }

func (g *splitmix) next() uint64 {
	g.s += 0x9e3779b97f4a7c15
	z := g.s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// turbo is the Turbo colormap (Anton Mikhailov, Google, 2019), from the published polynomial
// fit of Ruofei Du (Apache-2.0), sampled at 256 points: dark blue (0) to dark red (1).
var turbo = sync.OnceValue(func() [256][3]uint8 {
	r := [6]float64{0.13572138, 4.61539260, -42.66032258, 132.13108234, -152.94239396, 59.28637943}
	g := [6]float64{0.09140261, 2.19418839, 4.84296658, -14.18503333, 4.27729857, 2.82956604}
	b := [6]float64{0.10667330, 12.64194608, -60.58204836, 110.36276771, -89.90310912, 27.34824973}
	poly := func(c [6]float64, x float64) uint8 {
		v := c[5]
		for i := 4; i >= 0; i-- {
			v = v*x + c[i]
		}
		return uint8(math.Round(255 * max(0, min(1, v))))
	}
	var t [256][3]uint8
	for i := range t {
		x := float64(i) / 255
		t[i] = [3]uint8{poly(r, x), poly(g, x), poly(b, x)}
	}
	return t
})

// DepthColor false-colours depth for viewing: Turbo from blue at near to red at far, black
// where nothing was hit (+Inf) or the depth is not a number.
func DepthColor(dst *image.NRGBA, depth []float32, w, h int, near, far float64) {
	if len(dst.Pix) != 4*w*h {
		*dst = *image.NewNRGBA(image.Rect(0, 0, w, h))
	}
	t := turbo()
	span := far - near
	if !(span > 0) {
		span = 1
	}
	for i, d := range depth[:w*h] {
		p := dst.Pix[4*i : 4*i+4 : 4*i+4]
		if math.IsInf(float64(d), 0) || math.IsNaN(float64(d)) {
			p[0], p[1], p[2], p[3] = 0, 0, 0, 255
			continue
		}
		k := int(math.Round(255 * max(0, min(1, (float64(d)-near)/span))))
		p[0], p[1], p[2], p[3] = t[k][0], t[k][1], t[k][2], 255
	}
}
