package render

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
)

// Object is a dynamic thing drawn for one frame: a vehicle, a movable box, a marker. Its mesh
// is placed by the pose (the mesh frame's origin goes to X, Y, Z and its axes are turned by
// Yaw, Pitch, Roll as for a Camera) and lit by the Static's light. A nil Mesh is skipped.
type Object struct {
	Mesh *Mesh
	Pose
	// NoShadow keeps the object from casting a shadow in the realistic look (overlay markers).
	NoShadow bool
}

// Options configures a Renderer.
type Options struct {
	// Workers is how many goroutines share a frame's pixels: 0 means runtime.GOMAXPROCS(0),
	// 1 renders in the caller's goroutine only. A frame uses at most one worker per
	// MinPixelsPerWorker pixels, so small images never wait on goroutines.
	Workers int
	// MinPixelsPerWorker is the least work worth handing to another goroutine, in pixels;
	// 0 means 65536 (a 256×256 image, about 0.1 ms of work). Waking a parked goroutine on
	// another core took about 70 µs (median) on the 2-core VM this was tuned on, so smaller
	// frames are done sooner by one goroutine.
	MinPixelsPerWorker int
}

// tileRows is the height of the row bands workers take one at a time: small enough that a
// band's depth and colour rows stay in cache while all its triangles and its background are
// drawn, large enough that per-band overhead is nothing.
const tileRows = 16

// Renderer turns a Static scene, dynamic Objects and a Camera into a Frame. It keeps scratch
// buffers between frames (nothing is allocated per frame once sizes settle) and a fixed pool of
// Options.Workers−1 goroutines. One Renderer renders one frame at a time: Render must not be
// called concurrently on the same Renderer; use one Renderer per goroutine. Close it to stop
// its goroutines.
type Renderer struct {
	workers, minPixels int

	// Frame hand-off: Render sets up the frame, opens it and pokes the helpers; a helper
	// joins only while the frame is open (active counts those inside it), so a helper that
	// wakes late never holds the caller up: the caller draws whatever tiles are left, closes
	// the frame and waits only for helpers already drawing.
	wake   chan struct{} // buffered, one slot per helper; closed by Close
	open   atomic.Bool
	active atomic.Int32
	next   atomic.Int32 // next tile to draw in the current frame
	closed bool
	// fault is the first panic a band of the current frame raised, as an error: Render
	// returns it rather than let a helper goroutine take the process down.
	fault atomic.Pointer[error]

	fs       frameState
	cv       []cvert
	zbuf     []float32
	casters  []caster
	lverts   []lvert
	lodObjs  []Object // the frame's objects at their levels of detail (withLOD)
	nearObjs []Object // the frame's objects that may show in it (inView)
	// Scratch of the casters' floor shadows (setupFloorShadows): their vertices' shadows, a
	// part's and its hull, and a polygon as it is clipped.
	floorPts, hullIn, hull [][2]float64
	clipA, clipB           []cvert
	lenses                 lensCache
	// words is wordsFor as words (gainWords), made again when a camera's table differs (a
	// training camera's once per episode); both start as zeros, which agree.
	words    gainWords
	wordsFor GainTable
}

// gainWords returns t as words, kept from the last frame while t's content is the same.
func (r *Renderer) gainWords(t *GainTable) *gainWords {
	if r.wordsFor != *t {
		r.words.of(t)
		r.wordsFor = *t
	}
	return &r.words
}

// NewRenderer starts a renderer and its worker goroutines.
func NewRenderer(opts Options) *Renderer {
	r := &Renderer{workers: opts.Workers, minPixels: opts.MinPixelsPerWorker}
	if r.workers <= 0 {
		r.workers = runtime.GOMAXPROCS(0)
	}
	if r.minPixels <= 0 {
		r.minPixels = 65536
	}
	if r.workers > 1 {
		r.wake = make(chan struct{}, r.workers-1)
		for range r.workers - 1 {
			go r.helper()
		}
	}
	return r
}

// Workers is the number of goroutines (the caller's included) a large frame is spread over.
func (r *Renderer) Workers() int { return r.workers }

// Close stops the worker goroutines. The Renderer must not be used afterwards.
func (r *Renderer) Close() {
	if r.wake != nil && !r.closed {
		close(r.wake)
	}
	r.closed = true
}

func (r *Renderer) helper() {
	for range r.wake {
		r.active.Add(1)
		// Sequentially consistent atomics: either this sees the frame closed, or the caller
		// sees this helper active and waits for it.
		if r.open.Load() {
			r.drawTilesGuarded()
		}
		r.active.Add(-1)
	}
}

// ErrClosed is returned by Render after Close.
var ErrClosed = errors.New("render: renderer closed")

// Render draws static and dyn as cam sees them into dst, which must be cam.Width × cam.Height;
// only the buffers dst has (RGB, Depth) are drawn. The output depends only on the inputs, not
// on the number of workers: each pixel row is computed the same way whichever goroutine draws
// it. Render returns an error for an invalid camera, a mismatched frame or a nil static, and
// for a fault of the renderer's own (a bug): then the frame is not to be used.
func (r *Renderer) Render(dst *Frame, cam Camera, static *Static, dyn []Object) (err error) {
	defer func() {
		f := r.fault.Swap(nil) // taken either way: a fault is the frame's, never the next one's
		if p := recover(); p != nil {
			err = faultError(p)
		} else if f != nil {
			err = *f
		} else {
			return
		}
		// What the frame left in the scratch state is not to be trusted: start afresh.
		r.fs = frameState{}
	}()
	if r.closed {
		return ErrClosed
	}
	if err := cam.Validate(); err != nil {
		return fmt.Errorf("render: %w", err)
	}
	if static == nil {
		return errors.New("render: nil Static (build one with NewStatic)")
	}
	if dst == nil {
		return errors.New("render: nil Frame (make one with NewFrame)")
	}
	w, h := cam.Width, cam.Height
	if dst.Width != w || dst.Height != h ||
		(dst.RGB != nil && len(dst.RGB) != w*h*3) || (dst.Depth != nil && len(dst.Depth) != w*h) {
		return fmt.Errorf("render: frame %dx%d (rgb %d bytes, depth %d values) does not fit camera %dx%d; use NewFrame",
			dst.Width, dst.Height, len(dst.RGB), len(dst.Depth), w, h)
	}
	if dst.RGB == nil && dst.Depth == nil {
		return nil
	}
	fs := &r.fs
	fs.w, fs.h = w, h
	fs.rgb = dst.RGB
	fs.depth = dst.Depth != nil
	fs.gains = cam.Gains
	if static.env.Realistic || cam.Lens.distorted() || cam.Film != nil {
		r.renderReal(dst, &cam, static, dyn) // with depth buffers of its own (a big frame's borrowed)
		fs.rgb, fs.z, fs.gains = nil, nil, nil
		fs.background.clampNear(dst.Depth, fs.w, fs.h)
		return nil
	}
	if fs.depth {
		fs.z = dst.Depth // holds 1/depth while drawing, converted per band at the end
	} else {
		if cap(r.zbuf) < w*h {
			r.zbuf = make([]float32, w*h)
		}
		fs.z = r.zbuf[:w*h]
	}
	if cap(fs.cover) < h {
		fs.cover = make([]rowCover, h)
	}
	fs.cover = fs.cover[:h]
	fs.view = newView(&cam)
	dyn = r.withLOD(&cam, r.inView(dyn, nil))
	fs.static = static
	fs.background = newBackground(&fs.view, static, cam.Gains)
	if cam.Gains != nil {
		fs.background.words = r.gainWords(cam.Gains)
	}
	fs.tris = fs.tris[:0]
	r.setupStatic(static)
	for i := range dyn {
		if dyn[i].Mesh != nil {
			r.setupObject(&dyn[i], static)
		}
	}
	r.runPhase(h, w, (*frameState).drawBand)
	fs.rgb, fs.z, fs.gains = nil, nil, nil
	fs.background.clampNear(dst.Depth, fs.w, fs.h)
	return nil
}

// runPhase has fn draw rows 0..rows-1 of a w-pixel-wide image in bands of tileRows, spread over
// the workers, and returns when all are drawn.
func (r *Renderer) runPhase(rows, w int, fn func(fs *frameState, y0, y1 int)) {
	fs := &r.fs
	tiles := (rows + tileRows - 1) / tileRows
	n := r.phaseWorkers(rows, w)
	fs.tiles = int32(tiles)
	fs.phase = fn
	fs.phaseRows = rows
	r.next.Store(0)
	if n > 1 {
		r.open.Store(true)
		for range n - 1 {
			select {
			case r.wake <- struct{}{}:
			default: // a helper is already poked
			}
		}
	}
	r.drawTilesGuarded()
	if n > 1 {
		r.open.Store(false)
		for r.active.Load() != 0 {
			runtime.Gosched() // a helper is finishing its last band
		}
	}
}

// phaseWorkers is how many goroutines runPhase spreads rows of w pixels over.
func (r *Renderer) phaseWorkers(rows, w int) int {
	return min(r.workers, max(1, w*rows/r.minPixels), (rows+tileRows-1)/tileRows)
}

// drawTilesGuarded is drawTiles, with a panic kept as the frame's fault (the first one) and
// the bands left undrawn.
func (r *Renderer) drawTilesGuarded() {
	defer func() {
		if p := recover(); p != nil {
			err := faultError(p)
			r.fault.CompareAndSwap(nil, &err)
			r.next.Store(r.fs.tiles)
		}
	}()
	r.drawTiles()
}

// faultError describes panic p of the renderer, where it happened: called in the deferred
// function that recovered it, while the panicking frames are still on the stack.
func faultError(p any) error {
	pcs := make([]uintptr, 32)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	site, inRuntime := "", false
	for {
		f, more := frames.Next()
		if strings.HasPrefix(f.Function, "runtime.") {
			inRuntime = true
		} else if inRuntime {
			site = fmt.Sprintf(" in %s (%s:%d)", f.Function, f.File, f.Line)
			break
		}
		if !more {
			break
		}
	}
	return fmt.Errorf("render: internal fault drawing the frame (a bug; please report it with the scenario): %v%s", p, site)
}

// drawTiles draws bands until none is left; it runs on the caller and on helpers at once.
func (r *Renderer) drawTiles() {
	fs := &r.fs
	for {
		t := r.next.Add(1) - 1
		if t >= fs.tiles {
			return
		}
		y0 := int(t) * tileRows
		fs.phase(fs, y0, min(y0+tileRows, fs.phaseRows))
	}
}

// drawBand draws rows y0..y1-1 completely: triangles, then floor, sky and depth in metres.
func (fs *frameState) drawBand(y0, y1 int) {
	w := fs.w
	clear(fs.z[y0*w : y1*w])
	cover := fs.cover[y0:y1]
	for i := range cover {
		cover[i] = rowCover{lo: int32(w), hi: 0}
	}
	for i := range fs.tris {
		t := &fs.tris[i]
		if int(t.rowEnd) <= y0 || int(t.rowStart) >= y1 {
			continue
		}
		a, b := max(int(t.rowStart), y0), min(int(t.rowEnd), y1)
		fs.raster(t, a, b)
	}
	for y := y0; y < y1; y++ {
		fs.backgroundRow(y)
	}
}
