package window

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// worldRows returns the labels and ids of a host with the scenario's world and n isolated
// agents' worlds, as layout lists them: the automatic row first.
func worldRows(n int) (labels, ids []string) {
	labels, ids = []string{autoWorld, "scenario base"}, []string{"", "scenario"}
	for i := range n {
		labels = append(labels, fmt.Sprintf("episode 1 · a%d (isolated)", i))
		ids = append(ids, fmt.Sprintf("episode-1/a%d", i))
	}
	return labels, ids
}

// A training episode of 200 isolated agents is 202 rows: laid out whole they ran 4,000 px
// down, under the toolbar and off an 800 px window, where no click reached them. The rows
// shown stay above the toolbar, the line under them counts the others, the wheel scrolls
// down to the last world and back to the first, and the world on show is scrolled into view.
func TestWorldListScrollsWhatTheWindowCannotHold(t *testing.T) {
	const top, bottom = 230, 775 // under the HUD, above the toolbar of an 800 px window
	labels, ids := worldRows(200)
	on := make([]bool, len(ids))
	var l worldList
	l.on = true
	l.place(labels, ids, on, "scenario", top, bottom)
	within := func() {
		t.Helper()
		if len(l.rows) < 2 || len(l.rows) >= len(labels) {
			t.Fatalf("%d rows shown of %d", len(l.rows), len(labels))
		}
		for _, r := range l.rows {
			if r.r.Min.Y < top || r.r.Max.Y > bottom {
				t.Fatalf("row %q at %v: outside %d..%d", r.label, r.r, top, bottom)
			}
		}
		if l.box.Max.Y > bottom {
			t.Fatalf("the list with its line under it ends at %d, under the toolbar at %d", l.box.Max.Y, bottom)
		}
		if len(l.ids) != len(l.rows) {
			t.Fatalf("%d ids for %d rows", len(l.ids), len(l.rows))
		}
	}
	within()
	if l.ids[0] != "" {
		t.Fatalf("first row shown %q, want the automatic row", l.ids[0])
	}
	if want := fmt.Sprintf("0 more above, %d below", len(labels)-len(l.rows)); !strings.Contains(l.more, want) {
		t.Fatalf("line under the rows %q, want %q", l.more, want)
	}
	x, y := l.rows[1].r.Min.X+2, l.rows[1].r.Min.Y+2
	if !l.over(x, y) {
		t.Fatalf("(%d, %d) on a row is not over the list %v: the wheel would zoom the map", x, y, l.box)
	}
	if l.over(x, bottom+10) {
		t.Fatal("the toolbar counts as the list")
	}
	if id, ok := l.click(nil, x, y); !ok || id != "scenario" {
		t.Fatalf("click on the second row: %q %v", id, ok)
	}

	// Scrolled far down: the last world is shown and can be clicked, nothing beyond it.
	l.scroll(1000)
	l.place(labels, ids, on, "scenario", top, bottom)
	within()
	last := l.rows[len(l.rows)-1]
	if got := l.ids[len(l.ids)-1]; got != ids[len(ids)-1] {
		t.Fatalf("scrolled to the end, the last row is %q, want %q", got, ids[len(ids)-1])
	}
	if id, ok := l.click(nil, last.r.Min.X+2, last.r.Min.Y+2); !ok || id != ids[len(ids)-1] {
		t.Fatalf("click on the last row: %q %v", id, ok)
	}
	if !strings.HasSuffix(l.more, "0 below: the wheel scrolls the list") {
		t.Fatalf("at the end the line says %q", l.more)
	}
	l.scroll(-1000)
	l.place(labels, ids, on, "scenario", top, bottom)
	if l.ids[0] != "" {
		t.Fatalf("scrolled back up, the first row is %q", l.ids[0])
	}

	// The world on show changes ([ or ]) to one out of view: its row is brought into view,
	// highlighted; the user's scrolling is kept while it stays the same.
	on[150] = true
	l.place(labels, ids, on, ids[150], top, bottom)
	within()
	i := slices.Index(l.ids, ids[150])
	if i < 0 || !l.rows[i].on {
		t.Fatalf("the world on show %s is not among the rows shown %q (or not highlighted)", ids[150], l.ids)
	}
	l.scroll(-30)
	l.place(labels, ids, on, ids[150], top, bottom)
	if slices.Contains(l.ids, ids[150]) {
		t.Fatal("scrolled 30 rows up, the list jumped back to the world on show")
	}

	// A short list is laid out whole, with no line under it.
	labels, ids = worldRows(3)
	l = worldList{on: true}
	l.place(labels, ids, make([]bool, len(ids)), "scenario", top, bottom)
	if len(l.rows) != len(labels) || l.more != "" {
		t.Fatalf("5 worlds: %d rows shown, line %q", len(l.rows), l.more)
	}
}
