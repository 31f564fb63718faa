package window

import (
	"fmt"
	"image"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"simgui/app/transport"
	"simgui/app/world"
	"simgui/plugins"
)

// panels shows the live cameras (and depth cameras) of the selected robot in a column at the
// right of the window, each labelled with its sensor id and the rate frames arrive at; a click
// enlarges one. It also holds the lidar feeds whose rays the world view draws.
type panels struct {
	bus   *transport.Bus
	model string
	desc  *plugins.VehicleDescriptor
	lidar bool

	cams   []*feed
	lidars []*feed
	ranges []*feed         // range sensors (ultrasonic)
	imgs   []*ebiten.Image // per camera, nil until the first frame
	labels []string
	fitted []fittedLabel     // panelLabel's last answer per camera: measuring text costs
	rects  []image.Rectangle // per camera, in screen pixels

	enlarged int             // index of the enlarged camera, -1 for none
	big      image.Rectangle // where the enlarged one was drawn last, label included

	asked    pausedAt // the paused world's moment refreshPaused last asked readings of
	askedSet bool     // asked holds for the feeds open
}

// pausedAt is a moment of a paused world: its step and sim time.
type pausedAt struct {
	step uint64
	t    time.Duration
}

func newPanels() *panels { return &panels{enlarged: -1} }

// sync opens the feeds of model's sensors on bus, closing those of a previous robot or bus.
// It does nothing when nothing changed. Game goroutine.
func (p *panels) sync(bus *transport.Bus, model string, desc *plugins.VehicleDescriptor, lidar bool) {
	if bus == p.bus && model == p.model && desc == p.desc && lidar == p.lidar {
		return
	}
	p.close()
	p.askedSet = false
	p.bus, p.model, p.desc, p.lidar = bus, model, desc, lidar
	if bus == nil || model == "" {
		return
	}
	for _, s := range feedsFor(model, desc, lidar) {
		f := openFeed(bus, s.sensor, s.kind, s.topic, s.far)
		switch s.kind {
		case plugins.SensorLidar:
			p.lidars = append(p.lidars, f)
		case sensorUltrasonic:
			p.ranges = append(p.ranges, f)
		default:
			p.cams = append(p.cams, f)
		}
	}
	p.imgs = make([]*ebiten.Image, len(p.cams))
	p.labels = make([]string, len(p.cams))
	p.fitted = make([]fittedLabel, len(p.cams))
}

// refreshPaused asks a paused world, once for each moment it stands at, for the readings its
// feeds lack of that moment: a reset, a spawn or a single step while paused would otherwise
// leave the panels and range readouts on an earlier moment's (or on nothing) until it runs.
// Game goroutine.
func (p *panels) refreshPaused(loop *world.Loop, snap *world.Snapshot) {
	at := pausedAt{snap.Step, snap.SimTime}
	if loop == nil || !snap.Paused || (p.askedSet && p.asked == at) {
		return
	}
	p.asked, p.askedSet = at, true
	var topics []string
	for _, fs := range [][]*feed{p.cams, p.lidars, p.ranges} {
		for _, f := range fs {
			if t, ok := f.readingAt(); !ok || t != snap.SimTime {
				topics = append(topics, f.Topic)
			}
		}
	}
	if len(topics) > 0 {
		// An error says the loop has stopped: there is nothing to refresh.
		_ = loop.Do(func(w *world.World) {
			for _, t := range topics {
				w.Republish(t)
			}
		})
	}
}

// close closes every feed.
func (p *panels) close() {
	for _, f := range p.cams {
		f.close()
	}
	for _, f := range p.lidars {
		f.close()
	}
	for _, f := range p.ranges {
		f.close()
	}
	for _, img := range p.imgs {
		if img != nil {
			img.Deallocate()
		}
	}
	p.cams, p.lidars, p.ranges, p.imgs, p.labels, p.rects, p.fitted = nil, nil, nil, nil, nil, nil, nil
	p.bus, p.model, p.desc = nil, "", nil
	p.enlarged = -1
}

// update uploads new frames and refreshes the labels; paused says the world is paused, when
// the rate is not one (a decaying figure read as frames still coming). Game goroutine.
func (p *panels) update(now time.Time, paused bool) {
	for i, f := range p.cams {
		if fr := f.next(); fr != nil {
			if img := p.imgs[i]; img == nil || img.Bounds().Dx() != fr.W || img.Bounds().Dy() != fr.H {
				if img != nil {
					img.Deallocate()
				}
				p.imgs[i] = ebiten.NewImage(fr.W, fr.H)
			}
			p.imgs[i].WritePixels(fr.Pix)
			f.recycle(fr.Pix)
		}
		n, hz, err := f.status(now)
		name := p.model + "  " + f.Sensor // whose: robots of one kind have cameras of one name
		switch {
		case err != "":
			p.labels[i] = name + "  " + err
		case n == 0:
			p.labels[i] = name + "  waiting for frames"
		case paused:
			p.labels[i] = name + "  paused"
		default:
			// Frames per second of wall time: what the window gets (15 Hz of sim time at ×8
			// arrive at 120 a second).
			p.labels[i] = fmt.Sprintf("%s  %.1f frames/s", name, hz)
		}
	}
}

// rangeReadings returns the newest reading of each range sensor by sensor id (metres; NaN
// before the first).
func (p *panels) rangeReadings() map[string]float64 {
	out := make(map[string]float64, len(p.ranges))
	for _, f := range p.ranges {
		out[f.Sensor] = f.lastValue()
	}
	return out
}

// scans returns the newest scan of every lidar feed.
func (p *panels) scans() []*scan {
	var out []*scan
	for _, f := range p.lidars {
		if s := f.lastScan(); s != nil {
			out = append(out, s)
		}
	}
	return out
}

// layout places the panels in a column at the right of a w×h window, above the toolbar (bar
// pixels high).
func (p *panels) layout(w, h, bar int) {
	const margin, label, gap, maxW = 8, 18, 6, 320
	p.rects = p.rects[:0]
	if len(p.cams) == 0 {
		return
	}
	ratios := make([]float64, len(p.cams))
	sum := 0.0
	for i := range p.cams {
		ratios[i] = 0.75
		if img := p.imgs[i]; img != nil {
			ratios[i] = float64(img.Bounds().Dy()) / float64(img.Bounds().Dx())
		} else if p.desc != nil {
			cw, ch := sensorSize(p.desc, p.cams[i].Sensor)
			ratios[i] = float64(ch) / float64(cw)
		}
		sum += ratios[i]
	}
	avail := float64(h - 2*margin - bar - len(p.cams)*(label+gap))
	pw := min(float64(maxW), float64(w)/4, avail/sum)
	pw = max(pw, 80)
	x := w - margin - int(pw)
	y := margin
	for i := range p.cams {
		ph := int(pw * ratios[i])
		p.rects = append(p.rects, image.Rect(x, y, x+int(pw), y+label+ph))
		y += label + ph + gap
	}
}

// click handles a click at (x, y): it enlarges the panel under it, or shrinks the enlarged
// one. It reports whether the click was used.
func (p *panels) click(x, y int) bool {
	if p.enlarged >= 0 {
		p.enlarged = -1
		return true
	}
	pt := image.Pt(x, y)
	for i, r := range p.rects {
		if pt.In(r) {
			p.enlarged = i
			return true
		}
	}
	return false
}

// contains reports whether (x, y) is on a panel.
func (p *panels) contains(x, y int) bool {
	if p.enlarged >= 0 {
		return true
	}
	for _, r := range p.rects {
		if image.Pt(x, y).In(r) {
			return true
		}
	}
	return false
}

// draw draws the column.
func (p *panels) draw(dst *ebiten.Image, b *batch) {
	for i, r := range p.rects {
		if i == p.enlarged {
			continue
		}
		p.drawPanel(dst, b, i, r)
	}
}

// drawEnlarged draws the enlarged panel over the middle of the window between rows top and
// bottom (below the HUD, above the toolbar, which stay readable), dimming the rest.
func (p *panels) drawEnlarged(dst *ebiten.Image, b *batch, top, bottom int) {
	if p.enlarged >= 0 && p.enlarged < len(p.cams) {
		sw, sh := dst.Bounds().Dx(), dst.Bounds().Dy()
		ratio := 0.75
		if img := p.imgs[p.enlarged]; img != nil {
			ratio = float64(img.Bounds().Dy()) / float64(img.Bounds().Dx())
		}
		if bottom-top < sh/3 { // a HUD too tall to leave room: over the middle, as before
			top, bottom = 0, sh
		}
		avail := float64(bottom - top - 8)
		pw := max(32, min(float64(sw)*0.8, (avail-18)/ratio))
		ph := int(pw*ratio) + 18
		x, y := (sw-int(pw))/2, top+(bottom-top-ph)/2
		b.rect(0, 0, float32(sw), float32(sh), rgba{0, 0, 0, 0.45})
		b.draw(dst)
		p.big = image.Rect(x, y, x+int(pw), y+ph)
		p.drawPanel(dst, b, p.enlarged, p.big)
	}
}

// panelLabel is camera i's label fitted to width pixels: without the robot's name (the HUD
// names the selected robot) when that is too long, then cut.
func (p *panels) panelLabel(i int, width float32) string {
	f := &p.fitted[i]
	if f.label == p.labels[i] && f.width == width {
		return f.out
	}
	l := p.labels[i]
	if textWidth(l) > width {
		l = strings.TrimPrefix(l, p.model+"  ")
	}
	*f = fittedLabel{p.labels[i], width, fitText(l, width)}
	return f.out
}

// fittedLabel is a label as it was fitted to a width.
type fittedLabel struct {
	label string
	width float32
	out   string
}

func (p *panels) drawPanel(dst *ebiten.Image, b *batch, i int, r image.Rectangle) {
	const label = 18
	b.rect(float32(r.Min.X-2), float32(r.Min.Y-2), float32(r.Dx()+4), float32(r.Dy()+4), panelBG)
	b.draw(dst)
	drawText(dst, p.panelLabel(i, float32(r.Dx()-8)), float32(r.Min.X+4), float32(r.Min.Y), textColor)
	area := image.Rect(r.Min.X, r.Min.Y+label, r.Max.X, r.Max.Y)
	img := p.imgs[i]
	if img == nil {
		drawText(dst, "no image yet", float32(area.Min.X+8), float32(area.Min.Y+8), dimColor)
		return
	}
	op := &ebiten.DrawImageOptions{Filter: ebiten.FilterLinear}
	op.GeoM.Scale(float64(area.Dx())/float64(img.Bounds().Dx()), float64(area.Dy())/float64(img.Bounds().Dy()))
	op.GeoM.Translate(float64(area.Min.X), float64(area.Min.Y))
	dst.DrawImage(img, op)
}

// counts returns frames received and their rate per camera sensor (for the state hook).
func (p *panels) counts() (map[string]uint64, map[string]float64) {
	frames, rates := map[string]uint64{}, map[string]float64{}
	now := time.Now()
	for _, f := range p.cams {
		n, hz, _ := f.status(now)
		frames[f.Sensor], rates[f.Sensor] = n, hz
	}
	return frames, rates
}
