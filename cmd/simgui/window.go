package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"simgui/app"
	"simgui/app/scenario"
	"simgui/app/window"
	"simgui/plugins"
	"simgui/plugins/registry"
)

// windowFlags are the window's own flags (the scenario, seed and service flags are shared with
// headless runs).
type windowFlags struct {
	screenshotDir string
	stateFile     string
}

func (wf *windowFlags) register(fl *pflag.FlagSet) {
	fl.StringVar(&wf.screenshotDir, "screenshot-dir", "", "directory F12 writes screenshots to (default: the working directory)")
	fl.StringVar(&wf.stateFile, "state-file", "", "write the window's state as JSON to this file ten times a second, and the editor's beside it as <name>.editor.json (a test hook)")
	fl.MarkHidden("state-file")
}

type windowOptions struct {
	scenario string
	seed     int64
	seedSet  bool
	// timeScale overrides the scenario's runtime.timeScale when not nil.
	timeScale *float64
	services  serviceFlags
	window    windowFlags
	// set reports whether a flag was given on the command line.
	set func(string) bool
}

// errNoDisplay is what a machine without a display gets from `simgui`.
var errNoDisplay = errors.New("no display found (DISPLAY is not set); run headless instead: simgui run --headless --duration 10")

// runWindow opens the window on the scenario and serves the same outside faces as a headless
// run. It returns when the window is closed.
func runWindow(ctx context.Context, o windowOptions) error {
	start := processStart()
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return errNoDisplay
	}
	var seed *int64
	if o.seedSet {
		seed = &o.seed
	}
	plan, err := loadPlan(o.scenario, seed)
	if err != nil {
		return err
	}
	if o.set == nil {
		o.set = func(string) bool { return false }
	}
	newSim := func(p *scenario.Plan) (*app.Sim, error) {
		opts := app.Options{TimeScale: o.timeScale, Plugins: pluginResolver()}
		o.services.apply(&opts, o.set)
		return app.New(p, opts)
	}
	sim, err := newSim(plan)
	if err != nil {
		return err
	}
	edState := ""
	if f := o.window.stateFile; f != "" {
		edState = strings.TrimSuffix(f, ".json") + ".editor.json"
	}
	ed, err := newHostedEditor(pluginResolver(), edState)
	if err != nil {
		sim.Close()
		return err
	}
	defer ed.Close()
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	err = window.Run(ctx, sim, window.Options{
		Screens:       []window.Screen{ed},
		Load:          func(path string) (*scenario.Plan, error) { return loadPlan(path, nil) },
		New:           newSim,
		Plugins:       spawnCatalog(pluginResolver()),
		ScreenshotDir: o.window.screenshotDir,
		StateFile:     o.window.stateFile,
		Start:         start,
	})
	if errors.Is(err, window.ErrNoDisplay) {
		cause := strings.Join(strings.Fields(strings.TrimPrefix(err.Error(), window.ErrNoDisplay.Error()+": ")), " ")
		return fmt.Errorf("no display could be opened (%s); run headless instead: simgui run --headless --duration 10", cause)
	}
	return err
}

// spawnCatalog offers the window's spawn list every vehicle scenarios can use: the built-in
// and installed ones when the user registry is open (listed afresh each time, so a plugin
// installed while the window is open appears), else the built-ins.
func spawnCatalog(r plugins.Resolver) window.Catalog {
	switch r := r.(type) {
	case *registry.Registry:
		return registryVehicles{r}
	case window.Catalog:
		return r
	}
	return plugins.Builtin()
}

// registryVehicles lists the registry's vehicles, both tiers.
type registryVehicles struct{ *registry.Registry }

func (r registryVehicles) Vehicles() []string {
	items, err := r.List()
	if err != nil {
		slog.Warn("listing installed plugins", "error", err)
	}
	var ids []string
	for _, it := range items {
		if it.Type == string(plugins.TypeVehicle) {
			ids = append(ids, it.PluginID)
		}
	}
	return ids
}

// processStart is when this process started, from /proc (10 ms resolution), so that the
// startup trace includes loading the binary and initialising packages; now where /proc is
// missing.
func processStart() time.Time {
	now := time.Now()
	stat, err1 := os.ReadFile("/proc/self/stat")
	up, err2 := os.ReadFile("/proc/uptime")
	if err1 != nil || err2 != nil {
		return now
	}
	// Fields after the command name (which may hold spaces) start at the last ')'.
	i := strings.LastIndexByte(string(stat), ')')
	f := strings.Fields(string(stat[i+1:]))
	u := strings.Fields(string(up))
	if len(f) < 20 || len(u) < 1 {
		return now
	}
	ticks, err1 := strconv.ParseFloat(f[19], 64) // field 22, starttime, in clock ticks after boot
	uptime, err2 := strconv.ParseFloat(u[0], 64)
	if err1 != nil || err2 != nil {
		return now
	}
	const clkTck = 100 // USER_HZ on Linux
	age := uptime - ticks/clkTck
	if age < 0 || age > 60 {
		return now
	}
	return now.Add(-time.Duration(age * float64(time.Second)))
}
