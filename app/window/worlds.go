package window

import (
	"image"
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
type worldList struct {
	on   bool
	ids  []string // world ID per row after the first ("" for the automatic row)
	rows []button
}

// layout lists the worlds in a column at the right of the HUD.
func (l *worldList) layout(h *app.Host, cur *app.Sim, top int) {
	l.rows, l.ids = l.rows[:0], l.ids[:0]
	pinned := h.Pinned()
	labels := []string{autoWorld}
	l.ids = append(l.ids, "")
	for _, s := range h.Worlds() {
		labels = append(labels, worldLabel(s))
		l.ids = append(l.ids, s.ID)
	}
	w := 0
	for _, t := range labels {
		w = max(w, int(textWidth(t)))
	}
	y := top + lineHeight + 10
	for i, t := range labels {
		on := l.ids[i] == pinned
		if i > 0 && pinned == "" {
			on = false
		}
		if i > 0 && cur != nil && l.ids[i] == cur.ID && pinned != "" {
			on = true
		}
		l.rows = append(l.rows, button{label: t, r: image.Rect(8, y, 8+w+16, y+20), on: on})
		y += 22
	}
}

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
