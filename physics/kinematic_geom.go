package physics

import "math"

// geom is a kinematic collision shape in the world frame: an oriented box with half extents
// hx, hy along its axes (c, s) and (-s, c), or a circle of radius hx, centred at x, y. r is
// the radius of a circle around the centre that holds the whole shape.
type geom struct {
	x, y   float64
	c, s   float64
	hx, hy float64
	r      float64
	circle bool
}

// bound sets g.r from the shape.
func (g *geom) bound() {
	if g.circle {
		g.r = g.hx
	} else {
		g.r = math.Hypot(g.hx, g.hy)
	}
}

// penetration returns how deep a and b overlap and the unit normal from a to b along which
// moving b by depth (or a by -depth) separates them. A negative depth is a separation: for
// circles the exact distance, for boxes the largest gap along a separating axis (at most the
// distance). Pairs whose bounding circles are more than margin apart report -Inf.
func penetration(a, b *geom, margin float64) (nx, ny, depth float64) {
	return overlap(a, b, margin, math.Inf(-1))
}

// overlap is penetration for callers that only ask whether the depth exceeds floor: once a
// separating axis shows that it does not, it stops and returns a depth of at most floor
// (not necessarily penetration's), with no normal. Most neighbours in a fleet are apart.
func overlap(a, b *geom, margin, floor float64) (nx, ny, depth float64) {
	dx, dy := b.x-a.x, b.y-a.y
	reach := a.r + b.r + margin
	if dx*dx+dy*dy > reach*reach {
		return 0, 0, math.Inf(-1)
	}
	switch {
	case !a.circle && !b.circle:
		return boxBox(a, b, dx, dy, floor)
	case !a.circle:
		return boxCircle(a, b, dx, dy)
	case !b.circle:
		nx, ny, depth = boxCircle(b, a, -dx, -dy)
		return -nx, -ny, depth
	}
	d := math.Sqrt(dx*dx + dy*dy)
	if d == 0 {
		return 1, 0, a.hx + b.hx
	}
	return dx / d, dy / d, a.hx + b.hx - d
}

// boxBox is the separating-axis test of two oriented boxes, d = b's centre minus a's. The four
// candidate axes are the boxes' own; the one of least overlap is the separation normal. An
// axis whose overlap is at most floor ends the test with that overlap (see overlap).
func boxBox(a, b *geom, dx, dy, floor float64) (nx, ny, depth float64) {
	// |cos| and |sin| of the angle between the boxes' x axes.
	C := math.Abs(a.c*b.c + a.s*b.s)
	S := math.Abs(a.s*b.c - a.c*b.s)
	// The y axes first: a fleet's boxes are longer than wide and stand side by side, so a
	// separated pair is most often apart across them.
	d2 := -dx*a.s + dy*a.c
	o2 := a.hy + b.hx*S + b.hy*C - math.Abs(d2)
	if o2 <= floor {
		return 0, 0, o2
	}
	d4 := -dx*b.s + dy*b.c
	o4 := b.hy + a.hx*S + a.hy*C - math.Abs(d4)
	if o4 <= floor {
		return 0, 0, o4
	}
	d1 := dx*a.c + dy*a.s
	o1 := a.hx + b.hx*C + b.hy*S - math.Abs(d1)
	if o1 <= floor {
		return 0, 0, o1
	}
	d3 := dx*b.c + dy*b.s
	o3 := b.hx + a.hx*C + a.hy*S - math.Abs(d3)
	if o3 <= floor {
		return 0, 0, o3
	}
	depth, nx, ny, dist := o1, a.c, a.s, d1
	if o2 < depth {
		depth, nx, ny, dist = o2, -a.s, a.c, d2
	}
	if o3 < depth {
		depth, nx, ny, dist = o3, b.c, b.s, d3
	}
	if o4 < depth {
		depth, nx, ny, dist = o4, -b.s, b.c, d4
	}
	if dist < 0 {
		nx, ny = -nx, -ny
	}
	return nx, ny, depth
}

// boxCircle is an oriented box a against a circle b, d = b's centre minus a's: the closest
// point of the box to the circle's centre gives the normal; a centre inside the box leaves
// through the nearest face.
func boxCircle(a, b *geom, dx, dy float64) (nx, ny, depth float64) {
	lx, ly := dx*a.c+dy*a.s, -dx*a.s+dy*a.c // the centre in a's frame
	qx, qy := max(-a.hx, min(a.hx, lx)), max(-a.hy, min(a.hy, ly))
	ex, ey := lx-qx, ly-qy
	var mx, my float64 // the normal in a's frame
	if ex != 0 || ey != 0 {
		d := math.Sqrt(ex*ex + ey*ey)
		mx, my, depth = ex/d, ey/d, b.hx-d
	} else if px, py := a.hx-math.Abs(lx), a.hy-math.Abs(ly); px < py {
		mx, depth = math.Copysign(1, lx), b.hx+px
	} else {
		my, depth = math.Copysign(1, ly), b.hx+py
	}
	return mx*a.c - my*a.s, mx*a.s + my*a.c, depth
}

// rayGeom intersects the ray p + t·(dx, dy), t in [0, 1], with g, returning the first t and
// the outward normal there. A ray starting inside the shape hits it at t = 0.
func rayGeom(g *geom, px, py, dx, dy float64) (t, nx, ny float64, ok bool) {
	ox, oy := px-g.x, py-g.y
	if g.circle {
		// |o + t·d|² = r²
		a := dx*dx + dy*dy
		bq := ox*dx + oy*dy
		c := ox*ox + oy*oy - g.hx*g.hx
		if c <= 0 {
			return 0, 0, 0, true
		}
		disc := bq*bq - a*c
		if a == 0 || disc < 0 || bq > 0 {
			return 0, 0, 0, false
		}
		t = (-bq - math.Sqrt(disc)) / a
		if t > 1 {
			return 0, 0, 0, false
		}
		hx, hy := ox+t*dx, oy+t*dy
		return t, hx / g.hx, hy / g.hx, true
	}
	// Slabs in the box's frame.
	lx, ly := ox*g.c+oy*g.s, -ox*g.s+oy*g.c
	ldx, ldy := dx*g.c+dy*g.s, -dx*g.s+dy*g.c
	tmin, tmax := 0.0, 1.0
	var mx, my float64
	for axis := 0; axis < 2; axis++ {
		o, d, h := lx, ldx, g.hx
		if axis == 1 {
			o, d, h = ly, ldy, g.hy
		}
		if d == 0 {
			if math.Abs(o) > h {
				return 0, 0, 0, false
			}
			continue
		}
		t1, t2 := (-h-o)/d, (h-o)/d
		sign := -1.0
		if t1 > t2 {
			t1, t2, sign = t2, t1, 1
		}
		if t1 > tmin {
			tmin = t1
			mx, my = 0, 0
			if axis == 0 {
				mx = sign
			} else {
				my = sign
			}
		}
		tmax = min(tmax, t2)
		if tmin > tmax {
			return 0, 0, 0, false
		}
	}
	return tmin, mx*g.c - my*g.s, mx*g.s + my*g.c, true
}
