package plugins

import "fmt"

// polygonProblem says what keeps pts from outlining a simple polygon, the renderer's and the
// physics' (it cuts the outline into triangles): fewer than 3 distinct points, no area, or
// two edges that cross or touch other than at the corner they share. "" when none does. A
// repeated point in a row and a closing point equal to the first are allowed.
func polygonProblem(pts [][2]float64) string {
	p, area := PolygonOutline(pts)
	if len(p) < 3 {
		return "a polygon needs at least 3 distinct points"
	}
	if area == 0 {
		return "the polygon has no area: its points are on one line or its edges cancel out"
	}
	n := len(p)
	for i := range n {
		a, b := p[i], p[(i+1)%n]
		for j := i + 2; j < n; j++ {
			if i == 0 && j == n-1 {
				continue // the last edge shares the first's corner
			}
			c, d := p[j], p[(j+1)%n]
			if segmentsMeet(a, b, c, d) {
				return fmt.Sprintf("the polygon crosses itself: its edge from point %d meets the one from point %d", i, j)
			}
		}
	}
	return ""
}

// PolygonOutline returns a polygon's points without a point repeated in a row or a closing
// point equal to the first, and twice its signed area (positive counter-clockwise): what a
// polygon element's points outline, for its checks and for cutting it into triangles.
func PolygonOutline(pts [][2]float64) (outline [][2]float64, area2 float64) {
	p := make([][2]float64, 0, len(pts))
	for _, q := range pts {
		if len(p) == 0 || q != p[len(p)-1] {
			p = append(p, q)
		}
	}
	if len(p) > 1 && p[0] == p[len(p)-1] {
		p = p[:len(p)-1]
	}
	for i := range p {
		j := (i + 1) % len(p)
		area2 += p[i][0]*p[j][1] - p[j][0]*p[i][1]
	}
	return p, area2
}

// segmentsMeet reports whether segments ab and cd have a point in common.
func segmentsMeet(a, b, c, d [2]float64) bool {
	o1, o2 := orient(a, b, c), orient(a, b, d)
	o3, o4 := orient(c, d, a), orient(c, d, b)
	if o1*o2 < 0 && o3*o4 < 0 {
		return true
	}
	return o1 == 0 && onSegment(a, b, c) || o2 == 0 && onSegment(a, b, d) ||
		o3 == 0 && onSegment(c, d, a) || o4 == 0 && onSegment(c, d, b)
}

// orient is the sign of the turn a → b → c: 1 left, -1 right, 0 on one line.
func orient(a, b, c [2]float64) int {
	v := (b[0]-a[0])*(c[1]-a[1]) - (b[1]-a[1])*(c[0]-a[0])
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// onSegment reports whether c, on the line through a and b, lies between them.
func onSegment(a, b, c [2]float64) bool {
	return min(a[0], b[0]) <= c[0] && c[0] <= max(a[0], b[0]) && min(a[1], b[1]) <= c[1] && c[1] <= max(a[1], b[1])
}
