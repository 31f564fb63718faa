package desktop

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// FileRequest describes a native file dialog.
type FileRequest struct {
	// Title is the dialog window's title.
	Title string
	// Save asks for a file to write (a save dialog) instead of one to open.
	Save bool
	// Filter names the extensions ("Scenario (YAML)"); Extensions lists them without dots.
	Filter     string
	Extensions []string
	// StartDir is the folder the dialog opens in ("" = the dialog's default).
	StartDir string
	// Name is the file name a save dialog suggests ("" = none).
	Name string
}

// ErrCancelled is returned by ShowDialog when the person cancels.
var ErrCancelled = errors.New("the file dialog was cancelled")

// gtkLibrary is GTK 3's soname (Debian package libgtk-3-0), found by the dynamic loader.
const gtkLibrary = "libgtk-3.so.0"

// ShowDialog shows GTK 3's file chooser and blocks until it is answered: call it on a
// goroutine of its own, never from a game's Update. GTK is loaded on the first call, not when
// the program starts (a headless run or a plugin command never loads it), through purego, and
// runs on one OS thread of its own for the rest of the process, as GTK wants every call on the
// thread that initialised it. Where GTK is missing or cannot open the display, the error says
// so and the caller offers the typed path instead.
func ShowDialog(req FileRequest) (string, error) {
	g, err := loadGTK()
	if err != nil {
		return "", fmt.Errorf("the native file dialog is unavailable (%v)", err)
	}
	reply := make(chan dialogAnswer, 1)
	g.requests <- dialogRequest{req: req, reply: reply}
	a := <-reply
	return a.path, a.err
}

type dialogRequest struct {
	req   FileRequest
	reply chan<- dialogAnswer
}

type dialogAnswer struct {
	path string
	err  error
}

// GTK 3 constants (gtk/gtkfilechooser.h, gtk/gtkdialog.h).
const (
	gtkFileChooserActionOpen = 0
	gtkFileChooserActionSave = 1
	gtkResponseAccept        = -3
)

// gtk is the loaded library, its functions, and the thread that calls them.
type gtk struct {
	requests chan dialogRequest

	initCheck         func(argc, argv uintptr) int32
	nativeNew         func(title string, parent uintptr, action int32, accept, cancel string) uintptr
	nativeRun         func(dialog uintptr) int32
	nativeDestroy     func(dialog uintptr)
	objectUnref       func(object uintptr)
	getFilename       func(chooser uintptr) *byte
	free              func(p *byte)
	setCurrentFolder  func(chooser uintptr, folder string) int32
	setCurrentName    func(chooser uintptr, name string)
	setOverwriteCheck func(chooser uintptr, on int32)
	filterNew         func() uintptr
	filterSetName     func(filter uintptr, name string)
	filterAddPattern  func(filter uintptr, pattern string)
	addFilter         func(chooser, filter uintptr)
	eventsPending     func() int32
	mainIteration     func() int32
}

// loadGTK loads GTK and starts its thread once; a failure is kept, so every later dialog
// reports it at once.
var loadGTK = sync.OnceValues(func() (*gtk, error) {
	// Without a session bus GTK's settings backend (dconf) fails on every write and says so on
	// standard error; the in-memory backend keeps the chooser's settings for this process.
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" && os.Getenv("GSETTINGS_BACKEND") == "" {
		os.Setenv("GSETTINGS_BACKEND", "memory")
	}
	lib, err := purego.Dlopen(gtkLibrary, purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		return nil, err
	}
	g := &gtk{requests: make(chan dialogRequest)}
	for _, f := range []struct {
		fn   any
		name string
	}{
		{&g.initCheck, "gtk_init_check"},
		{&g.nativeNew, "gtk_file_chooser_native_new"},
		{&g.nativeRun, "gtk_native_dialog_run"},
		{&g.nativeDestroy, "gtk_native_dialog_destroy"},
		{&g.objectUnref, "g_object_unref"},
		{&g.getFilename, "gtk_file_chooser_get_filename"},
		{&g.free, "g_free"},
		{&g.setCurrentFolder, "gtk_file_chooser_set_current_folder"},
		{&g.setCurrentName, "gtk_file_chooser_set_current_name"},
		{&g.setOverwriteCheck, "gtk_file_chooser_set_do_overwrite_confirmation"},
		{&g.filterNew, "gtk_file_filter_new"},
		{&g.filterSetName, "gtk_file_filter_set_name"},
		{&g.filterAddPattern, "gtk_file_filter_add_pattern"},
		{&g.addFilter, "gtk_file_chooser_add_filter"},
		{&g.eventsPending, "gtk_events_pending"},
		{&g.mainIteration, "gtk_main_iteration"},
	} {
		// Look the symbol up first: RegisterLibFunc panics on a missing one.
		if _, err := purego.Dlsym(lib, f.name); err != nil {
			return nil, fmt.Errorf("%s lacks %s", gtkLibrary, f.name)
		}
		purego.RegisterLibFunc(f.fn, lib, f.name)
	}
	started := make(chan error)
	go g.serve(started)
	if err := <-started; err != nil {
		return nil, err
	}
	return g, nil
})

// serve initialises GTK and answers dialog requests, all on one locked OS thread, which it
// never gives back.
func (g *gtk) serve(started chan<- error) {
	runtime.LockOSThread()
	if g.initCheck(0, 0) == 0 {
		started <- errors.New("GTK could not open the display")
		return
	}
	close(started)
	for r := range g.requests {
		path, err := g.choose(r.req)
		r.reply <- dialogAnswer{path, err}
	}
}

// choose runs one dialog to its answer.
func (g *gtk) choose(req FileRequest) (string, error) {
	action, accept, title := int32(gtkFileChooserActionOpen), "_Open", "Open File"
	if req.Save {
		action, accept, title = gtkFileChooserActionSave, "_Save", "Save File"
	}
	if req.Title != "" {
		title = req.Title
	}
	d := g.nativeNew(title, 0, action, accept, "_Cancel")
	if d == 0 {
		return "", errors.New("the native file dialog is unavailable (GTK made no dialog)")
	}
	defer g.close(d)
	if len(req.Extensions) > 0 {
		f := g.filterNew()
		g.filterSetName(f, req.Filter)
		for _, ext := range req.Extensions {
			g.filterAddPattern(f, "*."+ext)
		}
		g.addFilter(d, f) // the chooser takes the filter's floating reference
	}
	if req.StartDir != "" {
		g.setCurrentFolder(d, req.StartDir)
	}
	if req.Save && req.Name != "" {
		g.setCurrentName(d, req.Name)
	}
	g.setOverwriteCheck(d, 1)
	if g.nativeRun(d) != gtkResponseAccept {
		return "", ErrCancelled
	}
	p := g.getFilename(d)
	if p == nil {
		return "", ErrCancelled // accepted with no local file (a URI GTK cannot map)
	}
	defer g.free(p)
	return cString(p), nil
}

// close destroys the dialog and lets GTK process what that queued: nothing else runs GTK's
// main loop, and without it the window would stay on the screen.
func (g *gtk) close(d uintptr) {
	g.nativeDestroy(d)
	g.objectUnref(d)
	for g.eventsPending() != 0 {
		g.mainIteration()
	}
}

// cString copies the NUL-terminated C string at p.
func cString(p *byte) string {
	n := 0
	for *(*byte)(unsafe.Add(unsafe.Pointer(p), n)) != 0 {
		n++
	}
	return string(unsafe.Slice(p, n))
}
