package render

import "runtime"

// bigFramePixels is the output size from which a realistic frame borrows its per-pixel scratch
// (the linear drawing, its depth, the blurred copy, the shadow mask) from
// the process instead of keeping its own. A renderer keeps its scratch from frame to frame,
// and there is one per camera and world: 64 training worlds with 1920×1080 realistic
// cameras held about 70 MB each, though two cores draw two frames at a time. Small frames
// (the 84×84 a policy sees) keep theirs: they cost little and are drawn most often.
const bigFramePixels = 100_000

// frameScratch is a realistic frame's per-pixel scratch, swapped into a renderer for the frame.
type frameScratch struct {
	z                    []float32
	lin, blurred, rowTmp []uint64
	shade                []uint16
}

// bigFrames bounds how many big frames are drawn at once, so that the scratch alive is a few
// frames' whatever the number of renderers; bigScratch holds the scratch they lend, as many
// sets as frames may be drawn at once, kept from frame to frame (a sync.Pool would drop them
// at a garbage collection, to be made again at tens of megabytes each). A frame waits for a
// slot: the cores are busy drawing the others anyway.
var (
	bigFrames  = make(chan struct{}, max(2, runtime.GOMAXPROCS(0)))
	bigScratch = make(chan *frameScratch, cap(bigFrames))
)

// borrowScratch swaps borrowed scratch into r for a big frame; giveBack returns it.
func (r *Renderer) borrowScratch() *frameScratch {
	bigFrames <- struct{}{}
	var s *frameScratch
	select {
	case s = <-bigScratch:
	default:
		s = new(frameScratch)
	}
	r.swapScratch(s)
	return s
}

// giveBack swaps r's own scratch back in and returns s, borrowed by borrowScratch.
func (r *Renderer) giveBack(s *frameScratch) {
	r.swapScratch(s)
	// The frame's views into the scratch go with it.
	fs := &r.fs
	fs.z, fs.post.src, fs.post.innerZ = nil, nil, nil
	select {
	case bigScratch <- s: // room for it: there are no more sets than slots
	default:
	}
	<-bigFrames
}

// swapScratch exchanges r's per-pixel scratch with s's.
func (r *Renderer) swapScratch(s *frameScratch) {
	rf := &r.fs.real
	r.zbuf, s.z = s.z, r.zbuf
	rf.lin, s.lin = s.lin, rf.lin
	rf.blurred, s.blurred = s.blurred, rf.blurred
	rf.rowTmp, s.rowTmp = s.rowTmp, rf.rowTmp
	rf.shade, s.shade = s.shade, rf.shade
}
