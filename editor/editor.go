package editor

import (
	"errors"
	"fmt"
	"image"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"simgui/app/window/clipboard"
	"simgui/app/window/desktop"
	"simgui/plugins"
	"simgui/plugins/registry"
)

// Host is what a window that hosts the editor lends it (see the package doc for how
// app/window's Host maps onto it). Every func may be nil and is called on the game goroutine.
type Host struct {
	// TestDrive spawns v — the vehicle just installed, as the registry loads it — in the
	// running world. It must not block: the window queues the spawn on its loop
	// (world.Loop.Do) and reports the outcome itself. Nil: Install & test drive installs only.
	TestDrive func(v *plugins.VehicleDescriptor) error
	// DriveTrack runs the track just installed, with a robot to drive, in place of the
	// running scenario. It must not block. It returns a question when the host wants the
	// drive asked for again first (robots spawned there would go), and the next click
	// drives. Nil: Install & test drive installs a track only.
	DriveTrack func(trackID string) (ask string)
	// Files shows a native file dialog off the game goroutine and calls done on the game
	// goroutine with the chosen path ("" when cancelled or unavailable). Nil: the editor
	// shows its own (desktop.ShowDialog on a goroutine of its own).
	Files func(req FileRequest, done func(path string))
	// Status shows a one-line message in the host's status line (install and test-drive
	// outcomes).
	Status func(msg string)
}

// FileRequest describes a native file dialog (the window's FileRequest; see app/window/desktop).
type FileRequest = desktop.FileRequest

// Options configure an Editor. The zero value is the product's.
type Options struct {
	// Registry is where Install & test drive installs and where Installed lists plugins;
	// default registry.Open(registry.DefaultHome(), registry.Options{}).
	Registry *registry.Registry
	// ExportDir is where Export writes <id>.rusim-plugin.zip while no path is typed;
	// default the working directory.
	ExportDir string
	// SigningKey is an ed25519 private key file (simgui plugin keygen). When set, exports and
	// installs are signed with it; the form's "sign with key" field starts with it.
	SigningKey string
	// Open is a plugin folder, archive or installed plugin id to open at start; empty starts
	// a new plugin of type New.
	Open string
	// New is the type of the plugin to start with when Open is empty: vehicle (default) or
	// track.
	New plugins.Type
	// Host connects the editor to a hosting window; see also SetHost.
	Host Host
	// StateFile, when set, receives the editor's state as JSON (State) about twenty times a
	// second: a hook for tests that drive the editor with real key and mouse events.
	StateFile string
	// Logger; default slog.Default().
	Logger *slog.Logger
}

// Editor is the descriptor editor screen: forms for a vehicle or track plugin, a live
// preview, Validate, Export, Install & test drive and Open. It implements ebiten.Game (and
// app/window's Screen). Update, Draw and Layout must be called on Ebiten's game goroutine;
// they never block: file and registry work runs on a worker goroutine of the editor's own.
type Editor struct {
	opts Options
	host Host
	reg  *registry.Registry
	log  *slog.Logger

	ui     debugui.DebugUI
	w, h   int
	frames uint64
	// clicks counts the left-button presses seen and lastClick is where the last was, for
	// the state file.
	clicks    int
	lastClick [2]int

	d        *draft
	tab      string
	gen      uint64 // changes whenever the preview is asked for a changed plugin
	liveKey  string
	savedKey string // liveKey when the draft was opened, saved to its folder or exported
	// armed is the button (New, Open) a first click asked to confirm while the draft had
	// changes not kept, at armedKey, until armedBy (leave).
	armed, armedKey string
	armedBy         time.Time
	live            plugins.Problems // the latest automatic check, for field frames and the schema line
	broken          bool             // the fields could not be written as files at the latest check
	statusKey       string           // liveKey when the status was set
	drag            *trackDrag       // a drag on the track's top-down view, nil for none
	undo            undoStack
	current         *built
	problems        plugins.Problems // from the last Validate or Export
	checked         int              // how many times Validate (or Export) listed problems
	checkKey        string           // liveKey when they were listed
	checkOf         *draft           // the plugin they are of (a result belongs to the plugin it validated)
	status          string
	statusKind      string // statusInfo, statusBusy, statusDone or statusFailed
	// statusValidated: the status is Validate's verdict, or the count of problems since, which
	// check renews at every change.
	statusValidated bool

	exportPath, keyPath, openPath string
	installedOpen                 bool
	helpOpen                      bool            // the Keys overlay (F1)
	installed                     []registry.Item // nil until first read
	listErr                       string
	busy                          string // what the worker is doing, "" when idle
	queue                         []queued
	listing                       bool   // the Installed list is being read
	fields                        fields // the text fields' keyboard and focus

	// This frame's layout: clickable things by name, the visible body of the window being
	// laid out, and the actions clicked (run after the layout pass).
	targets map[string]image.Rectangle
	values  map[string]string // text of the fields and drop-downs laid out
	// dropdown is the target name of the drop-down last clicked, the one whose list picks.
	dropdown string
	clip     image.Rectangle
	later    []func()
	// overlay is the window over the others (the Installed list) as laid out last frame;
	// inOverlay is set while it is being laid out.
	overlay   image.Rectangle
	inOverlay bool
	// reveal names a target (an "Add ..." button just clicked) the form scrolls up to, so that
	// the row added above it has room below for its drop-downs, which open downwards; revealAt
	// is where it was laid out this frame.
	reveal   string
	revealAt image.Rectangle
	// goTo names the field a problem's "go" shows: the form scrolls until the field is on
	// show whole, for at most goFrames more frames, and a text field takes the keyboard
	// (goFocus, once); goAt is where it was laid out this frame.
	goTo     string
	goFrames int
	goFocus  bool
	goAt     image.Rectangle
	// toTop has the form scrolled back to its top on its next layout: debugui keeps a
	// window's scroll by where it is laid out, not by its title, so another plugin loaded
	// (New, Open, Installed...) came up scrolled as far as the last one was, its tabs and
	// id out of sight.
	toTop bool

	preview *previewer
	views   previewImages

	jobs    chan func() func()
	mu      sync.Mutex
	results []func()
	stopped chan struct{}

	record record // what the state file reports
	state  *desktop.StateFile[State]
}

// New makes an editor. It starts the editor's worker and preview goroutines; Close stops them.
func New(opts Options) (*Editor, error) {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.ExportDir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		opts.ExportDir = wd
	}
	reg := opts.Registry
	if reg == nil {
		home, err := registry.DefaultHome()
		if err != nil {
			return nil, err
		}
		reg = registry.Open(home, registry.Options{})
	}
	e := &Editor{
		opts: opts, host: opts.Host, reg: reg, log: opts.Logger, keyPath: opts.SigningKey,
		targets: map[string]image.Rectangle{}, values: map[string]string{}, jobs: make(chan func() func(), 8), stopped: make(chan struct{}),
		preview: newPreviewer(),
	}
	e.fields.line.Clip = clipboard.System{}
	if opts.StateFile != "" {
		e.state = desktop.NewStateFile[State](opts.StateFile, stateInterval)
	}
	if opts.Open != "" {
		d, notes, err := openStart(reg, opts.Open)
		if err != nil {
			e.Close()
			return nil, err
		}
		e.load(d, notes)
	} else {
		typ := opts.New
		if typ == "" {
			typ = plugins.TypeVehicle
		}
		d, err := newDraft(typ)
		if err != nil {
			e.Close()
			return nil, err
		}
		e.load(d, nil)
	}
	go e.work()
	return e, nil
}

// openStart opens Options.Open: a path when it exists, else an installed plugin id.
func openStart(reg *registry.Registry, what string) (*draft, []string, error) {
	if _, err := os.Stat(expandHome(what)); err == nil {
		return openPath(what)
	}
	if _, _, err := plugins.ParseID(what); err == nil {
		return openInstalled(reg, what)
	}
	return nil, nil, fmt.Errorf("open %s: no such file or folder, and not a plugin id", what)
}

// Name names the screen in a hosting window ("editor").
func (e *Editor) Name() string { return "editor" }

// SetHost connects the editor to a hosting window (for example from app/window's
// Attacher.Attach). Game goroutine.
func (e *Editor) SetHost(h Host) { e.host = h }

// Shown is called by a hosting window when the editor comes on show or leaves it.
func (e *Editor) Shown(on bool) {
	if !on && e.armed == "close" {
		e.armed = "" // a question the user left the screen on is not answered by the next close
	}
	if on {
		e.liveKey = "" // check again: installs may have happened meanwhile
		e.check()
	}
}

// Layout uses the window's size as it is.
func (e *Editor) Layout(outsideWidth, outsideHeight int) (int, int) {
	e.w, e.h = outsideWidth, outsideHeight
	return outsideWidth, outsideHeight
}

// Update lays the forms out, handles their input and applies finished work.
func (e *Editor) Update() error {
	if e.w == 0 || e.h == 0 {
		return nil
	}

	e.frames++
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
		e.clicks++
		e.lastClick[0], e.lastClick[1] = ebiten.CursorPosition()
	}
	// Finished work may hand the screen to the host (Install & test drive), after which this
	// editor gets no frames: its state is written this frame, due or not.
	applied := e.applyResults()
	clear(e.targets)
	clear(e.values)
	e.later = e.later[:0]
	e.beginFields(time.Now())
	if _, err := e.ui.Update(func(ctx *debugui.Context) error {
		e.layout(ctx)
		return nil
	}); err != nil {
		return fmt.Errorf("editor: %w", err)
	}
	// The state describes the screen as just laid out: the clicks of this frame change it
	// (rows added, tabs switched) and show in the next.
	e.writeState(applied)
	e.endFields()
	for _, f := range e.later {
		f()
	}
	e.dragTrack()
	e.editKeys()
	e.check()
	e.updatePreview()
	return nil
}

// Draw draws the forms, the preview and the frames around fields with problems.
func (e *Editor) Draw(screen *ebiten.Image) {
	e.fields.kb.Drawn()
	screen.Fill(backgroundColor)
	e.ui.Draw(screen)
	e.drawProblemFrames(screen)
}

// Close stops the editor's goroutines. The editor must not be used afterwards.
func (e *Editor) Close() error {
	select {
	case <-e.stopped:
		return nil
	default:
	}
	close(e.stopped)
	e.preview.close()
	if e.state != nil {
		e.state.Close()
	}
	return nil
}

// load replaces the plugin being edited.
func (e *Editor) load(d *draft, notes []string) {
	e.d = d
	e.tab, e.toTop = tabGeneral, true
	e.problems, e.checkKey, e.liveKey, e.checkOf = nil, "", "", nil
	e.current, e.live = nil, nil
	e.exportPath = ""
	msg := "editing " + d.source
	for _, n := range notes {
		msg += "; " + n
	}
	e.setStatus(msg)
	e.check() // the fields' problems are this plugin's from the first frame
	e.savedKey = e.liveKey
	e.forgetChanges()
}

// unsaved reports whether the draft, opened from a folder, differs from what the folder
// holds as far as the editor knows (what it opened or last saved).
func (e *Editor) unsaved() bool { return e.d.folder != "" && e.liveKey != e.savedKey }

// leave runs then, which replaces the draft (New, Open), unless the draft has changes not
// saved or exported: then the first click says so and only a second click of the same
// button, with nothing changed in between, discards them.
func (e *Editor) leave(action string, then func()) {
	if e.mayLeave(action, "click "+action+" again") {
		then()
	}
}

// mayLeave is leave's test: false, with the question in the status line, when the draft
// has changes not kept and this is not the second try of the same action (again says how
// to try it again).
func (e *Editor) mayLeave(action, again string) bool {
	e.check()
	if e.current != nil && e.liveKey != e.savedKey && (e.armed != action || e.armedKey != e.liveKey || time.Now().After(e.armedBy)) {
		e.armed, e.armedKey, e.armedBy = action, e.liveKey, time.Now().Add(askAgain)
		keep := "Save, Export or Install them" // Save makes the draft a folder beside the exports
		if e.d.folder != "" {
			keep = "Save them to " + e.d.folder
		}
		// The way on first: a long folder path may not fit the line.
		e.setOutcome(statusAsk, fmt.Sprintf("%s has changes not kept: %s within %s to discard them, or %s",
			e.formTitle(), again, askAgain, keep))
		return false
	}
	e.armed = ""
	return true
}

// askAgain is how long a question about changes not kept waits for its second click or
// close: a close request minutes later is not an answer to it.
const askAgain = 10 * time.Second

// MayClose implements the window's CloseGuard: a draft with changes not kept keeps the
// window open once, saying so; closing it again discards them. Game goroutine.
func (e *Editor) MayClose() bool { return e.mayLeave("close", "close the window again") }

// kept marks the draft as it was at key as kept elsewhere (exported or installed), unless it
// has a folder, whose edits only Save keeps.
func (e *Editor) kept(key string) {
	if e.d.folder == "" {
		e.savedKey = key
	}
}

// Notify shows msg, a message of the window hosting the editor (a screenshot saved), in the
// status line: it implements the window's Notified. Game goroutine.
func (e *Editor) Notify(msg string) { e.setStatus(msg) }

// setStatus shows msg in the status line as information.
func (e *Editor) setStatus(msg string) { e.setOutcome(statusInfo, msg) }

// setOutcome shows msg in the status line marked as kind (busy, done, failed).
func (e *Editor) setOutcome(kind, msg string) {
	e.status, e.statusKind, e.statusValidated, e.statusKey = msg, kind, false, e.liveKey
	e.log.Debug("editor", "status", msg, "kind", kind)
}

// done and failed report how a job or a check ended.
func (e *Editor) done(msg string)     { e.setOutcome(statusDone, msg) }
func (e *Editor) failed(msg string)   { e.setOutcome(statusFailed, msg) }
func (e *Editor) failedErr(err error) { e.failed(err.Error()) }

// check builds the plugin from the forms when they changed and validates it as the CLI does;
// the result frames fields with problems and feeds the preview.
func (e *Editor) check() {
	b, err := e.d.build()
	if err != nil {
		// The fields hold something the files cannot: say so in the problems list too, in
		// place of the last check's, which no longer describe the fields.
		msg := fieldsUnwritable + err.Error()
		e.liveKey, e.broken = "", true
		e.live = plugins.Problems{{Message: msg}}
		if e.status != msg {
			e.failed(msg)
		}
		return
	}
	if e.broken && e.statusKind == statusFailed && strings.HasPrefix(e.status, fieldsUnwritable) {
		e.setStatus("") // mended: the fields read again
	}
	e.broken = false
	// Text that is not a number leaves the files as an empty field would: it counts too.
	key := fingerprint(b.files) + fmt.Sprint(b.parse)
	if key == e.liveKey {
		return
	}
	e.liveKey, e.current = key, b
	e.noteChange()
	_, e.live = b.validate()
	if e.statusValidated {
		// Validate's verdict was on the plugin before this change; the count follows every
		// change until another status replaces it.
		e.setStatus(fmt.Sprintf("changed since Validate: %s in the fields now", count(len(e.live.Errors()), "problem")))
		e.statusValidated = true
	}
	if len(b.parse) > 0 {
		// Text that is not a number would be drawn at 0: a wall jumps to the origin while
		// its x is half-typed. The preview keeps the last plugin that read, and says so.
		e.views.held = fmt.Sprintf("preview held: %s %s", strings.TrimPrefix(b.parse[0].Path, "descriptor."), b.parse[0].Message)
		return
	}
	e.views.held = ""
	e.gen++
	e.preview.request(previewReq{gen: e.gen, vehicle: b.plugin.Vehicle, track: b.plugin.Track})
}

// fieldsUnwritable begins the failure of fields the plugin's files cannot hold.
const fieldsUnwritable = "the fields cannot be written as the plugin's files: "

// validate lists every problem of the plugin as it stands (the Validate button).
func (e *Editor) validate() bool {
	e.check()
	if e.current == nil {
		return false
	}
	if e.broken { // e.current is of the fields before: list why instead
		e.problems, e.checkKey, e.checkOf = e.live, "", e.d
		e.checked++
		e.failed(e.live[0].Message)
		e.statusValidated = true
		return false
	}
	_, ps := e.current.validate()
	e.problems, e.checkKey, e.checkOf = ps, e.liveKey, e.d
	e.checked++
	n := len(ps.Errors())
	switch {
	case n == 0 && len(ps) == 0:
		e.done("valid: no problems")
	case n == 0:
		e.done(fmt.Sprintf("valid, with %s", count(len(ps), "warning")))
	default:
		e.failed(fmt.Sprintf("%s: see Problems", count(n, "problem")))
	}
	e.statusValidated = true
	return n == 0
}

// defaultExportPath is where Export writes while no path is typed.
func (e *Editor) defaultExportPath() string {
	id := e.d.id()
	if id == "" {
		id = "plugin"
	}
	return filepath.Join(e.opts.ExportDir, id+ArchiveExt)
}

// export validates the plugin and, when it is valid, writes it to path on the worker.
// A file there that is something else is replaced only when replace is true (the file
// dialog asked) or on a second Export of the same fields to the same path.
func (e *Editor) export(path string, replace bool) {
	if !e.validate() {
		e.failed("nothing exported: " + e.status)
		return
	}
	a, _ := e.current.validate()
	id, keyFile, draftKey := e.d.id(), e.keyPath, e.liveKey
	again := replaceAction + path
	replace = replace || e.armed == again && e.armedKey == draftKey
	e.armed = ""
	e.run("exporting "+id, func() func() {
		res, err := exportArchive(a, id, path, keyFile, replace)
		return func() {
			var occupied *occupiedError
			if errors.As(err, &occupied) {
				e.armed, e.armedKey = again, draftKey
				e.setOutcome(statusAsk, occupied.Error()+": click Export again to replace it, or type another path")
				return
			}
			if err != nil {
				e.failedErr(err)
				return
			}
			e.record.Exported = append(e.record.Exported, res.path)
			e.kept(draftKey)
			msg := "exported " + res.path
			if res.signedBy != "" {
				msg += ", signed by key " + res.signedBy
			}
			e.done(msg)
		}
	})
}

// replaceAction marks, in Editor.armed, an export that asked before replacing the file at
// the path that follows.
const replaceAction = "replace:"

// open opens a plugin folder or archive, or an installed plugin by its id (as `simgui edit`
// does), on the worker.
func (e *Editor) open(path string) {
	e.run("opening "+path, func() func() {
		d, notes, err := openStart(e.reg, path)
		return func() {
			if err != nil {
				e.failedErr(err)
				return
			}
			e.load(d, notes)
		}
	})
}

// openID opens an installed plugin on the worker.
func (e *Editor) openID(id string) {
	e.run("opening "+id, func() func() {
		d, notes, err := openInstalled(e.reg, id)
		return func() {
			if err != nil {
				e.failedErr(err)
				return
			}
			e.installedOpen = false
			e.load(d, notes)
		}
	})
}

// listInstalled reads the Installed list afresh on the worker; the list on show stays until
// the new one is in.
func (e *Editor) listInstalled() {
	if e.listing {
		return
	}
	e.listing = true
	e.run("reading the registry", func() func() {
		items, err := e.reg.List()
		return func() {
			e.listing = false
			e.installed = append(make([]registry.Item, 0, len(items)), items...)
			e.listErr = ""
			if err != nil {
				e.listErr = err.Error()
				e.failed("list installed plugins: " + err.Error())
				return
			}
			e.done(listSummary(items))
		}
	})
}

// listSummary counts the plugins of the Installed list by where they come from: "14 plugins:
// 14 built-in, 0 installed" (installed: by the user, into the registry).
func listSummary(items []registry.Item) string {
	builtin := 0
	for _, it := range items {
		if it.Source == registry.SourceBuiltin {
			builtin++
		}
	}
	return fmt.Sprintf("%s: %d built-in, %d installed", count(len(items), "plugin"), builtin, len(items)-builtin)
}

// files asks the host (or the editor's own dialog) for a path.
func (e *Editor) files(req FileRequest, done func(string)) {
	busy := req.Title + ": answer the file dialog (or type the path)"
	e.setOutcome(statusBusy, busy)
	finish := func(path string) {
		if path == "" && e.statusKind == statusBusy && e.status == busy { // cancelled: not busy any more
			e.setStatus("dialog closed, nothing chosen")
		}
		done(path)
	}
	if e.host.Files != nil {
		e.host.Files(req, finish)
		return
	}
	go func() {
		path, err := desktop.ShowDialog(req)
		e.deliver(func() {
			if err != nil && !errors.Is(err, desktop.ErrCancelled) {
				e.failed(err.Error() + "; type the path instead")
			}
			finish(path)
		})
	}()
}

func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// stateInterval is how often the state file is written.
const stateInterval = 50 * time.Millisecond
