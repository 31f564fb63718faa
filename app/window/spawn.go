package window

import (
	"context"
	"fmt"
	"image"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"simgui/app/rosname"
	"simgui/app/world"
	"simgui/plugins"
)

// spawnList is the list of every vehicle plugin the catalog offers. Picking one arms the
// world view: the next click spawns it there (dragging aims it).
type spawnList struct {
	ids     []string
	rows    []button
	picked  string // vehicle id waiting for a click in the world, "" for none
	listed  time.Time
	loading bool
}

// refreshDue reports whether the list should be asked for again (every second while open).
func (s *spawnList) refreshDue(now time.Time) bool {
	return !s.loading && now.Sub(s.listed) >= time.Second
}

// layout places the rows in a column at the left of the window, under the HUD.
func (s *spawnList) layout(top int) {
	s.rows = s.rows[:0]
	w := 0
	for _, id := range s.ids {
		w = max(w, int(textWidth(id)))
	}
	y := top + lineHeight + 10
	for _, id := range s.ids {
		s.rows = append(s.rows, button{label: id, r: image.Rect(8, y, 8+w+16, y+20), on: id == s.picked})
		y += 22
	}
}

// click picks the row under (x, y); it reports whether the click was on the list.
func (s *spawnList) click(x, y int) bool {
	if b := hit(s.rows, x, y); b != nil {
		if s.picked == b.label {
			s.picked = ""
		} else {
			s.picked = b.label
		}
		return true
	}
	return false
}

func (s *spawnList) draw(dst *ebiten.Image, b *batch, top int) {
	title := "Spawn: pick a plugin, then click in the world (drag to aim)"
	if len(s.ids) == 0 {
		title = "Spawn: no vehicle plugins found"
	}
	b.rect(4, float32(top), textWidth(title)+16, lineHeight+6, panelBG)
	b.draw(dst)
	drawText(dst, title, 12, float32(top+2), textColor)
	drawButtons(dst, b, s.rows)
}

// spawnName picks a model name for a vehicle id that no model in snap has: the id's middle
// part ("ks0223" for vehicle.ks0223.v1) and a number, "ks0223_1". It is a ROS 2 name (package
// rosname), so that ROS tools reach the robot by the name the window shows.
func spawnName(id string, snap *world.Snapshot) string {
	base := id
	parts := strings.Split(id, ".")
	if len(parts) >= 3 {
		base = strings.Join(parts[1:len(parts)-1], "_")
	}
	if base = rosname.Of(base); base == "_" {
		base = "robot"
	}
	for n := 1; ; n++ {
		name := base + "_" + strconv.Itoa(n)
		if _, taken := snap.Model(name); !taken {
			return name
		}
	}
}

// spawnVehicle spawns v as name at pose (nil: the track's next spawn point) through the loop
// and waits for the result, replacing the robot named replace when it is of the same plugin;
// replaced says whether it did. Worker goroutine.
func spawnVehicle(ctx context.Context, loop *world.Loop, v *plugins.VehicleDescriptor, name string, pose *world.Pose, replace string) (replaced bool, err error) {
	if err := v.CheckSimulation(); err != nil {
		return false, fmt.Errorf("%s cannot be simulated: %w", v.ID, err)
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	err = loop.Call(ctx, func(w *world.World) error {
		// An earlier test drive of the same plugin goes first: its copy is of an older
		// version, and it takes the place the new one is given.
		if m := w.Model(replace); replace != "" && m != nil && m.Vehicle != nil && m.Vehicle.ID == v.ID {
			if err := w.Remove(replace); err != nil {
				return err
			}
			replaced = true
		}
		if pose != nil {
			if err := w.SpotFree(v, *pose); err != nil {
				return fmt.Errorf("%w; click in the open", err)
			}
		}
		_, err := w.Spawn(world.AgentSpec{Name: name, Vehicle: v, Spawn: pose})
		return err
	})
	return replaced && err == nil, err
}

// spawnHeading is the yaw a robot clicked into place at (x, y) without a drag gets: along the
// road it is on, in the lane's direction (traffic on the right), else along the track's route
// where it is near it, else the selected robot's heading, else east.
func (s *simScreen) spawnHeading(x, y float64) float64 {
	if s.snap == nil {
		return 0
	}
	if yaw, ok := roadHeading(s.snap.Layout, x, y); ok {
		return yaw
	}
	if yaw, ok := routeHeading(s.snap.Layout, x, y); ok {
		return yaw
	}
	if m, ok := s.snap.Model(s.selected); ok {
		return m.Pose.Yaw
	}
	return 0
}

// roadHeading finds the road segment nearest (x, y) among those it lies on and returns its
// direction: the road's point order on its right half, the reverse on its left.
func roadHeading(l *plugins.Layout, x, y float64) (float64, bool) {
	if l == nil {
		return 0, false
	}
	best, yaw := math.Inf(1), 0.0
	for _, e := range l.Elements {
		if e.Kind != plugins.ElementRoad || e.Width <= 0 {
			continue
		}
		for i := 1; i < len(e.Points); i++ {
			ax, ay, bx, by := e.Points[i-1][0], e.Points[i-1][1], e.Points[i][0], e.Points[i][1]
			dx, dy := bx-ax, by-ay
			n2 := dx*dx + dy*dy
			if n2 == 0 {
				continue
			}
			t := max(0, min(1, ((x-ax)*dx+(y-ay)*dy)/n2))
			d := math.Hypot(x-(ax+t*dx), y-(ay+t*dy))
			if d > e.Width/2 || d >= best {
				continue
			}
			best, yaw = d, math.Atan2(dy, dx)
			if dx*(y-ay)-dy*(x-ax) > 0 { // left of the centre line
				yaw = math.Remainder(yaw+math.Pi, 2*math.Pi)
			}
		}
	}
	return yaw, !math.IsInf(best, 1)
}

// routeNear is how far from the track's route (metres) a click still takes its heading when
// the route gives no corridor width.
const routeNear = 0.5

// routeHeading returns the direction, in the route's order, of the route segment nearest
// (x, y), when (x, y) is within the route's corridor (or routeNear of it).
func routeHeading(l *plugins.Layout, x, y float64) (float64, bool) {
	if l == nil || l.Route == nil {
		return 0, false
	}
	r := l.Route
	reach := routeNear
	if r.CorridorWidth > 0 {
		reach = r.CorridorWidth / 2
	}
	pts := r.Waypoints
	if r.Loop && len(pts) > 2 {
		pts = append(pts[:len(pts):len(pts)], pts[0])
	}
	best, yaw := math.Inf(1), 0.0
	for i := 1; i < len(pts); i++ {
		ax, ay, bx, by := pts[i-1][0], pts[i-1][1], pts[i][0], pts[i][1]
		dx, dy := bx-ax, by-ay
		n2 := dx*dx + dy*dy
		if n2 == 0 {
			continue
		}
		t := max(0, min(1, ((x-ax)*dx+(y-ay)*dy)/n2))
		if d := math.Hypot(x-(ax+t*dx), y-(ay+t*dy)); d <= reach && d < best {
			best, yaw = d, math.Atan2(dy, dx)
		}
	}
	return yaw, !math.IsInf(best, 1)
}
