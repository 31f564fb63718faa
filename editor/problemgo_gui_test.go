package editor

import (
	"slices"
	"testing"
	"time"

	"simgui/plugins"
)

// TestEditorProblemGoShowsTheField: a problem's "go" shows its field, not only its tab. A
// drive parameter out of range lies below the Body tab's first screen; "go" pressed from the
// General tab scrolls the form until the field is on show whole and gives it the keyboard, so
// that the value typed next replaces the wrong one. Before, "go" showed the Body tab at its top,
// the field framed in red out of sight, and the keys went nowhere.
func TestEditorProblemGoShowsTheField(t *testing.T) {
	needDisplay(t)
	const latency = "field:descriptor.drive.params.latency"
	g := startEditor(t, "standalone", "RUSIM_HOME="+t.TempDir(), envExport+"="+t.TempDir())
	g.set("descriptor.id", "vehicle.acme.go.v1")
	g.set("descriptor.displayName", "Go")
	g.click("button:tab:body")
	g.reveal(latency)
	g.set("descriptor.drive.params.latency", "5")
	g.click("button:tab:general")
	g.validateAndGo("descriptor.drive.params.latency")
	g.wait("the latency field on show and focused", 10*time.Second, func(s State) bool {
		r, ok := s.Targets[latency]
		return s.Tab == tabBody && s.Focus == latency && ok && r[3]-r[1] >= 16
	})
	g.shot("problem-go.png")
	// Its text is selected: typing replaces it.
	g.typeText("descriptor.drive.params.latency", "0.1")
	g.wait("latency 0.1", 10*time.Second, func(s State) bool { return s.Values[latency] == "0.1" })
}

// TestEditorProblemGoShowsTheRow: "go" on a problem of a whole row (a wall of length 0 is
// "size 0×0.1×0.3 is not positive" at descriptor.elements[9], no field's path) scrolls the
// form to the row. Before, it showed the Floor and elements tab at its top, the row framed in
// red below the window's edge.
func TestEditorProblemGoShowsTheRow(t *testing.T) {
	g, _ := newTrackEditor(t)
	g.click("button:tab:" + tabGeometry)
	g.reveal("button:elements.add")
	for range 4 {
		g.click("button:elements.add")
	}
	g.set("descriptor.elements[9].length", "0")
	g.click("button:tab:" + tabGeneral)
	g.validateAndGo("descriptor.elements[9]")
	const kind = "field:descriptor.elements[9].kind"
	g.wait("the row on show", 10*time.Second, func(s State) bool {
		r, ok := s.Targets[kind]
		return s.Tab == tabGeometry && ok && r[3]-r[1] >= 16
	})
	g.shot("problem-go-row.png")
}

// validateAndGo presses Validate (the check's first run) and then "go" on the problem at path.
func (g *gui) validateAndGo(path string) {
	g.t.Helper()
	g.click("button:validate")
	s := g.wait("Validate", 10*time.Second, func(s State) bool { return s.Checked == 1 })
	i := slices.IndexFunc(s.Problems, func(p plugins.Problem) bool { return p.Path == path })
	if i < 0 {
		g.t.Fatalf("Validate listed no problem at %s: %v", path, s.Problems)
	}
	g.click("button:problem[" + itoa(i) + "]")
}
