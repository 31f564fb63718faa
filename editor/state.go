package editor

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"simgui/plugins"
)

// State is what the editor writes to Options.StateFile: enough for a test that drives the
// editor with real key and mouse events to find what to click and to check what happened.
type State struct {
	// Type is the plugin type being edited (vehicle, track); ID its id as typed; Tab the form
	// tab on show.
	Type string `json:"type"`
	ID   string `json:"id"`
	Tab  string `json:"tab"`
	// Rows counts the table rows: sensors, actuators, elements, spawnPoints.
	Rows map[string]int `json:"rows"`
	// Targets are the clickable things on screen by name, as [x0, y0, x1, y1] in window
	// pixels: "field:<validator path>" (field:descriptor.id, field:export.path, ...),
	// "button:<name>" (button:validate, button:sensors.add, button:sensors[1].remove, ...),
	// "button:tab:<tab>", "installed:<plugin id>", and the preview's views "preview:top",
	// "preview:view0" (camera) and "preview:view1" (3D).
	Targets map[string][4]int `json:"targets"`
	// Values holds the text of the text fields and the choice of the drop-downs laid out, by
	// target name ("" for none).
	Values map[string]string `json:"values"`
	// Checked counts Validate (and Export, Install) checks; Problems is what the last one
	// listed.
	Checked  int              `json:"checked"`
	Problems plugins.Problems `json:"problems"`
	// Live holds the problems of the automatic check that frames fields as you type;
	// Framed names the fields framed in red.
	Live   plugins.Problems `json:"live"`
	Framed []string         `json:"framed"`
	// Schema is the parametersSchemaJson line under a track's schema field.
	Schema string `json:"schema,omitempty"`
	Status string `json:"status"`
	// StatusKind marks Status: info, busy, done or failed.
	StatusKind string `json:"statusKind"`
	Busy       string `json:"busy,omitempty"`
	// Listed counts the plugins of the Installed list (-1 while it was never read); Listing
	// is set while it is being read.
	Listed  int  `json:"listed"`
	Listing bool `json:"listing,omitempty"`
	// Preview says what the preview shows: the check it is of (PreviewGen, equal to Gen
	// when up to date), its view labels and any error.
	Gen          uint64   `json:"gen"`
	PreviewGen   uint64   `json:"previewGen"`
	PreviewViews []string `json:"previewViews"`
	PreviewNote  string   `json:"previewNote,omitempty"`
	// TopCaption is the top view's caption and TopHints the hints drawn on the view.
	TopCaption string   `json:"topCaption"`
	TopHints   []string `json:"topHints"`
	Frames     uint64   `json:"frames"`
	// Cursor is where the editor last saw the pointer, window pixels; Clicks counts the
	// left-button presses it saw and LastClick is where the last one was.
	Cursor    [2]int `json:"cursor"`
	Clicks    int    `json:"clicks"`
	LastClick [2]int `json:"lastClick"`
	// Focused reports whether a text field has the keyboard; Focus is its target name.
	Focused bool   `json:"focused"`
	Focus   string `json:"focus,omitempty"`
	// Selection is the selected range of the focused field, in characters.
	Selection [2]int `json:"selection"`
	// Handles are where a static track's draggable points are on the top-down view, window
	// pixels, by name: spawn[i], waypoint[i], element[i]. Dragging names the one being
	// dragged.
	Handles  map[string][2]int `json:"handles,omitempty"`
	Dragging string            `json:"dragging,omitempty"`
	// Panning reports a pan of the zoomed top-down view under way.
	Panning bool `json:"panning,omitempty"`
	record
}

// record is what the editor did, in order.
type record struct {
	Exported   []string `json:"exported"`
	Saved      []string `json:"saved"`
	Installed  []string `json:"installed"`
	TestDriven []string `json:"testDriven"`
	// Shots lists the screenshots a standalone editor wrote (F12).
	Shots []string `json:"shots"`
	// Pressed lists the last 50 buttons pressed, by name, oldest first.
	Pressed []string `json:"pressed"`
}

// writeState hands the state to the writer: at most every stateInterval unless now is set.
func (e *Editor) writeState(now bool) {
	if e.state == nil || (!now && !e.state.Due(time.Now())) {
		return
	}
	s := State{Type: string(e.d.typ), ID: e.d.id(), Tab: e.tab, Rows: map[string]int{},
		Targets: map[string][4]int{}, Values: maps.Clone(e.values), Checked: e.checked, Problems: e.problems, Live: e.live,
		Framed: e.problemFields(), Status: e.status, Busy: e.busy, Gen: e.gen, Frames: e.frames, Focused: e.fields.focus != "", Focus: e.fields.focus, record: e.record}
	s.record.Exported = append([]string(nil), e.record.Exported...)
	s.record.Saved = append([]string(nil), e.record.Saved...)
	s.record.Installed = append([]string(nil), e.record.Installed...)
	s.record.TestDriven = append([]string(nil), e.record.TestDriven...)
	s.record.Shots = append([]string(nil), e.record.Shots...)
	s.record.Pressed = append([]string(nil), e.record.Pressed...)
	s.StatusKind, s.Listing, s.Listed = e.statusKind, e.listing, len(e.installed)
	s.Cursor[0], s.Cursor[1] = ebiten.CursorPosition()
	s.Clicks, s.LastClick = e.clicks, e.lastClick
	if e.busy != "" {
		s.StatusKind = statusBusy
	}
	if e.installed == nil {
		s.Listed = -1
	}
	if e.fields.focus != "" {
		s.Selection[0], s.Selection[1] = e.fields.line.Selection()
	}
	if v := e.d.vehicle; v != nil {
		s.Rows["sensors"], s.Rows["actuators"] = len(v.Sensors), len(v.Actuators)
	}
	if t := e.d.track; t != nil {
		s.Rows["elements"], s.Rows["spawnPoints"] = len(t.Elements), len(t.Spawns)
		s.Schema = e.schemaStatus()
		if e.views.trackShown {
			v := e.views.trackView
			if e.drag != nil {
				v = e.drag.view
			}
			s.Handles = map[string][2]int{}
			for _, h := range t.handles() {
				p := e.handleAt(v, h)
				s.Handles[h.name()] = [2]int{p.X, p.Y}
			}
		}
	}
	if e.drag != nil {
		s.Dragging = e.drag.name()
	}
	s.Panning = e.views.pan != nil
	for name, r := range e.targets {
		s.Targets[name] = [4]int{r.Min.X, r.Min.Y, r.Max.X, r.Max.Y}
	}
	s.TopCaption, s.TopHints = e.views.caption, slices.Clone(e.views.hints)
	if out := e.views.out; out != nil {
		s.PreviewGen, s.PreviewNote = out.gen, out.note
		if e.views.held != "" {
			s.PreviewNote = strings.TrimSuffix(e.views.held+"; "+out.note, "; ")
		}
		for _, v := range out.views {
			s.PreviewViews = append(s.PreviewViews, v.label)
		}
	}
	e.state.Put(s)
}

func itoa(i int) string { return strconv.Itoa(i) }
