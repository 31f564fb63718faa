//go:build !headless

package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"simgui/app"
	"simgui/app/scenario"
	"simgui/app/window"
	"simgui/app/world"
	"simgui/plugins"
	"simgui/plugins/registry"
)

// runWindow opens the window on the scenario and serves the same outside faces as a headless
// run. It returns when the window is closed.
func runWindow(ctx context.Context, o windowOptions) error {
	start := processStart()
	if o.timeScale != nil {
		if err := world.CheckTimeScale(*o.timeScale); err != nil {
			return fmt.Errorf("--time-scale: %w", err)
		}
	}
	if err := o.services.check(); err != nil {
		return err
	}
	if err := o.window.check(); err != nil {
		return err
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
	faces, err := app.Faces(plan.Scenario.Faces, o.services.settings(o.set), app.FaceSettings{"window": true})
	if err != nil {
		return fmt.Errorf("%s: %w", plan.Scenario.Source, err)
	}
	// After the scenario, so that a mistake in it is what a run without a display reports.
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return errors.New("no display found (DISPLAY is not set); " + headlessHint())
	}
	h := app.NewHost(app.HostOptions{Plugins: pluginResolver()})
	newSim := func(p *scenario.Plan) (*app.Sim, error) {
		return h.Build(p, app.BuildOptions{TimeScale: o.timeScale, Logger: scenarioLogger(p.Scenario)})
	}
	sim, err := newSim(plan)
	if err != nil {
		return err
	}
	h.SetScenario(sim)
	defer h.Close()
	edState := ""
	if f := o.window.stateFile; f != "" {
		edState = strings.TrimSuffix(f, ".json") + ".editor.json"
	}
	ed, err := newHostedEditor(pluginResolver(), edState)
	if err != nil {
		return err
	}
	defer ed.Close()
	for _, f := range faces {
		if w, ok := f.(*window.Face); ok {
			w.Options = window.Options{
				Screens:       []window.Screen{ed},
				Load:          func(path string) (*scenario.Plan, error) { return loadPlan(path, nil) },
				New:           newSim,
				Resolve:       func(sc *scenario.Scenario) (*scenario.Plan, error) { return scenario.Resolve(sc, pluginResolver()) },
				Plugins:       spawnCatalog(pluginResolver()),
				ScreenshotDir: o.window.screenshotDir,
				RecordDir:     o.services.recordDir,
				StateFile:     o.window.stateFile,
				Start:         start,
			}
		}
	}
	ctx, stop := notifyStop(ctx)
	defer stop()
	err = h.Run(ctx, faces...)
	if errors.Is(err, window.ErrNoDisplay) {
		_, cause, _ := strings.Cut(err.Error(), window.ErrNoDisplay.Error()+": ")
		cause = strings.Join(strings.Fields(cause), " ")
		return fmt.Errorf("no display could be opened (%s); %s", cause, headlessHint())
	}
	return explainFaceError(err)
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
