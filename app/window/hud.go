package window

import (
	"fmt"
	"image"
	"maps"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hajimehoshi/ebiten/v2"

	"simgui/app/world"
)

// toolbarHeight is the height of one row of the toolbar at the bottom of the window, pixels;
// a narrow window wraps the buttons onto more rows (layoutBar).
const toolbarHeight = 28

// button is a clickable label in the toolbar or a list.
type button struct {
	label  string
	r      image.Rectangle
	on     bool // drawn highlighted (a toggle that is on)
	action func()
}

// hit returns the button under (x, y), or nil.
func hit(bs []button, x, y int) *button {
	for i := range bs {
		if image.Pt(x, y).In(bs[i].r) {
			return &bs[i]
		}
	}
	return nil
}

// layoutBar places the toolbar's buttons left to right across the bottom of a w×h window,
// each as wide as its label plus padding, starting a new row where one is full, and returns
// the height of the bar.
func layoutBar(bs []button, w, h int) int {
	const pad, gap, rowGap = 6, 4, 3
	rowH := toolbarHeight - 2*rowGap
	var rows [][]int
	x := pad
	for i := range bs {
		bw := int(textWidth(bs[i].label)) + 16
		if len(rows) == 0 || (x+bw > w-pad && x > pad) {
			rows = append(rows, nil)
			x = pad
		}
		rows[len(rows)-1] = append(rows[len(rows)-1], i)
		bs[i].r = image.Rect(x, 0, x+bw, rowH)
		x += bw + gap
	}
	height := rowGap + len(rows)*(rowH+rowGap)
	for k, row := range rows {
		y := h - height + rowGap + k*(rowH+rowGap)
		for _, i := range row {
			bs[i].r = bs[i].r.Add(image.Pt(0, y))
		}
	}
	return height
}

// layoutRow places buttons left to right from (x, y), each as wide as its label plus padding.
func layoutRow(bs []button, x, y, h int) {
	for i := range bs {
		w := int(textWidth(bs[i].label)) + 16
		bs[i].r = image.Rect(x, y, x+w, y+h)
		x += w + 4
	}
}

var (
	colorButton   = rgba{0.20, 0.23, 0.28, 0.92}
	colorButtonOn = rgba{0.22, 0.45, 0.75, 0.95}
	colorBar      = rgba{0.06, 0.07, 0.09, 0.88}
)

// drawButtons draws a row or list of buttons.
func drawButtons(dst *ebiten.Image, b *batch, bs []button) {
	for _, bt := range bs {
		c := colorButton
		if bt.on {
			c = colorButtonOn
		}
		b.rect(float32(bt.r.Min.X), float32(bt.r.Min.Y), float32(bt.r.Dx()), float32(bt.r.Dy()), c)
	}
	b.draw(dst)
	for _, bt := range bs {
		drawText(dst, bt.label, float32(bt.r.Min.X+8), float32(bt.r.Min.Y+(bt.r.Dy()-lineHeight)/2), textColor)
	}
}

// hudLines formats the HUD: sim time and pace, tick and frame rates, and the selected robot
// with the readings of its range sensors (by sensor id, NaN before the first).
func hudLines(snap *world.Snapshot, selected string, tps, fps, chaseFPS float64, ranges map[string]float64) []string {
	pace := fmt.Sprintf("×%g", snap.TimeScale)
	if snap.TimeScale == 0 {
		pace = "as fast as possible"
	}
	first := []string{fmt.Sprintf("sim %.3f s", snap.SimTime.Seconds()), fmt.Sprintf("step %d", snap.Step), pace}
	// The factor measured while stepping: paused or in lockstep there is none, and one well
	// short of the pace asked for says the machine cannot keep up.
	switch {
	case snap.Paused:
		first = append(first, "PAUSED")
	case snap.Lockstep:
		first = append(first, "LOCKSTEP")
	case snap.TimeScale > 0 && snap.StepRateFactor(time.Now()) < 0.8*snap.TimeScale && snap.SimTime > 2*time.Second:
		first = append(first, fmt.Sprintf("real-time factor %.2f (cannot keep up)", snap.StepRateFactor(time.Now())))
	default:
		first = append(first, fmt.Sprintf("real-time factor %.2f", snap.StepRateFactor(time.Now())))
	}
	lines := []string{
		strings.Join(first, "   "),
		fmt.Sprintf("TPS %.0f   FPS %.0f", tps, fps),
	}
	if chaseFPS > 0 {
		lines[1] += fmt.Sprintf("   3D %.0f fps", chaseFPS)
	}
	if m, ok := snap.Model(selected); ok {
		lines = append(lines, fmt.Sprintf("%s  %s", m.Name, m.VehicleID))
		lines = append(lines, motionLines(&m)...)
		for _, id := range slices.Sorted(maps.Keys(ranges)) {
			if r := ranges[id]; math.IsNaN(r) {
				lines = append(lines, id+"  waiting for a reading")
			} else {
				lines = append(lines, fmt.Sprintf("%s  %.2f m", id, r))
			}
		}
	} else {
		lines = append(lines, "no robot selected (Tab or click one)")
	}
	return lines
}

// motionLines are the HUD's lines on where m is, how it moves and the command it obeys. A
// flying vehicle's speed is only its forward one, so its altitude, climb rate and vertical
// command get a line and a field of their own (a drone climbing at full rate read "speed 0.00"
// and "throttle +0.00").
func motionLines(m *world.ModelState) []string {
	x, y, yaw := unsigned0(m.Pose.X, 3), unsigned0(m.Pose.Y, 3), unsigned0(m.Pose.Yaw*180/math.Pi, 1)
	fwd, cmd := unsigned0(m.Forward, 2), &m.Command
	if !flies(m.Vehicle) {
		return []string{
			fmt.Sprintf("x %.3f  y %.3f  z %.2f m   yaw %.1f°   speed %.2f m/s", x, y, m.Pose.Z, yaw, fwd),
			fmt.Sprintf("throttle %+.2f  steer %+.2f  brake %.0f", cmd.Throttle, cmd.Steer, cmd.Brake),
		}
	}
	return []string{
		fmt.Sprintf("x %.3f  y %.3f   yaw %.1f°   speed %.2f m/s", x, y, yaw, fwd),
		fmt.Sprintf("altitude %.2f m   climb %+.2f m/s", m.Pose.Z, unsigned0(m.Climb, 2)),
		fmt.Sprintf("throttle %+.2f  steer %+.2f  vertical %+.2f  brake %.0f", cmd.Throttle, cmd.Steer, cmd.Vertical, cmd.Brake),
	}
}

// boxSize is the size of the panel drawBox draws for lines.
func boxSize(lines []string) (w, h float32) {
	for _, l := range lines {
		w = max(w, textWidth(l))
	}
	if len(lines) == 0 {
		return 0, 0
	}
	return w + 16, float32(len(lines)*lineHeight + 8)
}

// drawBox draws lines of text on a translucent panel at (x, y) and returns its size.
func drawBox(dst *ebiten.Image, b *batch, lines []string, x, y float32) (float32, float32) {
	w := float32(0)
	for _, l := range lines {
		w = max(w, textWidth(l))
	}
	h := float32(len(lines)*lineHeight + 8)
	b.rect(x, y, w+16, h, panelBG)
	b.draw(dst)
	for i, l := range lines {
		drawText(dst, l, x+8, y+4+float32(i*lineHeight), textColor)
	}
	return w + 16, h
}

// wrapLines breaks msg at spaces into lines no wider than width pixels (a word wider than
// that is broken where the line is full), at most maxLines of them, the last ending in "…"
// when more was left: an error naming every known track must not run off the window.
func wrapLines(msg string, width float32, maxLines int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(msg) {
		next := word
		if line != "" {
			next = line + " " + word
		}
		if textWidth(next) <= width {
			line = next
			continue
		}
		if line != "" {
			lines = append(lines, line)
		}
		for textWidth(word) > width {
			head := fitWidth(word, width)
			lines = append(lines, head)
			word = word[len(head):]
		}
		line = word
	}
	if line != "" {
		lines = append(lines, line)
	}
	if len(lines) > maxLines {
		lines = lines[:maxLines]
		lines[maxLines-1] = fitWidth(lines[maxLines-1], width-textWidth(" …")) + " …"
	}
	return lines
}

// fitWidth is the longest start of s no wider than width pixels, one rune at least.
func fitWidth(s string, width float32) string {
	end := len(s)
	for end > 0 && textWidth(s[:end]) > width {
		_, size := utf8.DecodeLastRuneInString(s[:end])
		end -= size
	}
	if end == 0 && s != "" {
		_, end = utf8.DecodeRuneInString(s)
	}
	return s[:end]
}

// helpText is the F1 overlay.
var helpText = strings.Split(strings.TrimSpace(`
Driving (selected robot)
  W / ↑   throttle forward        S / ↓   throttle back
  A / ←   steer left               D / →   steer right
  Space   brake                    Q / E   climb / sink (drones)
  Shift   drive gently (less throttle and steering)
  steering builds up as a key is held: a tap nudges, a second is full lock
Selecting and viewing
  Tab / Shift+Tab  next / previous robot     click  select a robot
  F  follow the selected robot     C  3D chase view
  V  sensor frusta    L  lidar rays    G  grid    M  markers
  H  the top-left box: one line / every detail
  drag  pan     wheel  zoom     click a camera panel  enlarge it
  in 3D: drag  turn the camera round the robot     wheel  nearer / farther
World
  P  pause / resume     N  one step (while paused)     R  reset, same seed
  +  faster     −  slower     0  real time (×1)
  I  spawn list: pick a plugin, then click in the world (it faces along a road or the route; drag to aim)
  Ctrl+O  open a scenario ("default": the default one)     Ctrl+S  save the world as a scenario
  [ / ]  previous / next world (training episodes)     World…  pick the world on show (the wheel scrolls it)
Window
  F1  this help     F2  next screen (editor)     F12  screenshot
  F9  record / stop: every topic to an MCAP file in --record-dir, which Foxglove opens
  editor: Ctrl+S save   Ctrl+Z / Ctrl+Y undo / redo   drag a static track's points on its view
  text fields: Ctrl+C / Ctrl+X / Ctrl+V copy / cut / paste   Ctrl+A select all   Tab next field
  Esc  close what is open (a long message, this help, an enlarged panel, the spawn list, World…)
  click a message  the whole of a long one / close it
`), "\n")

// unsigned0 is x, or 0 when it shows as zero with digits decimals: a robot at rest creeps by
// micrometres, and "-0.00" reads as a reverse.
func unsigned0(x float64, digits int) float64 {
	if math.Abs(x) < 0.5*math.Pow(10, -float64(digits)) {
		return 0
	}
	return x
}
