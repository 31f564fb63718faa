package window

import (
	"fmt"
	"image"
	"slices"
	"strconv"

	"github.com/hajimehoshi/ebiten/v2"

	"simgui/app"
)

// autoWorld is the first row of the world list: the host chooses (the training episode while
// one runs, else the scenario).
const autoWorld = "automatic: the training episode while one runs, else the scenario"

// worldList lists the host's worlds — the scenario's and every training episode's (one per
// agent when agents are isolated) — so the user can watch any of them. Picking one makes it
// the host's active world: the bridge, /control and the recorder follow it too.
//
// A list longer than the window holds (256 isolated agents, 64 fast path envs) shows the rows
// that fit, from first on, and scrolls with the wheel: laid out whole, its rows ran under the
// toolbar and off the window, out of reach of the mouse.
type worldList struct {
	on    bool
	ids   []string // world ID per row shown ("" for the automatic row)
	rows  []button // the rows shown
	first int      // the index among all rows of the first row shown
	more  string   // says how many rows are above and below those shown, "" when all are
	box   image.Rectangle
	shown string // the world last scrolled into view
}

// worldRow is the height of a row of the list, and worldRowGap the space between rows.
const worldRow, worldRowGap = 20, 2

// layout lists the worlds in a column under the HUD (top), above bottom (the toolbar).
func (l *worldList) layout(h *app.Host, cur *app.Sim, top, bottom int) {
	pinned := h.Pinned()
	labels, ids := []string{autoWorld}, []string{""}
	for _, s := range h.Worlds() {
		labels = append(labels, worldLabel(s))
		ids = append(ids, s.ID)
	}
	curID := ""
	if cur != nil {
		curID = cur.ID
	}
	// Highlighted: the automatic row while the host chooses, else the pinned world and the
	// one on show.
	on := make([]bool, len(ids))
	for i, id := range ids {
		on[i] = (i == 0 && pinned == "") || (i > 0 && pinned != "" && (id == pinned || id == curID))
	}
	l.place(labels, ids, on, curID, top, bottom)
}

// place lays out the rows that fit between top and bottom, from l.first, the rows on says
// highlighted. When the world on show (cur) changed since the last layout, its row is
// scrolled into view, so that [ and ] move through a long list visibly.
func (l *worldList) place(labels, ids []string, on []bool, cur string, top, bottom int) {
	l.rows, l.ids, l.more = l.rows[:0], l.ids[:0], ""
	w := 0
	for _, t := range labels {
		w = max(w, int(textWidth(t)))
	}
	y := top + lineHeight + 10
	fit := max(1, (bottom-y)/(worldRow+worldRowGap))
	if len(labels) > fit {
		fit = max(1, fit-1) // a line under the rows says what is out of view
	}
	if cur != l.shown {
		l.shown = cur
		if i := slices.Index(ids, cur); i >= 0 && (i < l.first || i >= l.first+fit) {
			l.first = i - fit/2
		}
	}
	l.first = max(0, min(l.first, len(labels)-fit))
	end := min(len(labels), l.first+fit)
	for i := l.first; i < end; i++ {
		l.rows = append(l.rows, button{label: labels[i], r: image.Rect(8, y, 8+w+16, y+worldRow), on: on[i]})
		l.ids = append(l.ids, ids[i])
		y += worldRow + worldRowGap
	}
	l.box = image.Rect(8, top+lineHeight+10, 8+w+16, y)
	if above, below := l.first, len(labels)-end; above+below > 0 {
		l.more = fmt.Sprintf("%d more above, %d below: the wheel scrolls the list", above, below)
		l.box.Max.Y += lineHeight + 6
	}
}

// scroll moves the rows shown by n (down for n > 0); layout keeps them within the list.
func (l *worldList) scroll(n int) { l.first = max(0, l.first+n) }

// over reports whether (x, y) is on the list, where the wheel scrolls it rather than zooms.
func (l *worldList) over(x, y int) bool { return l.on && image.Pt(x, y).In(l.box) }

// worldLabel names a world in the list and the HUD.
func worldLabel(s *app.Sim) string {
	if s.Kind == app.KindScenario {
		return "scenario " + s.Label
	}
	return s.Label
}

// click picks the world under (x, y); it reports whether the click was on the list.
func (l *worldList) click(h *app.Host, x, y int) (picked string, ok bool) {
	for i := range l.rows {
		if image.Pt(x, y).In(l.rows[i].r) {
			return l.ids[i], true
		}
	}
	return "", false
}

func (l *worldList) draw(dst *ebiten.Image, b *batch, top int) {
	title := "World on show (the bridge, /control and recordings follow it)"
	b.rect(4, float32(top), textWidth(title)+16, lineHeight+6, panelBG)
	b.draw(dst)
	drawText(dst, title, 12, float32(top+2), textColor)
	drawButtons(dst, b, l.rows)
	if l.more != "" && len(l.rows) > 0 {
		y := l.rows[len(l.rows)-1].r.Max.Y + worldRowGap
		b.rect(8, float32(y), textWidth(l.more)+16, lineHeight+4, panelBG)
		b.draw(dst)
		drawText(dst, l.more, 16, float32(y+2), textColor)
	}
}

// pickWorld makes the world with id the active one ("" lets the host choose) and says so.
func (s *simScreen) pickWorld(id string) {
	if err := s.g.host.Pick(id); err != nil {
		s.status("world: " + err.Error())
		return
	}
	if id == "" {
		s.status("world: automatic")
		return
	}
	if w := s.g.host.World(id); w != nil {
		s.status("showing " + worldLabel(w))
	}
}

// cycleWorld shows the next (step 1) or previous (step -1) world.
func (s *simScreen) cycleWorld(step int) {
	ws := s.g.host.Worlds()
	if len(ws) < 2 {
		s.status("there is only one world (a training client's /reset adds its episode's)")
		return
	}
	i := 0
	for j, w := range ws {
		if w == s.g.cur {
			i = (j + step + len(ws)) % len(ws)
		}
	}
	s.pickWorld(ws[i].ID)
}

func (s *simScreen) toggleWorlds() {
	s.worlds.on = !s.worlds.on
	if s.worlds.on {
		s.spawnOn = false
	}
}

// worldHint tells how to see the others when there are several worlds.
func worldHint(h *app.Host) string {
	if n := len(h.Worlds()); n > 1 {
		return fmtCount(n)
	}
	return ""
}

func fmtCount(n int) string {
	return "   (" + strconv.Itoa(n) + " worlds: [ ] to switch, World… to pick)"
}
