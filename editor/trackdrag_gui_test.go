package editor

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// TestEditorTrackDrag drags the new track's spawn point and a waypoint on the top-down view:
// each follows the pointer, snapped to 5 cm, and its fields read where it went.
func TestEditorTrackDrag(t *testing.T) {
	g, s := newTrackEditor(t)
	moved := regexp.MustCompile(`^moved (\S+) to \((-?[0-9.]+), (-?[0-9.]+)\)$`)
	drag := func(name string, dx, dy int) (float64, float64) {
		t.Helper()
		from := s.Handles[name]
		to := [2]int{from[0] + dx, from[1] + dy}
		g.moveTo(from[0], from[1])
		g.xdo("mousedown", "1")
		g.wait("the drag of "+name, 10*time.Second, func(st State) bool { return st.Dragging == name })
		g.moveTo(from[0]+dx/2, from[1]+dy/2)
		g.moveTo(to[0], to[1])
		g.xdo("mouseup", "1")
		s = g.wait("the drop of "+name, 10*time.Second, func(st State) bool { return st.Dragging == "" && moved.MatchString(st.Status) })
		m := moved.FindStringSubmatch(s.Status)
		x, _ := strconv.ParseFloat(m[2], 64)
		y, _ := strconv.ParseFloat(m[3], 64)
		if m[1] != name {
			t.Errorf("dragged %s, the status says %q", name, s.Status)
		}
		// On the grid, and where the pointer let go (within the snap, a few pixels).
		for _, c := range []float64{x, y} {
			if r := math.Abs(c/dragSnap - math.Round(c/dragSnap)); r > 1e-6 {
				t.Errorf("%s dropped at %v, off the %g m grid", name, c, dragSnap)
			}
		}
		s = g.wait(name+" drawn where it went", 10*time.Second, func(st State) bool { return st.PreviewGen == st.Gen })
		if at := s.Handles[name]; math.Hypot(float64(at[0]-to[0]), float64(at[1]-to[1])) > 8 {
			t.Errorf("%s let go at %v, now at %v", name, to, at)
		}
		return x, y
	}
	x, y := drag("spawn[0]", 60, -30)
	g.click("button:tab:spawns")
	s = g.wait("the spawn fields", 5*time.Second, func(st State) bool { _, ok := st.Values["field:descriptor.spawnPoints[0].x"]; return ok })
	if s.Values["field:descriptor.spawnPoints[0].x"] != num(x) || s.Values["field:descriptor.spawnPoints[0].y"] != num(y) {
		t.Errorf("spawn point dropped at (%v, %v); its fields read %q, %q", x, y,
			s.Values["field:descriptor.spawnPoints[0].x"], s.Values["field:descriptor.spawnPoints[0].y"])
	}
	wx, wy := drag("waypoint[1]", -40, 50)
	s = g.wait("the route fields", 5*time.Second, func(st State) bool { _, ok := st.Values["field:descriptor.route.waypoints"]; return ok })
	var p parser
	if ws := p.points("", s.Values["field:descriptor.route.waypoints"]); len(ws) < 2 || ws[1] != [2]float64{wx, wy} {
		t.Errorf("waypoint dropped at (%v, %v); the route reads %q", wx, wy, s.Values["field:descriptor.route.waypoints"])
	}
	g.shot("track-dragged.png")
}

// moveTo moves the pointer to window pixel (x, y) and waits for the editor to see it there.
func (g *gui) moveTo(x, y int) {
	g.t.Helper()
	g.xdo("mousemove", "--window", g.win, strconv.Itoa(x), strconv.Itoa(y))
	g.wait(fmt.Sprintf("the pointer at (%d, %d)", x, y), 10*time.Second, func(s State) bool { return s.Cursor == [2]int{x, y} })
}

// TestEditorTrackZoom zooms the new track's top-down view with the wheel at a point, which
// stays under the pointer while the handles spread apart, pans it by dragging the background,
// and zooms back out to the whole track.
func TestEditorTrackZoom(t *testing.T) {
	g, whole := newTrackEditor(t)
	apart := func(s State) float64 {
		a, b := s.Handles["spawn[0]"], s.Handles["waypoint[1]"]
		return math.Hypot(float64(a[0]-b[0]), float64(a[1]-b[1]))
	}
	// Zoom at the spawn point: it stays where it is, the waypoint moves away.
	sp := whole.Handles["spawn[0]"]
	g.moveTo(sp[0], sp[1])
	g.xdo("click", "4")
	g.xdo("click", "4")
	zoomed := g.wait("the view zoomed in twice", 10*time.Second, func(s State) bool {
		return math.Abs(apart(s)/apart(whole)-trackZoomStep*trackZoomStep) < 0.05
	})
	if at := zoomed.Handles["spawn[0]"]; math.Hypot(float64(at[0]-sp[0]), float64(at[1]-sp[1])) > 2 {
		t.Errorf("zoomed at the spawn point %v, which moved to %v", sp, at)
	}
	// Pan: a drag from a point no handle is near moves every handle with it.
	from := [2]int{sp[0] - 40, sp[1] - 30}
	for _, h := range zoomed.Handles {
		if math.Hypot(float64(h[0]-from[0]), float64(h[1]-from[1])) <= dragReach {
			t.Fatalf("the pan's start %v is on a handle", from)
		}
	}
	g.moveTo(from[0], from[1])
	g.xdo("mousedown", "1")
	g.wait("the pan", 10*time.Second, func(s State) bool { return s.Panning })
	g.moveTo(from[0]+15, from[1]+10)
	g.moveTo(from[0]+30, from[1]+20)
	g.xdo("mouseup", "1")
	panned := g.wait("the view panned", 10*time.Second, func(s State) bool {
		return !s.Panning && s.Handles["spawn[0]"] == [2]int{sp[0] + 30, sp[1] + 20}
	})
	if panned.Dragging != "" || panned.Values["field:descriptor.spawnPoints[0].x"] != zoomed.Values["field:descriptor.spawnPoints[0].x"] {
		t.Errorf("the pan moved a handle: dragging %q", panned.Dragging)
	}
	// Out past the whole track: the view is as it started.
	for range 4 {
		g.xdo("click", "5")
	}
	g.wait("the whole track again", 10*time.Second, func(s State) bool {
		return s.Handles["spawn[0]"] == whole.Handles["spawn[0]"] && s.Handles["waypoint[1]"] == whole.Handles["waypoint[1]"]
	})
}

// newTrackEditor starts an editor on a new track and waits for the handles of its spawn
// point and second waypoint on the top-down view.
func newTrackEditor(t *testing.T) (*gui, State) {
	needDisplay(t)
	g := startEditor(t, "standalone", "RUSIM_HOME="+t.TempDir())
	g.click("button:new-track")
	s := g.wait("the new track's handles", 10*time.Second, func(s State) bool {
		_, a := s.Handles["spawn[0]"]
		_, b := s.Handles["waypoint[1]"]
		return s.Type == "track" && a && b
	})
	return g, s
}
