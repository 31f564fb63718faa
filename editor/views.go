package editor

import (
	"fmt"
	"image"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"

	"simgui/plugins"
)

// previewImages are the preview's images on the GPU, made on the game goroutine from the
// previewer's latest output.
type previewImages struct {
	out     *previewOut
	cams    [2]*ebiten.Image
	top     *ebiten.Image
	topGen  uint64 // gen of the output top was drawn from
	topRect image.Rectangle
	// trackView is the view top was last drawn with, when it shows a track (trackShown):
	// what maps the pointer to metres for a drag.
	trackView  topView
	trackShown bool
	// caption is the top view's caption and hints the hints drawn on it, for the state file.
	caption string
	hints   []string
	// zoom is the view the user zoomed and panned the track to, nil for the whole track;
	// zoomFor is the draft it was made for (another draft starts whole).
	zoom    *topView
	zoomFor *draft
	// pan is a pan of the zoomed view under way: where it started and the view then.
	pan *trackPan
	// held says why the preview is of the fields as they last read ("" when it is of them now).
	held string
}

// previewPanel lays out the preview window: the top-down view over the two rendered views.
func (e *Editor) previewPanel(ctx *debugui.Context, body image.Rectangle) {
	out := e.views.out
	ctx.SetGridLayout([]int{-1}, nil)
	rowH := 22
	topH := max(60, (body.Dy()-4*rowH)/2)
	caption := "Top-down"
	if e.views.trackShown && topH < compactTopH && e.d.track != nil && plugins.DescriptorIsLayout(e.d.track.Generator) {
		caption += ": drag points to move them (Shift: 1 cm), wheel: zoom" // not on the view, hiding them
	}
	if out != nil && out.gen != e.gen {
		caption += " (updating ...)"
	}
	e.views.caption = caption
	ctx.Text(caption)
	camH := max(60, body.Dy()-topH-4*rowH)
	ctx.SetGridLayout([]int{-1}, []int{topH})
	ctx.GridCell(func(b image.Rectangle) {
		e.views.topRect = b
		e.targets["preview:top"] = b.Intersect(e.clip)
		ctx.DrawOnlyWidget(func(dst *ebiten.Image) { drawFitted(dst, e.views.top, b) })
	})
	ctx.SetGridLayout([]int{-1, -1}, nil)
	for i := range 2 {
		label := ""
		if out != nil {
			label = out.views[i].label
		}
		ctx.Text(label)
	}
	ctx.SetGridLayout([]int{-1, -1}, []int{camH})
	for i := range 2 {
		ctx.GridCell(func(b image.Rectangle) {
			e.targets["preview:view"+itoa(i)] = b.Intersect(e.clip)
			ctx.DrawOnlyWidget(func(dst *ebiten.Image) { drawFitted(dst, e.views.cams[i], b) })
		})
	}
	ctx.SetGridLayout([]int{-1}, nil)
	if e.views.held != "" {
		ctx.Text(e.views.held)
	}
	if out != nil && out.note != "" {
		ctx.Text(out.note) // wrapped to the panel: an error is read whole
	}
}

// compactTopH is the height in pixels below which the track's top view has its hints in its
// caption rather than on it.
const compactTopH = 160

// updatePreview takes the previewer's newest output and redraws the top-down view when the
// output or its cell changed. Game goroutine.
func (e *Editor) updatePreview() {
	if out := e.preview.latest(); out != nil && out != e.views.out {
		e.views.out = out
		for i, v := range out.views {
			e.views.cams[i] = upload(e.views.cams[i], v.img)
		}
	}
	out := e.views.out
	r := e.views.topRect
	if out == nil || r.Dx() <= 0 || r.Dy() <= 0 {
		return
	}
	if e.views.top == nil || e.views.top.Bounds().Size() != r.Size() {
		if e.views.top != nil {
			e.views.top.Deallocate()
		}
		e.views.top = ebiten.NewImage(r.Dx(), r.Dy())
		e.views.topGen = 0
	}
	if e.views.topGen == out.gen {
		return
	}
	e.views.topGen = out.gen
	if out.layout != nil {
		keep := e.views.zoom
		if e.drag != nil {
			keep = &e.drag.view
		}
		e.views.trackView, e.views.trackShown = drawTrackTop(e.views.top, out.layout, keep), true
		// A short view (a laptop's screen) has the hints in its caption instead: three lines
		// of text hid a third of it, the spawn points' handles among them.
		compact := r.Dy() < compactTopH
		e.views.hints = e.views.hints[:0]
		if t := e.d.track; t != nil && plugins.DescriptorIsLayout(t.Generator) && !compact {
			e.views.hints = append(e.views.hints, "drag spawn points, waypoints and elements to move them (Shift: 1 cm steps)")
			e.views.trackView.label(e.views.hints[0], 6, float32(e.views.top.Bounds().Dy()-18), labelColor)
		}
		zoom := "wheel: zoom"
		if v := e.views.trackView; v.fitS > 0 && v.s > v.fitS*1.001 {
			zoom = fmt.Sprintf("×%.1f; wheel: zoom, drag the background: pan", v.s/v.fitS)
		} else if compact {
			zoom = ""
		}
		if zoom != "" {
			e.views.hints = append(e.views.hints, zoom)
			e.views.trackView.label(zoom, 6, 20, labelColor)
		}
	} else {
		e.views.trackShown = false
		drawVehicleTop(e.views.top, out.vehicle)
	}
}

// upload copies img into a GPU image, reusing old when it has the size.
func upload(old *ebiten.Image, img *image.RGBA) *ebiten.Image {
	if img == nil {
		return nil
	}
	if old == nil || old.Bounds().Size() != img.Bounds().Size() {
		if old != nil {
			old.Deallocate()
		}
		old = ebiten.NewImage(img.Bounds().Dx(), img.Bounds().Dy())
	}
	old.WritePixels(img.Pix)
	return old
}

// drawFitted draws img into r, scaled to fit and centred.
func drawFitted(dst, img *ebiten.Image, r image.Rectangle) {
	if img == nil || r.Empty() {
		return
	}
	iw, ih := img.Bounds().Dx(), img.Bounds().Dy()
	k := min(float64(r.Dx())/float64(iw), float64(r.Dy())/float64(ih))
	op := &ebiten.DrawImageOptions{Filter: ebiten.FilterLinear}
	op.GeoM.Scale(k, k)
	op.GeoM.Translate(float64(r.Min.X)+(float64(r.Dx())-k*float64(iw))/2, float64(r.Min.Y)+(float64(r.Dy())-k*float64(ih))/2)
	dst.DrawImage(img, op)
}
