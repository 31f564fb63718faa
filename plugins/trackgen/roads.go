package trackgen

import (
	"fmt"
	"math"
	"slices"

	"simgui/plugins"
)

// Roads is the name of the generator that lays a track out from its road network, the floor
// sized and placed around the roads.
const Roads = "roads"

func init() { Register(Roads, Func(roads), plugins.FloorLook) }

const (
	roadSpacing      = 0.25 // m between vertices of a smoothed road
	edgeSpacing      = 0.05 // m between vertices of a road edge before it is cut into pieces
	barrierSegment   = 0.5  // m, longest straight barrier piece
	barrierSag       = 0.01 // m, how far a piece may stray from the curved edge
	barrierThickness = 0.1  // m
	barrierColor     = "#d8d8d8"
	curbWidth        = 0.25 // m, inside the road edge
	curbStripe       = 1.0  // m
	dashLength       = 1.0  // m, dash and gap of the centre line
	dashWidth        = 0.08 // m
	// paintLift raises curbs and markings above the road they lie on: drawn at the road's
	// height, they would lose the depth test to it in 3D and show the road's grey.
	paintLift   = 0.005 // m
	floorMargin = 3.0   // m beyond the barriers
)

// roads smooths every road element of t through its points and lines it with barriers; other
// elements pass through. Parameters: road.width (m), barrier.height (m), curbs, markings.
func roads(t *plugins.TrackDescriptor, p Params, _ int64) (*plugins.Layout, error) {
	r := p.Reader()
	width := r.Float("road.width", 3)
	barrierH := r.Float("barrier.height", 0.3)
	curbs := r.Bool("curbs", false)
	markings := r.Bool("markings", false)
	if err := r.Err(); err != nil {
		return nil, err
	}
	if width <= 0 || barrierH <= 0 {
		return nil, fmt.Errorf("road.width and barrier.height must be positive")
	}
	c := t.Clone()
	var elements, extras []plugins.Element
	var centre [][2]float64 // first road's smoothed centreline, for a derived spawn
	var all [][2]float64
	for _, e := range c.Elements {
		if e.Kind != plugins.ElementRoad {
			elements = append(elements, e)
			continue
		}
		line := catmullRom(e.Points, roadSpacing)
		if len(line) < 2 {
			return nil, fmt.Errorf("road %q needs at least two distinct points", e.Name)
		}
		if centre == nil {
			centre = line
		}
		all = append(all, line...)
		e.Points, e.Width = line, width
		grid := newSegGrid(line, width/2+barrierThickness)
		elements = append(elements, e)
		for _, side := range []struct {
			name string
			sign float64
		}{{"left", 1}, {"right", -1}} {
			d := side.sign * (width/2 + barrierThickness/2)
			n := 0
			for _, run := range trimFolds(resample(offset(line, d), edgeSpacing), grid, math.Abs(d)) {
				for _, piece := range pieces(run, barrierSegment, barrierSag) {
					a, b := vec(piece[0]), vec(piece[len(piece)-1])
					mid, dir := a.add(b).scale(0.5), b.sub(a)
					extras = append(extras, plugins.Element{Kind: plugins.ElementWall,
						Name: fmt.Sprintf("%s.barrier.%s.%d", e.Name, side.name, n), X: mid[0], Y: mid[1],
						Length: dir.len() + barrierThickness, Width: barrierThickness, Height: barrierH,
						YawDeg: math.Atan2(dir[1], dir[0]) * 180 / math.Pi, Color: barrierColor, Friction: 0.8})
					n++
				}
				all = append(all, run...)
			}
			if curbs {
				cd := side.sign * (width/2 - curbWidth/2)
				n := 0
				for _, run := range trimFolds(resample(offset(line, cd), edgeSpacing), grid, math.Abs(cd)) {
					for _, piece := range chunks(run, curbStripe) {
						extras = append(extras, plugins.Element{Kind: plugins.ElementRoad,
							Name: fmt.Sprintf("%s.curb.%s.%d", e.Name, side.name, n), Points: slices.Clone(piece),
							Z: paintLift, Width: curbWidth, Color: []string{"#c0392b", "#f2f2f2"}[n%2]})
						n++
					}
				}
			}
		}
		if markings {
			for i, piece := range chunks(line, dashLength) {
				if i%2 == 0 {
					extras = append(extras, plugins.Element{Kind: plugins.ElementRoad,
						Name: fmt.Sprintf("%s.dash.%d", e.Name, i/2), Points: slices.Clone(piece),
						Z: paintLift, Width: dashWidth, Color: "#f2f2f2"})
				}
			}
		}
	}
	if centre == nil {
		return nil, fmt.Errorf("track %s has no road element to build", t.ID)
	}
	l := &plugins.Layout{Elements: append(elements, extras...), SpawnPoints: c.SpawnPoints, Route: c.Route}
	l.Floor = boundsFloor(all, floorMargin)
	if c.Floor != nil {
		l.Floor.Texture, l.Floor.Color = c.Floor.Texture, c.Floor.Color
	}
	if len(l.SpawnPoints) == 0 {
		l.SpawnPoints = []plugins.SpawnPoint{{Name: "start", X: centre[0][0], Y: centre[0][1], YawDeg: headingDeg(centre[0], centre[1])}}
	}
	return l, nil
}

// trimFolds drops the vertices of an offset line that came closer than d to the centreline and
// returns the runs of consecutive vertices left: where the road bends tighter than d, the inner
// offset folds over itself, and the fold would put barrier pieces on the road. The 0.5 % slack
// absorbs rounding in the resampled edge.
func trimFolds(edge [][2]float64, centre *segGrid, d float64) [][][2]float64 {
	var runs [][][2]float64
	var run [][2]float64
	for _, q := range edge {
		if !centre.closer(q, 0.995*d) {
			run = append(run, q)
			continue
		}
		if len(run) > 1 {
			runs = append(runs, run)
		}
		run = nil
	}
	if len(run) > 1 {
		runs = append(runs, run)
	}
	return runs
}

// boundsFloor is the axis-aligned rectangle around points, grown by margin.
func boundsFloor(points [][2]float64, margin float64) plugins.Floor {
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, q := range points {
		minX, maxX = math.Min(minX, q[0]), math.Max(maxX, q[0])
		minY, maxY = math.Min(minY, q[1]), math.Max(maxY, q[1])
	}
	return plugins.Floor{X: (minX + maxX) / 2, Y: (minY + maxY) / 2,
		Length: maxX - minX + 2*margin, Width: maxY - minY + 2*margin, Texture: "grass", Color: "#6b8f4e"}
}
