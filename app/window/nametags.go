package window

// rect32 is a screen rectangle: top-left corner and size, in pixels.
type rect32 struct{ x, y, w, h float32 }

func (r rect32) overlaps(o rect32) bool {
	return r.x < o.x+o.w && o.x < r.x+r.w && r.y < o.y+o.h && o.y < r.y+r.h
}

// tagSpace holds what a frame's name tags must not cover (the robots, the tags placed), by
// the cells of a coarse grid over the screen that each touches, so that checking a new tag
// against them costs a few cells however many robots a fleet has.
type tagSpace struct {
	w, h  float32 // the screen
	cells map[[2]int32][]rect32
}

// tagCell is the side of tagSpace's cells in pixels, about a name tag's width.
const tagCell = 64

// reset empties the space for a frame of a w×h screen, keeping its memory.
func (ts *tagSpace) reset(w, h float32) {
	ts.w, ts.h = w, h
	if ts.cells == nil {
		ts.cells = map[[2]int32][]rect32{}
	}
	for k, v := range ts.cells {
		ts.cells[k] = v[:0]
	}
}

// place adds r and reports true when it is on the screen and overlaps nothing added before;
// else it reports false and adds nothing.
func (ts *tagSpace) place(r rect32) bool {
	x0, y0, x1, y1, ok := ts.cellsOf(r)
	if !ok {
		return false
	}
	for cy := y0; cy <= y1; cy++ {
		for cx := x0; cx <= x1; cx++ {
			for _, o := range ts.cells[[2]int32{cx, cy}] {
				if o.overlaps(r) {
					return false
				}
			}
		}
	}
	ts.add(r)
	return true
}

// add adds r as taken, whatever it overlaps (a robot's body); off the screen it is left out.
func (ts *tagSpace) add(r rect32) {
	x0, y0, x1, y1, ok := ts.cellsOf(r)
	for cy := y0; ok && cy <= y1; cy++ {
		for cx := x0; cx <= x1; cx++ {
			k := [2]int32{cx, cy}
			ts.cells[k] = append(ts.cells[k], r)
		}
	}
}

// cellsOf returns the cells r touches on the screen, or false when it is off the screen.
func (ts *tagSpace) cellsOf(r rect32) (x0, y0, x1, y1 int32, ok bool) {
	if r.x+r.w < 0 || r.y+r.h < 0 || r.x > ts.w || r.y > ts.h {
		return 0, 0, 0, 0, false
	}
	return int32(max(0, r.x) / tagCell), int32(max(0, r.y) / tagCell),
		int32(min(ts.w, r.x+r.w) / tagCell), int32(min(ts.h, r.y+r.h) / tagCell), true
}
