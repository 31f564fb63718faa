package editor

import (
	"fmt"
	"log/slog"
	"math"
	"strings"
	"testing"

	"simgui/plugins"
	"simgui/plugins/registry"
)

// testEditor is an editor without a window or goroutines, on a new plugin of type typ: enough
// for the state its panels show (check's preview requests are only queued).
func testEditor(t *testing.T, typ plugins.Type) *Editor {
	t.Helper()
	e := &Editor{log: slog.New(slog.DiscardHandler), reg: testRegistry(t), preview: &previewer{wake: make(chan struct{}, 1)}}
	e.startNew(typ)
	return e
}

// builtinKS0223 opens the built-in KS0223 from e's registry as a draft.
func builtinKS0223(t *testing.T, e *Editor) *draft {
	t.Helper()
	d, _, err := openInstalled(e.reg, "vehicle.ks0223.v1")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// panel is what the Problems panel says above its list, one line.
func panel(e *Editor) string { return strings.Join(e.problemsHead(), " / ") }

// tabCounts adds up the "(n!)" of the form's tabs.
func tabCounts(e *Editor) int {
	n := 0
	for _, t := range e.tabs() {
		n += e.tabErrors(t)
	}
	return n
}

// TestProblemsPanelIsOfThePluginAsItIs: the panel never says "ready" while fields have
// problems — after a change since Validate, or for another plugin than the one validated —
// and counts them as the tabs do.
func TestProblemsPanelIsOfThePluginAsItIs(t *testing.T) {
	e := testEditor(t, plugins.TypeVehicle)
	e.validate()
	blank := len(e.problems.Errors())
	if got, want := panel(e), fmt.Sprintf("Validate #1: %d problems, 0 warnings", blank); got != want || blank == 0 {
		t.Fatalf("blank vehicle validated: %q, want %q", got, want)
	}

	// Another plugin: the result of Validate #1 is not its.
	d := builtinKS0223(t, e)
	e.load(d, nil)
	if p := panel(e); strings.Contains(p, "Validate #1") || !strings.HasPrefix(p, "Press Validate") {
		t.Errorf("KS0223 opened after the blank vehicle was validated: %q", p)
	}
	e.validate()
	if p := panel(e); p != "Validate #2: 0 problems, 0 warnings / No problems: ready to export and install." {
		t.Fatalf("KS0223 validated: %q", p)
	}
	if e.status != "valid: no problems" || e.statusKind != statusDone {
		t.Fatalf("KS0223 validated: status %q (%s)", e.status, e.statusKind)
	}

	// A change since: the count now, as the tabs show it, and no "ready".
	e.d.vehicle.Mass = "-5"
	e.check()
	if n := tabCounts(e); n != 1 {
		t.Fatalf("mass -5: the tabs count %d problems, want 1", n)
	}
	want := "Validate #2: 0 problems, 0 warnings, before the latest changes. / The plugin changed since: 1 problem in the fields now. Press Validate again."
	if p := panel(e); p != want {
		t.Errorf("mass -5 after a passing Validate:\n got %q\nwant %q", p, want)
	}
	// The status line no longer says the plugin is valid.
	if e.status != "changed since Validate: 1 problem in the fields now" || e.statusKind != statusInfo {
		t.Errorf("mass -5 after a passing Validate: status %q (%s)", e.status, e.statusKind)
	}
	e.d.vehicle.Mass = "2"
	e.check()
	if p := panel(e); strings.Contains(p, "ready") || !strings.Contains(p, "0 problems in the fields now. Press Validate again.") {
		t.Errorf("mass fixed, not validated again: %q", p)
	}
	if e.status != "changed since Validate: 0 problems in the fields now" {
		t.Errorf("mass fixed, not validated again: status %q", e.status)
	}

	// New track after a passing Validate: its problems, not the vehicle's "ready"; the open
	// field no longer names the file opened before.
	e.openPath = "vehicle.acme.rover.v1.rusim-plugin.zip"
	e.startNew(plugins.TypeTrack)
	if e.openPath != "" {
		t.Errorf("New track: the open field still holds %q", e.openPath)
	}
	n := tabCounts(e)
	if want := fmt.Sprintf("Fields framed in red have problems (%d now). / The first: %s", n, e.live.Errors()[0]); n == 0 || !strings.HasSuffix(panel(e), want) || strings.Contains(panel(e), "ready") {
		t.Errorf("new track: %q, want it to end %q", panel(e), want)
	}
}

// TestListSummary: the Installed list counts built-in plugins apart from those the user
// installed, never calling the built-ins installed.
func TestListSummary(t *testing.T) {
	items, err := testRegistry(t).List()
	if err != nil || len(items) == 0 {
		t.Fatalf("list: %v, %d items", err, len(items))
	}
	n := len(items)
	if got, want := listSummary(items), fmt.Sprintf("%d plugins: %d built-in, 0 installed", n, n); got != want {
		t.Errorf("fresh registry: %q, want %q", got, want)
	}
	items = append(items, registry.Item{PluginID: "vehicle.acme.rover.v1", Source: registry.SourceUser})
	if got, want := listSummary(items), fmt.Sprintf("%d plugins: %d built-in, 1 installed", n+1, n); got != want {
		t.Errorf("one installed: %q, want %q", got, want)
	}
	if got := listSummary(items[n:]); got != "1 plugin: 0 built-in, 1 installed" {
		t.Errorf("only one: %q", got)
	}
}

// Installing a copy of a built-in plugin under its id says what to do: give the copy an id of
// its own (the registry's own words, rusim's, say only that it cannot be done).
func TestInstallOverABuiltinSaysWhatToDo(t *testing.T) {
	e := testEditor(t, plugins.TypeVehicle)
	e.jobs = make(chan func() func(), 1)
	d := builtinKS0223(t, e)
	e.load(d, nil)
	e.install()
	job := <-e.jobs // what the worker would run
	job()()
	want := "vehicle.ks0223.v1 is built in and cannot be replaced: give your copy an id of its own (and a display name), then install it"
	if e.status != want || e.statusKind != statusFailed {
		t.Errorf("status %q (%s), want %q", e.status, e.statusKind, want)
	}
}

// A track whose geometry is out of range has no top-down view of its own; the preview says
// why in the editor's words (Validate lists the problems), not as a scenario's parameters
// would be told, and shows the track as it last had none, so that the view stays while a field
// is being typed.
func TestPreviewOfBrokenGeometry(t *testing.T) {
	d, _ := newDraft(plugins.TypeTrack)
	d.track.Base.ID, d.track.Base.DisplayName = "track.yard.v1", "Yard"
	d.track.FloorOn, d.track.FloorLength = true, "-1"
	b, err := d.build()
	if err != nil {
		t.Fatal(err)
	}
	p := &previewer{r: newRenderer()}
	defer p.r.Close()
	err = p.track(&previewOut{}, b.plugin.Track)
	if err == nil || err.Error() != "no preview while the geometry has problems: Validate lists them" {
		t.Errorf("floor length -1, never good: %v", err)
	}
	d.track.FloorLength = "10"
	good, err := d.build()
	if err != nil {
		t.Fatal(err)
	}
	was := &previewOut{}
	if err := p.track(was, good.plugin.Track); err != nil || was.layout == nil {
		t.Fatalf("floor length 10: %v", err)
	}
	out := &previewOut{}
	err = p.track(out, b.plugin.Track)
	if err == nil || !strings.Contains(err.Error(), "shown as it last had none") || out.layout != was.layout || out.views[0].img != was.views[0].img {
		t.Errorf("floor length -1 after 10: %v, layout %p (the last good %p)", err, out.layout, was.layout)
	}
}

// A body size the validator refuses is drawn with the shape's default size; the preview says
// so and points at Validate, not at the drawing's own limits (0 for the default).
func TestPreviewOfBrokenBody(t *testing.T) {
	e := testEditor(t, plugins.TypeVehicle)
	d := builtinKS0223(t, e)
	d.vehicle.Length = "-0.25"
	b, err := d.build()
	if err != nil {
		t.Fatal(err)
	}
	p := &previewer{r: newRenderer()}
	defer p.r.Close()
	err = p.vehicle(&previewOut{}, b.plugin.Vehicle)
	if err == nil || err.Error() != "drawn with defaults where the fields have problems: Validate lists them" {
		t.Errorf("length -0.25: %v", err)
	}
	// And drawn it is: a negative size used to draw the car inside out, invisible.
	d.vehicle.Height = "-0.1"
	if b, err = d.build(); err != nil {
		t.Fatal(err)
	}
	m, _ := vehicleMesh(b.plugin.Vehicle)
	if lo, hi := m.Bounds(); !(hi[0]-lo[0] > 0.1 && hi[1]-lo[1] > 0.1 && hi[2]-lo[2] > 0.03) {
		t.Errorf("length -0.25, height -0.1: the preview's car spans %v..%v", lo, hi)
	}
	// A size out of range is drawn as the default too, not as a tower filling the views: the
	// chase view shows the corridor's floor, not one flat colour.
	d.vehicle.Length, d.vehicle.Height = "0.25", "1e308"
	if b, err = d.build(); err != nil {
		t.Fatal(err)
	}
	out := &previewOut{}
	if err := p.vehicle(out, b.plugin.Vehicle); err == nil || !strings.HasPrefix(err.Error(), "drawn with defaults") {
		t.Errorf("height 1e308: %v", err)
	}
	img := out.views[1].img
	if img == nil {
		t.Fatal("no chase view")
	}
	colours := map[[3]uint8]bool{}
	for i := 0; i+2 < len(img.Pix); i += 4 * 97 {
		colours[[3]uint8{img.Pix[i], img.Pix[i+1], img.Pix[i+2]}] = true
	}
	if len(colours) < 20 {
		t.Errorf("height 1e308: the chase view has %d colours, want a scene", len(colours))
	}
}

func TestMountParamsFitTheForm(t *testing.T) {
	// The form's body in a 900-pixel window is about 510 pixels wide, in a 1280-pixel one
	// about 730: a parameter's field must keep room for a few digits in both.
	for _, c := range []struct{ width, want int }{{300, 2}, {510, 3}, {730, 4}, {2000, 4}} {
		n := paramsPerLineIn(c.width)
		if n != c.want {
			t.Errorf("a %d-pixel form: %d parameters a line, want %d", c.width, n, c.want)
		}
		if field := (c.width-26)/n - 96; c.width >= 400 && field < 60 {
			t.Errorf("a %d-pixel form: fields %d pixels wide", c.width, field)
		}
	}
}

// TestCancelledDialogEndsBusy: a file dialog the host's window answers with nothing (Cancel)
// ends the "answer the file dialog" status, which otherwise stayed until another button.
func TestCancelledDialogEndsBusy(t *testing.T) {
	e := testEditor(t, plugins.TypeVehicle)
	var answer func(string)
	e.host.Files = func(_ FileRequest, done func(string)) { answer = done }
	chosen := "unset"
	e.files(FileRequest{Title: "Export x"}, func(p string) { chosen = p })
	if e.statusKind != statusBusy {
		t.Fatalf("while the dialog is open: %q (%s)", e.status, e.statusKind)
	}
	answer("")
	if chosen != "" || e.statusKind == statusBusy || e.status != "dialog closed, nothing chosen" {
		t.Errorf("after Cancel: chose %q, status %q (%s)", chosen, e.status, e.statusKind)
	}
}

// TestShortName: the Installed list cuts a long display name, keeping short ones whole.
func TestShortName(t *testing.T) {
	long := strings.Repeat("Long", 100)
	if got := shortName(long); len([]rune(got)) != maxListedName || !strings.HasSuffix(got, "…") || !strings.HasPrefix(long, strings.TrimSuffix(got, "…")) {
		t.Errorf("shortName(400 characters) = %q", got)
	}
	if got := shortName("KS0223 — ünïcode"); got != "KS0223 — ünïcode" {
		t.Errorf("a short name became %q", got)
	}
}

// A field holding text that is not a number does not reach the preview, where it would be
// drawn at 0: the preview keeps the plugin as it last read and says which field it waits on.
func TestPreviewHoldsWhileAFieldIsNotANumber(t *testing.T) {
	e := testEditor(t, plugins.TypeTrack)
	e.d.track.Elements = append(e.d.track.Elements, elementRow{Kind: "wall", X: "3", Y: "1", Length: "2", Width: "0.1", Height: "0.5"})
	e.check()
	gen, asked := e.gen, e.preview.pending
	if asked == nil || len(asked.track.Elements) == 0 || asked.track.Elements[len(asked.track.Elements)-1].X != 3 {
		t.Fatalf("the preview was not asked for the wall at x 3: %+v", asked)
	}
	e.d.track.Elements[len(e.d.track.Elements)-1].X = "3.x"
	e.check()
	if e.gen != gen || e.preview.pending != asked {
		t.Errorf("the preview was asked again with x %q (gen %d → %d)", "3.x", gen, e.gen)
	}
	if !strings.Contains(e.views.held, "elements[") || !strings.Contains(e.views.held, ".x") {
		t.Errorf("the panel's note: %q", e.views.held)
	}
	e.d.track.Elements[len(e.d.track.Elements)-1].X = "3.5"
	e.check()
	if e.views.held != "" || e.gen == gen || e.preview.pending.track.Elements[len(asked.track.Elements)-1].X != 3.5 {
		t.Errorf("after the field reads again: note %q, gen %d, x %v", e.views.held, e.gen, e.preview.pending.track.Elements)
	}
}

// A camera shape out of range (a frame 100,000 pixels wide) is previewed at the panel's size,
// and the view's label says so: drawn at its size it was a line one pixel high.
func TestPreviewOfImpossibleCameraShape(t *testing.T) {
	e := testEditor(t, plugins.TypeVehicle)
	d := builtinKS0223(t, e)
	p := &previewer{r: newRenderer()}
	defer p.r.Close()
	shoot := func(shape string) previewView {
		for i := range d.vehicle.Sensors {
			if d.vehicle.Sensors[i].Type == plugins.SensorCamera {
				d.vehicle.Sensors[i].Shape = shape
			}
		}
		b, err := d.build()
		if err != nil {
			t.Fatal(err)
		}
		out := &previewOut{}
		p.vehicle(out, b.plugin.Vehicle)
		if out.views[0].img == nil {
			t.Fatalf("shape %s: no camera view (%s)", shape, out.views[0].label)
		}
		return out.views[0]
	}
	if v := shoot("480, 640, 3"); v.img.Bounds().Dx() != previewW || v.img.Bounds().Dy() != previewH || strings.Contains(v.label, "out of range") {
		t.Errorf("640×480: %v, %q", v.img.Bounds(), v.label)
	}
	if v := shoot("1, 100000, 3"); v.img.Bounds().Dx() != previewW || v.img.Bounds().Dy() != previewH || !strings.Contains(v.label, "shape out of range, drawn 320×240") {
		t.Errorf("100000×1: %v, %q", v.img.Bounds(), v.label)
	}
}

// A panic while drawing a preview (here, a previewer without its renderer) is the preview's
// error, shown in its panel, not the end of the editor.
func TestPreviewPanicIsItsError(t *testing.T) {
	e := testEditor(t, plugins.TypeVehicle)
	d := builtinKS0223(t, e)
	b, err := d.build()
	if err != nil {
		t.Fatal(err)
	}
	p := &previewer{}
	err = p.draw(&previewOut{}, &previewReq{vehicle: b.plugin.Vehicle})
	if err == nil || !strings.Contains(err.Error(), "the preview failed: internal error") {
		t.Errorf("a preview that panics: %v", err)
	}
}

// The top-down view's camera fan follows the camera view: a shape out of range is drawn at
// the preview's own aspect, not as a 4° sliver or a half circle.
func TestTopDownFanOfAnImpossibleShape(t *testing.T) {
	v := &plugins.VehicleDescriptor{Contract: &plugins.DeviceContract{Sensors: []plugins.SensorDescriptor{{ID: "cam", Shape: []int{5000, 320, 3}}}}}
	m := &plugins.SensorMount{ID: "cam", Kind: plugins.SensorCamera, Params: map[string]float64{"fovDeg": 60}}
	want := 2 * math.Atan(math.Tan(rad(60)/2)*float64(previewW)/previewH)
	if l, r := cameraSpan(v, m); math.Abs(l+r-want) > 1e-9 {
		t.Errorf("5000×320: %.1f°, want %.1f°", (l+r)*180/math.Pi, want*180/math.Pi)
	}
	v.Contract.Sensors[0].Shape = []int{240, 640, 3}
	if l, r := cameraSpan(v, m); math.Abs(l+r-2*math.Atan(math.Tan(rad(60)/2)*640/240)) > 1e-9 {
		t.Errorf("640×240: %.1f°, want %.1f°", (l+r)*180/math.Pi, 2*math.Atan(math.Tan(rad(60)/2)*640/240)*180/math.Pi)
	}
}

// The top-down view's camera fan is the field the camera draws: a calibrated fx (fovDeg left
// at 68°, unused) with the principal point off centre, and a fisheye lens. It was drawn from
// fovDeg alone: ±42° for the first, which sees 28° left and 37° right.
func TestTopDownFanFollowsTheLens(t *testing.T) {
	v := &plugins.VehicleDescriptor{Contract: &plugins.DeviceContract{Sensors: []plugins.SensorDescriptor{{ID: "cam", Shape: []int{240, 320, 3}}}}}
	m := &plugins.SensorMount{ID: "cam", Kind: plugins.SensorCamera, Params: map[string]float64{"fx": 300, "cx": 120}}
	l, r := cameraSpan(v, m)
	if wl, wr := math.Atan(120.5/300), math.Atan(199.5/300); math.Abs(l-wl) > 1e-9 || math.Abs(r-wr) > 1e-9 {
		t.Errorf("fx 300, cx 120: %.1f° left, %.1f° right, want %.1f° and %.1f°", l*180/math.Pi, r*180/math.Pi, wl*180/math.Pi, wr*180/math.Pi)
	}
	// An equidistant fisheye of fx 70 over 160 pixels: 80/70 rad (65°) to each side, well
	// past the 42° fovDeg's default gives.
	v.Contract.Sensors[0].Shape = []int{120, 160, 3}
	m.Params = map[string]float64{"lensModel": 1, "fx": 70}
	if l, r := cameraSpan(v, m); math.Abs(l-80.0/70) > 1e-6 || math.Abs(r-80.0/70) > 1e-6 {
		t.Errorf("fisheye: %.1f° left, %.1f° right, want %.1f° each", l*180/math.Pi, r*180/math.Pi, 80.0/70*180/math.Pi)
	}
}

// Before Validate, the Problems panel says what is wrong with a field framed on the tab on
// show, not only that fields are framed.
func TestProblemsPanelSaysTheTabsFirst(t *testing.T) {
	e := testEditor(t, plugins.TypeVehicle)
	d := builtinKS0223(t, e)
	e.load(d, nil)
	for i := range e.d.vehicle.Sensors {
		if e.d.vehicle.Sensors[i].Type == plugins.SensorCamera {
			e.d.vehicle.Sensors[i].Shape = "240, 320, 7"
		}
	}
	e.d.vehicle.Base.ID = ""
	e.tab = tabSensors
	e.check()
	if p := panel(e); !strings.Contains(p, "The first: device-contract.sensors[0].shape:") || !strings.Contains(p, "[240 320 7]") {
		t.Errorf("the panel: %q", p)
	}
}

// A failure is told as past once the fields change after it: the change may have mended it.
func TestFailedStatusIsPastAfterAChange(t *testing.T) {
	e := testEditor(t, plugins.TypeVehicle)
	d := builtinKS0223(t, e)
	e.load(d, nil)
	e.check()
	e.failed("nothing exported: 1 problem")
	if line, kind := e.statusShown(); kind != statusFailed || !strings.HasPrefix(line, "nothing exported") {
		t.Fatalf("just failed: %q (%s)", line, kind)
	}
	e.d.vehicle.Mass = "3"
	e.check()
	line, kind := e.statusShown()
	if kind != statusInfo || !strings.Contains(line, "before the last change: nothing exported: 1 problem") {
		t.Errorf("after a change: %q (%s), want it told as past without the failed badge", line, kind)
	}
}

// The editor's title says F1 lists its keys, in `simgui edit`'s window too (it said nothing
// there), and in the simulator's window F2 goes back.
func TestToolbarTitleNamesTheKeys(t *testing.T) {
	for _, hosted := range []bool{false, true} {
		title := toolbarTitle(hosted)
		if !strings.Contains(title, "F1: keys") {
			t.Errorf("hosted %v: the title %q does not say F1 lists the keys", hosted, title)
		}
		if strings.Contains(title, "F2") != hosted {
			t.Errorf("hosted %v: the title %q", hosted, title)
		}
	}
}
