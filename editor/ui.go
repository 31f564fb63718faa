package editor

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"image/color"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"simgui/plugins"
)

var (
	backgroundColor = color.NRGBA{24, 26, 30, 255}
	problemColor    = color.NRGBA{235, 64, 52, 255}
)

// toolbarHeight is the height of the top window in pixels: title and four rows.
const toolbarHeight = 124

// toolbarTitle heads the editor: it says where F1's key list is (`simgui edit` said nothing
// of it), and in the simulator's window (hosted) the way back.
func toolbarTitle(hosted bool) string {
	if hosted {
		return "simgui plugin editor   (F2: back to the simulator, F1: keys)"
	}
	return "simgui plugin editor   (F1: keys)"
}

// layout lays out the editor's windows: the toolbar across the top, the form on the left, the
// preview and the problems on the right. The windows are keyed by the screen size, so that a
// resized window lays them out afresh.
func (e *Editor) layout(ctx *debugui.Context) {
	w, h := e.w, e.h
	formW := max(w*58/100, 420)
	previewH := (h - toolbarHeight) * 62 / 100
	ctx.IDScope(fmt.Sprintf("%dx%d", w, h), func() {
		ctx.Window(toolbarTitle(e.host.TestDrive != nil), image.Rect(0, 0, w, toolbarHeight), func(l debugui.ContainerLayout) {
			e.clip = l.BodyBounds
			e.toolbar(ctx)
		})
		ctx.Window(e.formTitle(), image.Rect(0, toolbarHeight, formW, h), func(l debugui.ContainerLayout) {
			e.clip = l.BodyBounds
			e.revealAt, e.goAt = image.Rectangle{}, image.Rectangle{}
			if e.toTop {
				ctx.SetScroll(image.Point{}) // from the next frame on
				e.toTop = false
			}
			e.form(ctx)
			e.scrollToGoTo(ctx, l)
			if e.reveal != "" && !e.revealAt.Empty() {
				// Up as far as a drop-down's list (formTail) needs under the target, and no
				// further: the new row just above it gets the room.
				b := l.BodyBounds
				if over := e.revealAt.Min.Y + formTail - b.Max.Y; over > 0 {
					y := l.ScrollOffset.Y + over
					ctx.SetScroll(image.Pt(l.ScrollOffset.X, max(0, min(y, l.ContentSize.Y-b.Dy()))))
				}
				e.reveal = ""
			}
		})
		ctx.Window("Preview", image.Rect(formW, toolbarHeight, w, toolbarHeight+previewH), func(l debugui.ContainerLayout) {
			e.clip = l.BodyBounds
			e.previewPanel(ctx, l.BodyBounds)
		})
		ctx.Window("Problems", image.Rect(formW, toolbarHeight+previewH, w, h), func(l debugui.ContainerLayout) {
			e.clip = l.BodyBounds
			e.problemsPanel(ctx)
		})
		overlay := image.Rectangle{}
		popup := func(title string, r image.Rectangle, body func()) {
			ctx.Window(title, r, func(l debugui.ContainerLayout) {
				e.clip, e.inOverlay = l.BodyBounds, true
				// debugui's windows are a little transparent: the form beneath showed through.
				b := l.BodyBounds
				ctx.SetGridLayout([]int{-1}, []int{1})
				ctx.DrawOnlyWidget(func(dst *ebiten.Image) {
					vector.FillRect(dst, float32(b.Min.X), float32(b.Min.Y), float32(b.Dx()), float32(b.Dy()), overlayBG, false)
				})
				body()
				overlay, e.inOverlay = l.Bounds, false
			})
		}
		switch {
		case e.helpOpen: // over the Installed list when both are open
			popup("Keys (F1 closes)", image.Rect(max(0, w/2-330), toolbarHeight+20, min(w, w/2+330), min(h-10, toolbarHeight+20+300)), func() { e.helpPanel(ctx) })
		case e.installedOpen:
			popup("Open an installed plugin", image.Rect(w/2-260, toolbarHeight+20, w/2+260, min(h-20, toolbarHeight+20+520)), func() { e.installedPanel(ctx) })
		}
		e.overlay = overlay
	})
}

// overlayBG is the opaque background of the editor's pop-up window (debugui's window colour).
var overlayBG = color.RGBA{45, 45, 45, 255}

func (e *Editor) formTitle() string {
	id := e.d.id()
	if id == "" {
		id = "(no id yet)"
	}
	return fmt.Sprintf("%s %s", strings.ToUpper(string(e.d.typ[:1]))+string(e.d.typ[1:]), id)
}

// toolbar is the top window: New, Validate, Export, Install & test drive, Open, and the
// status line.
func (e *Editor) toolbar(ctx *debugui.Context) {
	ctx.SetGridLayout([]int{100, 90, 80, 60, 70, 100, 160, -1}, nil)
	e.button(ctx, "new-vehicle", "New vehicle", func() { e.leave("New vehicle", func() { e.startNew(plugins.TypeVehicle) }) })
	e.button(ctx, "new-track", "New track", func() { e.leave("New track", func() { e.startNew(plugins.TypeTrack) }) })
	e.button(ctx, "validate", "Validate", func() { e.validate() })
	e.button(ctx, "save", "Save", func() { e.save() })
	e.button(ctx, "export", "Export", func() {
		p := e.exportPath
		if strings.TrimSpace(p) == "" {
			p = e.defaultExportPath()
		}
		e.export(p, false)
	})
	e.button(ctx, "export-as", "Export as...", func() {
		id := e.d.id()
		e.files(FileRequest{Title: "Export " + id, Save: true, Filter: "simgui plugin", Extensions: []string{"zip"},
			StartDir: e.opts.ExportDir, Name: filepath.Base(e.defaultExportPath())}, func(p string) {
			if p != "" {
				e.exportPath = p
				e.export(p, true) // the dialog asked before choosing a file that exists
			}
		})
	})
	e.button(ctx, "install", "Install & test drive", func() { e.install() })
	busy := ""
	if e.busy != "" {
		busy = e.busy + " ..."
		if n := len(e.queue); n > 0 {
			busy += fmt.Sprintf(" (%d more waiting)", n)
		}
	}
	ctx.Text(busy)

	ctx.SetGridLayout([]int{70, -3, 100, -2}, nil)
	ctx.Text("export to")
	e.field(ctx, "export.path", &e.exportPath)
	ctx.Text("sign with key")
	e.field(ctx, "export.key", &e.keyPath)

	ctx.SetGridLayout([]int{70, -1, 60, 80, 100}, nil)
	ctx.Text("open")
	open := func() { e.leave("Open", func() { e.open(e.openPath) }) }
	if e.field(ctx, "open.path", &e.openPath) { // Enter opens, as the button does
		e.later = append(e.later, open)
	}
	e.button(ctx, "open", "Open", open)
	e.button(ctx, "browse", "Browse...", func() { e.leave("Browse...", e.browse) })
	e.button(ctx, "installed", "Installed...", func() {
		e.installedOpen = !e.installedOpen
		if e.installedOpen {
			e.listInstalled()
		}
	})

	ctx.SetGridLayout([]int{60, -1}, nil)
	line, kind := e.statusShown()
	e.badge(ctx, kind)
	if hint := "   (Export writes " + e.defaultExportPath() + ")"; e.exportPath == "" && fits(line+hint, e.w-64) {
		line += hint
	}
	ctx.Text(fitLine(line, e.w-64))
}

// statusShown is the status line as it shows: the message and its kind, with a question or
// a result about the fields before their last change told as past, and unsaved changes said.
func (e *Editor) statusShown() (line, kind string) {
	line, kind = e.status, e.statusKind
	if kind == statusAsk && e.statusKey != e.liveKey {
		// A question about the fields as they were: they changed since, and a second click
		// asks again (mayLeave), so it is not shown as if it still stood.
		line, kind = "", statusInfo
	}
	if kind == statusFailed && e.statusKey != e.liveKey && !e.broken {
		// A failure before the fields last changed may be mended by the change: it is told
		// as past, without the red badge, until something else is done.
		line, kind = "before the last change: "+line, statusInfo
	}
	if e.unsaved() && kind != statusAsk { // a question says what is not kept itself
		if kind == statusDone && e.statusKey != e.liveKey {
			// What was done (a save, say) is past: the changes since are the news.
			line, kind = "", statusInfo
		}
		line = strings.TrimSuffix("unsaved changes (Save writes them to "+e.d.folder+") · "+line, " · ")
	}
	return line, kind
}

// Badge colours by status kind.
var badgeColors = map[string]color.NRGBA{
	statusBusy:   {200, 150, 40, 255},
	statusDone:   {50, 150, 70, 255},
	statusFailed: {190, 50, 45, 255},
	statusAsk:    {60, 110, 190, 255},
}

// badge marks the status line: BUSY while a job runs or a dialog is open, DONE or FAILED for
// how the last one ended (nothing for plain information).
func (e *Editor) badge(ctx *debugui.Context, kind string) {
	if e.busy != "" {
		kind = statusBusy
	}
	c, ok := badgeColors[kind]
	ctx.GridCell(func(b image.Rectangle) {
		ctx.DrawOnlyWidget(func(dst *ebiten.Image) {
			if !ok {
				return
			}
			vector.FillRect(dst, float32(b.Min.X), float32(b.Min.Y), float32(b.Dx()), float32(b.Dy()), c, false)
			label := strings.ToUpper(kind)
			op := &text.DrawOptions{}
			op.GeoM.Translate(float64(b.Min.X+(b.Dx()-len(label)*charWidth)/2), float64(b.Min.Y+(b.Dy()-lineH)/2))
			debugui.DrawText(dst, label, op)
		})
	})
}

// charWidth is the advance of debugui's bitmap font, pixels.
const charWidth = 6

// fits reports whether s fits on one line of a window w pixels wide.
func fits(s string, w int) bool { return len([]rune(s))*charWidth <= w-24 }

// fitLine shortens s to one line of a window w pixels wide.
func fitLine(s string, w int) string {
	if fits(s, w) {
		return s
	}
	r := []rune(s)
	return string(r[:max(0, (w-24)/charWidth-3)]) + "..."
}

func (e *Editor) startNew(typ plugins.Type) {
	d, err := newDraft(typ)
	if err != nil {
		e.setStatus(err.Error())
		return
	}
	e.load(d, nil)
	e.openPath = "" // the last opened file is not this new plugin's
}

// browse asks for an archive with the file dialog and opens it.
func (e *Editor) browse() {
	e.files(FileRequest{Title: "Open a plugin archive", Filter: "simgui plugin", Extensions: []string{"zip"}}, func(p string) {
		if p != "" {
			e.openPath = p
			e.open(p)
		}
	})
}

// installedPanel lists the built-in and user plugins; clicking one opens it.
func (e *Editor) installedPanel(ctx *debugui.Context) {
	ctx.SetGridLayout([]int{-1, 80}, nil)
	ctx.Text("Built-in and installed plugins (RUSIM_HOME " + e.reg.Home() + ")")
	e.button(ctx, "installed.close", "Close", func() { e.installedOpen = false })
	ctx.SetGridLayout([]int{-1, 80}, nil)
	switch {
	case e.listing:
		ctx.Text("reading the registry ...")
	case e.listErr != "":
		ctx.Text("could not read the registry: " + e.listErr)
	case e.installed == nil:
		// Not read yet (never stuck: opening the list asks for it).
		e.listInstalled()
		ctx.Text("reading the registry ...")
	default:
		ctx.Text(listSummary(e.installed))
	}
	e.button(ctx, "installed.refresh", "Refresh", func() { e.listInstalled() })
	ctx.SetGridLayout([]int{-1}, nil)
	for _, it := range e.installed {
		id := it.PluginID
		// The id first and the name cut short: a long name must not push the id out of the row.
		label := fmt.Sprintf("%s   %s %s   [%s]", id, shortName(it.DisplayName), it.Version, it.Source)
		e.target(ctx, "installed:"+id, func(cell image.Rectangle) {
			ctx.Button(label).On(func() {
				e.clicked("installed:"+id, cell, func() { e.leave(id, func() { e.openID(id) }) })
			})
		})
	}
}

// shortName is a display name cut to maxListedName characters with an ellipsis.
func shortName(s string) string {
	if r := []rune(s); len(r) > maxListedName {
		return string(r[:maxListedName-1]) + "…"
	}
	return s
}

// maxListedName is how much of a display name the Installed list shows.
const maxListedName = 40

// problemsPanel lists the problems the last Validate or Export of this plugin found, each
// with its field.
func (e *Editor) problemsPanel(ctx *debugui.Context) {
	ctx.SetGridLayout([]int{-1}, nil)
	for _, l := range e.problemsHead() {
		ctx.Text(l)
	}
	if !e.validated() {
		return
	}
	ctx.SetGridLayout([]int{36, -1}, nil)
	for i, p := range e.problems {
		s := p.String()
		if p.Warning {
			s = "warning: " + s
		}
		tab, field := e.tabOf(p.Path), "field:"+canonicalPath(p.Path)
		e.button(ctx, "problem["+itoa(i)+"]", "go", func() {
			e.tab, e.goTo, e.goFrames, e.goFocus = tab, field, goFrames, true
		})
		ctx.Text(s)
	}
}

// goFrames is how many frames a problem's "go" may take to scroll its field into view: the
// first of them lays out the field's tab, whose height the form learns only then.
const goFrames = 10

// scrollToGoTo scrolls the form, laid out in l, until the field a problem's "go" names is
// on show whole with a margin, above or below; a field not laid out is given up on after
// goFrames frames (a problem of a whole table has no field of its own).
func (e *Editor) scrollToGoTo(ctx *debugui.Context, l debugui.ContainerLayout) {
	if e.goTo == "" {
		return
	}
	const margin = 24
	b, over := l.BodyBounds, 0
	if !e.goAt.Empty() {
		if d := e.goAt.Max.Y + margin - b.Max.Y; d > 0 {
			over = d
		} else if d := e.goAt.Min.Y - margin - b.Min.Y; d < 0 {
			over = d
		}
		if over == 0 {
			e.goTo, e.goFocus = "", false
			return
		}
		y := l.ScrollOffset.Y + over
		ctx.SetScroll(image.Pt(l.ScrollOffset.X, max(0, min(y, l.ContentSize.Y-b.Dy()))))
	}
	if e.goFrames--; e.goFrames <= 0 {
		e.goTo, e.goFocus = "", false
	}
}

// atGoTo adds b to where what a problem's "go" shows is laid out, when name is its field or
// a field under its path: for a problem of a whole row (a box's size is
// descriptor.elements[6]), the row's fields. It reports whether name is the field itself.
// Without the row, "go" showed the row's tab at its top, the row framed in red out of sight.
func (e *Editor) atGoTo(name string, b image.Rectangle) bool {
	if e.goTo == "" {
		return false
	}
	if name == e.goTo || strings.HasPrefix(name, e.goTo+".") || strings.HasPrefix(name, e.goTo+"[") {
		e.goAt = e.goAt.Union(b)
	}
	return name == e.goTo
}

// validated reports whether the problems listed are of the plugin being edited: a Validate
// (or Export, Install) ran since it was opened or started.
func (e *Editor) validated() bool { return e.checked > 0 && e.checkOf == e.d }

// problemsHead is what the Problems panel says above the list. The last Validate's result is
// of the plugin it validated; once the plugin changed since, it is history, and the panel
// counts the problems the fields have now (as the tabs do) instead of calling it ready.
func (e *Editor) problemsHead() []string {
	now := e.liveErrorCount()
	if !e.validated() {
		lines := []string{"Press Validate to list every problem with its field (the check `simgui plugin validate` runs)."}
		if now > 0 {
			lines = append(lines, fmt.Sprintf("Fields framed in red have problems (%d now).", now))
			// One said here, the tab on show's first: a frame alone does not say what is
			// wrong (a shape of 7 channels, say) until Validate.
			if errs := e.live.Errors(); len(errs) > 0 {
				first := errs[0]
				if i := slices.IndexFunc(errs, func(p plugins.Problem) bool { return e.tabOf(p.Path) == e.tab }); i >= 0 {
					first = errs[i]
				}
				lines = append(lines, "The first: "+first.String())
			}
		}
		return lines
	}
	head := fmt.Sprintf("Validate #%d: %s, %s", e.checked, count(len(e.problems.Errors()), "problem"), count(len(e.problems.Warnings()), "warning"))
	switch {
	case e.checkKey != e.liveKey:
		return []string{head + ", before the latest changes.",
			fmt.Sprintf("The plugin changed since: %s in the fields now. Press Validate again.", count(now, "problem"))}
	case len(e.problems) == 0:
		return []string{head, "No problems: ready to export and install."}
	}
	return []string{head}
}

// liveErrorCount is how many problems the automatic check finds now: the sum of the counts
// the tabs show.
func (e *Editor) liveErrorCount() int {
	n := 0
	for _, t := range e.tabs() {
		n += e.tabErrors(t)
	}
	return n
}

// tabOf names the form tab that shows the field at a validator path.
func (e *Editor) tabOf(path string) string {
	path = canonicalPath(path)
	for _, t := range e.tabs()[1:] {
		if t.owns(path) {
			return t.name
		}
	}
	return tabGeneral
}

// target lays out one widget in a grid cell and records the cell under name, so that the
// state file can tell a test where to click.
func (e *Editor) target(ctx *debugui.Context, name string, widget func(cell image.Rectangle)) {
	ctx.IDScope(name, func() {
		ctx.GridCell(func(b image.Rectangle) {
			if v := b.Intersect(e.clip); !v.Empty() {
				e.targets[name] = v
			}
			if name == e.reveal {
				e.revealAt = b
			}
			e.atGoTo(name, b)
			widget(b)
		})
	})
}

// swatch shows a "#rrggbb" colour (nothing when it is not one).
func (e *Editor) swatch(ctx *debugui.Context, s string) {
	ctx.GridCell(func(b image.Rectangle) {
		c, ok := parseColor(s)
		ctx.DrawOnlyWidget(func(dst *ebiten.Image) {
			if ok {
				vector.FillRect(dst, float32(b.Min.X), float32(b.Min.Y), float32(b.Dx()), float32(b.Dy()), c, false)
			}
		})
	})
}

// drawProblemFrames frames the fields the latest automatic check found problems with.
func (e *Editor) drawProblemFrames(screen *ebiten.Image) {
	for _, name := range e.problemFields() {
		r := e.targets[name]
		if r.Overlaps(e.overlay) {
			continue // under the Installed list
		}
		vector.StrokeRect(screen, float32(r.Min.X)-1, float32(r.Min.Y)-1, float32(r.Dx())+2, float32(r.Dy())+2, 1.5, problemColor, false)
	}
}

// problemFields returns the targets of the fields with live errors: a field whose path is
// the problem's, else the fields under the problem's path, else the nearest field above it.
func (e *Editor) problemFields() []string {
	var out []string
	for _, p := range e.live.Errors() {
		path := canonicalPath(p.Path)
		if path == "" {
			continue
		}
		if _, ok := e.targets["field:"+path]; ok {
			out = append(out, "field:"+path)
			continue
		}
		found := false
		for name := range e.targets {
			if f, ok := strings.CutPrefix(name, "field:"); ok && (strings.HasPrefix(f, path+".") || strings.HasPrefix(f, path+"[")) {
				out = append(out, name)
				found = true
			}
		}
		for p := parentPath(path); !found && p != ""; p = parentPath(p) {
			if _, ok := e.targets["field:"+p]; ok {
				out = append(out, "field:"+p)
				found = true
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// canonicalPath maps the validator paths of values the form shows once to the field's path:
// the manifest repeats the descriptor's id, name and version; the contract's deviceId is the
// id; a mount's id is its sensor's.
func canonicalPath(p string) string {
	switch p {
	case "manifest.pluginId", "device-contract.deviceId":
		return "descriptor.id"
	case "manifest.displayName":
		return "descriptor.displayName"
	case "manifest.version":
		return "descriptor.version"
	case "descriptor.deviceType":
		return "device-contract.deviceType"
	}
	return p
}

// parentPath drops the last ".name" or "[i]" of a path.
func parentPath(p string) string {
	i := strings.LastIndexAny(p, ".[")
	if i <= 0 {
		return ""
	}
	return p[:i]
}

// fingerprint identifies a set of files.
func fingerprint(files map[string][]byte) string {
	h := sha256.New()
	for _, name := range slices.Sorted(maps.Keys(files)) {
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(files[name]))
		h.Write(files[name])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// parseColor reads "#rrggbb".
func parseColor(s string) (color.NRGBA, bool) {
	s = strings.TrimSpace(s)
	var r, g, b uint8
	if len(s) != 7 || s[0] != '#' {
		return color.NRGBA{}, false
	}
	if _, err := fmt.Sscanf(s, "#%02x%02x%02x", &r, &g, &b); err != nil {
		return color.NRGBA{}, false
	}
	return color.NRGBA{r, g, b, 255}, true
}
