package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"simgui/app"
	"simgui/app/api"
	"simgui/app/bridge"
	ctlservice "simgui/app/control"
	"simgui/app/foxglovews"
	"simgui/app/httpguard"
	"simgui/app/record"
	"simgui/app/scenario"
	"simgui/app/sensors"
	"simgui/app/sensors/jpegenc"
	"simgui/app/world"
	"simgui/physics/drive"
)

// maxDuration bounds --duration, in simulated seconds: about 32 years, whose steps still
// count in a uint64 at the smallest step size.
const maxDuration = 1e9

type runFlags struct {
	headless  bool
	scenario  string
	steps     uint64
	duration  float64
	seed      int64
	timeScale float64
	cmd       string
	json      bool
	goJPEG    bool
	dumpDir   string
	record    string
	services  serviceFlags
	window    windowFlags
}

// serviceFlags configure the process's outside faces; the window and headless runs share them.
type serviceFlags struct {
	controlPort  int
	controlIP    string
	noControl    bool
	allowOrigins []string
	allowHosts   []string
	token        string
	recordDir    string
	noBridge     bool
	bridgeIP     string
	bridgeMaxMsg int
	bridgePorts  string
	apiPort      int
	noAPI        bool
	fastPath     string
	foxglovePort int
}

func (sf *serviceFlags) register(fl *pflag.FlagSet) {
	fl.IntVar(&sf.controlPort, "control-port", 0, fmt.Sprintf("WebSocket control service port (default %d or $%s)", ctlservice.DefaultPort, ctlservice.PortEnv))
	fl.StringVar(&sf.controlIP, "control-ip", "", "address the control socket binds (default: --bridge-ip's, so that cloisim_ros elsewhere finds the device ports; else 127.0.0.1)")
	fl.BoolVar(&sf.noControl, "no-control", false, "do not serve the WebSocket control service")
	fl.StringSliceVar(&sf.allowOrigins, "allow-origin", nil, "browser origin allowed to use the control socket, the training API and the Foxglove live view (repeatable; * = any)")
	fl.StringSliceVar(&sf.allowHosts, "allow-host", nil, "host name the control socket, the training API and the Foxglove live view answer to besides IP addresses and localhost (repeatable)")
	fl.StringVar(&sf.token, "token", "", "require this token from control, training API and live view clients (Authorization: Bearer or ?token=; default $"+httpguard.TokenEnv+")")
	fl.StringVar(&sf.recordDir, "record-dir", "", "directory start_record (and F9 in the window) writes MCAP recordings to (default: the working directory)")
	fl.BoolVar(&sf.noBridge, "no-bridge", false, "do not serve the devices on CLOiSim's ZeroMQ ports")
	fl.StringVar(&sf.bridgeIP, "bridge-ip", bridge.DefaultBindIP, "address the device ports bind (0.0.0.0: every interface)")
	fl.IntVar(&sf.bridgeMaxMsg, "bridge-max-msg", bridge.DefaultMaxMessage, "largest message in bytes a device port accepts; a client sending more is disconnected")
	fl.StringVar(&sf.bridgePorts, "bridge-ports", fmt.Sprintf("%d-%d", bridge.DefaultFirstPort, bridge.DefaultLastPort), "range the device ports are taken from, first-last")
	fl.IntVar(&sf.apiPort, "api-port", 0, fmt.Sprintf("training HTTP API port (rusim's /health /contract /reset /step; default %d or $%s)", api.DefaultPort, api.PortEnv))
	fl.BoolVar(&sf.noAPI, "no-api", false, "do not serve the training HTTP API")
	fl.StringVar(&sf.fastPath, "fast-path", "", "serve the training fast path (N envs per request, frames in shared memory) on this Unix socket")
	fl.IntVar(&sf.foxglovePort, "foxglove-port", 0, fmt.Sprintf("serve a live view of the world to Foxglove on this port (open ws://127.0.0.1:PORT in Foxglove; its usual port is %d; 0 picks a free one)", foxglovews.DefaultPort))
}

// check refuses flag values the services cannot use.
func (sf *serviceFlags) check() error {
	for _, p := range []struct {
		name string
		port int
	}{{"--control-port", sf.controlPort}, {"--api-port", sf.apiPort}, {"--foxglove-port", sf.foxglovePort}} {
		if p.port < 0 || p.port > 65535 {
			return fmt.Errorf("%s %d is not a port number (0-65535)", p.name, p.port)
		}
	}
	for _, a := range []struct{ name, ip string }{{"--bridge-ip", sf.bridgeIP}, {"--control-ip", sf.controlIP}} {
		if a.ip != "" && net.ParseIP(a.ip) == nil {
			return fmt.Errorf("%s %q is not an IP address (127.0.0.1: this machine only, 0.0.0.0: every interface)", a.name, a.ip)
		}
	}
	if err := bridge.CheckMaxMessage(sf.bridgeMaxMsg); err != nil {
		return fmt.Errorf("--bridge-max-msg: %w", err)
	}
	if _, _, err := bridge.ParsePorts(sf.bridgePorts); err != nil {
		return fmt.Errorf("--bridge-ports: %w", err)
	}
	for _, o := range sf.allowOrigins {
		if err := httpguard.CheckOrigin(o); err != nil {
			return fmt.Errorf("--allow-origin: %w", err)
		}
	}
	// Named by where it came from, before the faces' own check names the face.
	if err := httpguard.CheckToken(sf.token); err != nil {
		return fmt.Errorf("--token: %w", err)
	}
	if err := httpguard.CheckToken(os.Getenv(httpguard.TokenEnv)); err != nil && sf.token == "" {
		return fmt.Errorf("$%s: %w", httpguard.TokenEnv, err)
	}
	if sf.recordDir != "" {
		if err := checkRecordDir(sf.recordDir); err != nil {
			return err
		}
	}
	return nil
}

// settings turns the flags into face settings (app.FaceSettings) that go over the scenario's
// faces block; set reports whether a flag was given, so only given flags override.
func (sf *serviceFlags) settings(set func(string) bool) app.FaceSettings {
	// The token guards both HTTP faces; without --token it comes from $SIMGUI_TOKEN.
	token := sf.token
	if !set("token") {
		token = os.Getenv(httpguard.TokenEnv)
	}
	control, training, live := map[string]any{}, map[string]any{}, map[string]any{}
	for _, face := range []map[string]any{control, training, live} {
		if set("allow-origin") {
			face["allowOrigins"] = sf.allowOrigins
		}
		if set("allow-host") {
			face["allowHosts"] = sf.allowHosts
		}
		if token != "" {
			face["token"] = token
		}
	}
	if set("record-dir") {
		control["recordDir"] = sf.recordDir
	}
	if set("control-port") {
		control["listen"], control["required"] = fmt.Sprintf("127.0.0.1:%d", sf.controlPort), true
	} else if os.Getenv(ctlservice.PortEnv) != "" {
		control["required"] = true // a port asked for by name is not given up for another's
	}
	// cloisim_ros finds the device ports through the control socket: served to other
	// machines, both bind the same address unless --control-ip says otherwise.
	switch {
	case set("control-ip"):
		control["ip"] = sf.controlIP
	case set("bridge-ip"):
		control["ip"] = sf.bridgeIP
	}
	bridge := map[string]any{}
	if set("bridge-ip") {
		bridge["ip"] = sf.bridgeIP
	}
	if set("bridge-max-msg") {
		bridge["maxMessage"] = sf.bridgeMaxMsg
	}
	if set("bridge-ports") {
		bridge["ports"] = sf.bridgePorts
	}
	if set("api-port") {
		host := os.Getenv(api.HostEnv)
		if host == "" {
			host = api.DefaultHost
		}
		training["listen"], training["required"] = net.JoinHostPort(host, strconv.Itoa(sf.apiPort)), true
	} else if os.Getenv(api.PortEnv) != "" {
		training["required"] = true
	}
	out := app.FaceSettings{"control": control, "bridge": bridge, "api": training}
	if set("fast-path") {
		out["fastpath"] = map[string]any{"enabled": sf.fastPath != "", "socket": sf.fastPath}
	}
	if set("foxglove-port") {
		live["listen"] = net.JoinHostPort("127.0.0.1", strconv.Itoa(sf.foxglovePort))
	}
	out["foxglove"] = live
	if sf.noControl {
		out["control"] = false
	}
	if sf.noBridge {
		out["bridge"] = false
	}
	if sf.noAPI {
		out["api"] = false
	}
	return out
}

func newRunCmd() *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run a scenario (in the window, or headless with --headless)",
		Long: `Run a scenario. Without --headless, the scenario's runtime.headless: true or its
faces: {window: false}, it opens the window. Headless runs with --steps or --duration go as fast as possible, and one
without either at the scenario's runtime.timeScale (real time unless the scenario says
otherwise, as in the window), unless --time-scale is given. They stop
after --steps or --duration (simulated seconds), or on Ctrl-C; without either, or with 0,
they run until interrupted. --cmd holds one command on every agent so a headless run moves:
  simgui run --headless --steps 2000 --seed 7 --cmd throttle=0.5,steer=0.1 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			set := func(name string) bool { return cmd.Flags().Changed(name) }
			if !f.headless && f.scenario != "" {
				// runtime.headless: true, or faces: {window: false}, runs the scenario
				// without a window, as --headless.
				sc, err := scenario.Load(f.scenario)
				if err != nil {
					return err
				}
				f.headless = sc.Runtime.Headless || app.FaceSettings(sc.Faces).TurnsOff(app.WindowFaceID)
			}
			if !f.headless {
				for _, name := range []string{"steps", "duration", "cmd", "json", "dump-sensors", "go-jpeg", "record"} {
					if set(name) {
						return fmt.Errorf("--%s works with --headless (or runtime.headless: true, or faces: {window: false}, in the scenario); the window runs until it is closed", name)
					}
				}
				o := windowOptions{scenario: f.scenario, seed: f.seed, seedSet: set("seed"),
					services: f.services, window: f.window, set: set}
				if set("time-scale") {
					o.timeScale = &f.timeScale
				}
				return runWindow(cmd.Context(), o)
			}
			return runHeadless(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), f, set)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.headless, "headless", false, "run without a window")
	fl.StringVar(&f.scenario, "scenario", "", "scenario YAML file (default: the embedded KS0223 corridor)")
	fl.Uint64Var(&f.steps, "steps", 0, "stop after this many steps (0 = run until interrupted)")
	fl.Float64Var(&f.duration, "duration", 0, "stop after this much simulated time, in seconds (0 = run until interrupted)")
	fl.Int64Var(&f.seed, "seed", 0, "seed of the run's random sources, such as sensor noise (default: the scenario's runtime.seed; a randomization block is drawn at training resets only)")
	fl.Float64Var(&f.timeScale, "time-scale", 0, "pace at this multiple of real time (0 = as fast as possible)")
	fl.StringVar(&f.cmd, "cmd", "", "hold a command on every agent: throttle=T,steer=S,brake=B,vertical=V (brake 0..1, the others -1..1; steer > 0 turns left, counter-clockwise, as the keyboard does: the training API takes rusim's steer, > 0 right)")
	fl.BoolVar(&f.json, "json", false, "print the run summary as JSON")
	fl.BoolVar(&f.goJPEG, "go-jpeg", false, "use Go's image/jpeg instead of libturbojpeg (also SIMGUI_JPEG=go)")
	fl.StringVar(&f.dumpDir, "dump-sensors", "", "write camera and depth frames as PNG and other sensor readings as JSON lines into this directory, empty or new (headless)")
	fl.StringVar(&f.record, "record", "", "record every topic from the first step to the end into this MCAP file, new (.mcap added if missing; headless; Foxglove opens it)")
	f.services.register(fl)
	f.window.register(fl)
	return cmd
}

// loadPlan reads the scenario (or the default) and resolves it against the plugins.
func loadPlan(path string, seed *int64) (*scenario.Plan, error) {
	var sc *scenario.Scenario
	if path == "" {
		sc = scenario.Default()
	} else {
		var err error
		if sc, err = scenario.Load(path); err != nil {
			return nil, err
		}
	}
	if seed != nil {
		sc.Runtime.Seed = *seed
	}
	plan, err := scenario.Resolve(sc, pluginResolver())
	if err != nil {
		return nil, err
	}
	for _, n := range plan.RunNotes() {
		if n.Warn {
			slog.Warn(n.Text)
		} else {
			slog.Info(n.Text)
		}
	}
	return plan, nil
}

// parseCmd parses "throttle=0.5,steer=-0.2".
func parseCmd(s string) (*drive.Command, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	c := &drive.Command{}
	seen := map[string]bool{}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return nil, fmt.Errorf("--cmd: %q is not key=value (keys: throttle, steer, brake, vertical)", kv)
		}
		x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || math.IsNaN(x) {
			return nil, fmt.Errorf("--cmd: %s=%q is not a number", k, v)
		}
		lo := -1.0
		var dst *float64
		k = strings.TrimSpace(k)
		if seen[k] {
			return nil, fmt.Errorf("--cmd: %s is given twice", k)
		}
		seen[k] = true
		switch k {
		case "throttle":
			dst = &c.Throttle
		case "steer":
			dst = &c.Steer
		case "brake":
			dst, lo = &c.Brake, 0
		case "vertical":
			dst = &c.Vertical
		default:
			return nil, fmt.Errorf("--cmd: unknown key %q (keys: throttle, steer, brake, vertical)", k)
		}
		if x < lo || x > 1 {
			return nil, fmt.Errorf("--cmd: %s=%g is outside %g..1", k, x, lo)
		}
		*dst = x
	}
	return c, nil
}

// scenarioLogger is the default logger, with the scenario's logging tag on every line when
// its logging block is on (rusim's logging.tag).
func scenarioLogger(sc *scenario.Scenario) *slog.Logger {
	if tag := sc.LogTag(); tag != "" {
		return slog.Default().With("tag", tag)
	}
	return slog.Default()
}

func runHeadless(ctx context.Context, stdout, stderr io.Writer, f runFlags, set func(string) bool) error {
	if f.goJPEG {
		jpegenc.ForceFallback()
	}
	// Each value is checked before the two are weighed against each other.
	if !(f.duration >= 0 && f.duration <= maxDuration) {
		return fmt.Errorf("--duration %g is not a number of seconds from 0 to %g", f.duration, float64(maxDuration))
	}
	if set("steps") && set("duration") {
		return errors.New("give --steps or --duration, not both")
	}
	// As the window refuses the headless flags: a flag that would do nothing is a mistake
	// to say, not to pass over (the run had no F12, and wrote no screenshot).
	if set("screenshot-dir") {
		return errors.New("--screenshot-dir works in the window (without --headless); a headless run takes no screenshots")
	}
	if err := world.CheckTimeScale(f.timeScale); err != nil {
		return fmt.Errorf("--time-scale: %w", err)
	}
	if err := f.services.check(); err != nil {
		return err
	}
	hold, err := parseCmd(f.cmd)
	if err != nil {
		return err
	}
	var seed *int64
	if set("seed") {
		seed = &f.seed
	}
	plan, err := loadPlan(f.scenario, seed)
	if err != nil {
		return err
	}
	maxSteps := f.steps
	if f.duration > 0 {
		// At least one step: a duration shorter than a step rounds to 0, which means no limit.
		maxSteps = max(1, uint64(math.Ceil(f.duration/plan.StepSize-1e-9)))
	}
	// --headless wins over a scenario that turns the window on, as every flag wins over it.
	faces, err := app.Faces(plan.Scenario.Faces, f.services.settings(set), app.FaceSettings{"window": false})
	if err != nil {
		return fmt.Errorf("%s: %w", plan.Scenario.Source, err)
	}
	timeScale := 0.0 // a run to --steps or --duration: as fast as possible
	switch {
	case set("time-scale"):
		timeScale = f.timeScale
	case maxSteps == 0:
		// A run without an end paces as its scenario says (runtime.timeScale, real time
		// unless set), as the window does: it serves its faces, and as fast as possible the
		// scenario's world took a core from training for nothing (an idle training server
		// used one) while ROS and control clients expect real time.
		timeScale = plan.TimeScale
	}
	h := app.NewHost(app.HostOptions{Plugins: pluginResolver(), Logger: scenarioLogger(plan.Scenario)})
	sim, err := h.Build(plan, app.BuildOptions{TimeScale: &timeScale, MaxSteps: maxSteps, Hold: hold})
	if err != nil {
		return err
	}
	h.SetScenario(sim)
	defer h.Close()
	var recording *record.Recorder
	// discard takes away the dump's and the recording's files of a run that did not start:
	// left, they held its first steps as if it had run, and the same command, given again
	// once the cause was fixed, refused both (a folder not empty, a file that exists).
	discard := func() {
		if err := sim.DiscardSensorDump(); err != nil {
			h.Logger().Warn("the sensor dump of the run that did not start was not removed", "err", err)
		}
		if recording != nil {
			if err := recording.Discard(); err != nil {
				h.Logger().Warn("the recording of the run that did not start was not removed", "err", err)
			}
		}
	}
	if f.dumpDir != "" {
		if err := sim.DumpSensors(f.dumpDir); err != nil {
			return err
		}
	}
	if set("record") {
		rec, err := beginRecording(faces, sim, f.record, h.Logger())
		if err != nil {
			discard()
			return err
		}
		defer rec.Stop() // closed whole when the run fails before its faces start
		recording = rec
	}

	ctx, stop := notifyStop(ctx)
	defer stop()
	if f.dumpDir != "" || recording != nil {
		// A dump or a recording that cannot write (a full disk) ends the run at once with
		// its error, rather than after --duration of frames that all fail.
		var endRun context.CancelFunc
		ctx, endRun = context.WithCancel(ctx)
		defer endRun()
		var recFailed <-chan struct{}
		if recording != nil {
			recFailed = recording.Failed()
		}
		go func() {
			select {
			case <-sim.SensorDumpFailed():
				endRun()
			case <-recFailed:
				endRun()
			case <-ctx.Done():
			}
		}()
	}
	if maxSteps > 0 && isTerminal(stderr) {
		go showProgress(ctx, sim.Loop, maxSteps, stderr)
	}
	if note := startNote(maxSteps, plan.Lockstep, signal.Ignored(os.Interrupt)); note != "" {
		h.Logger().Info(note, "scenario", plan.Scenario.Source, "pid", os.Getpid())
	}
	start := time.Now()
	if err := h.Run(ctx, faces...); err != nil {
		if _, ok := errors.AsType[*app.FaceStartError](err); ok {
			discard()
		}
		return explainFaceError(err)
	}
	wall := time.Since(start)
	var dump *sensors.DumpSummary
	if f.dumpDir != "" {
		d, err := sim.StopSensorDump()
		if err != nil {
			return err
		}
		dump = &d
	}
	var recSum *recordingSummary
	if recording != nil {
		if recSum, err = endRecording(recording); err != nil {
			return err
		}
	}
	var sum runSummary
	hash := sim.World.StateHash() // the loop has stopped: the world is ours now
	snap := sim.Loop.Snapshot()
	if err := checkFinite(snap); err != nil {
		return err
	}
	sc := plan.Scenario
	sum = runSummary{
		Scenario: sc.Source, ScenarioID: sc.ScenarioID, DisplayName: sc.DisplayName, Version: sc.Version,
		Description: strings.TrimSpace(sc.Description), LoggingTag: sc.LogTag(), Seed: snap.Seed, Steps: snap.Step,
		SimTime: snap.SimTime.Seconds(), WallTime: wall.Seconds(), StateHash: hash,
		JPEGEncoder: jpegenc.Default().Name(), Models: []modelSummary{}, SensorDump: dump, Recording: recSum,
		Sensors: []sensorSummary{},
	}
	for _, s := range sim.Sensors.Sensors() {
		sum.Sensors = append(sum.Sensors, sensorSummary{Model: s.Model, Sensor: s.ID, Kind: s.Kind, Topic: s.Topic,
			RateHz: s.RateHz, Readings: s.Readings, Dropped: s.Dropped})
	}
	if wall > 0 {
		sum.RealTimeFactor = snap.SimTime.Seconds() / wall.Seconds()
	}
	for _, m := range snap.Models {
		sum.Models = append(sum.Models, modelSummary{Name: m.Name, VehicleID: m.VehicleID,
			Pose: poseSummary{m.Pose.X, m.Pose.Y, m.Pose.Z, m.Pose.Yaw}, Speed: m.Speed})
	}
	// A signal that cut a run to --steps or --duration short is told after the summary.
	var short error
	var sig stopSignal
	if maxSteps > 0 && sum.Steps < maxSteps && errors.As(context.Cause(ctx), &sig) {
		short = &interruptedRun{sig: sig.sig, steps: sum.Steps, of: maxSteps}
	}
	// A scenario comes from anyone: its texts (displayName, scenarioId, description, logging
	// tag) reach the terminal escaped, as plugins' do, so that they cannot retitle the window,
	// clear the screen or reorder what is shown.
	if f.json {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		if err := enc.Encode(sum); err != nil {
			return err
		}
		if _, err := stdout.Write(escapeJSON(b.Bytes())); err != nil {
			return err
		}
		return short
	}
	text := &errWriter{w: stdout}
	if sc.DisplayName != "" {
		fmt.Fprintf(text, "%s (%s)\n", printable(sc.Title()), printable(sc.ScenarioID))
	}
	fmt.Fprintf(text, "%s: %d steps, %.3f s simulated in %.3f s (%.1f× real time), seed %d, state %s\n",
		printable(sum.Scenario), sum.Steps, sum.SimTime, sum.WallTime, sum.RealTimeFactor, sum.Seed, sum.StateHash)
	for i, m := range sum.Models {
		if i == maxSummaryModels {
			fmt.Fprintf(text, "  and %d more (--json lists every model)\n", len(sum.Models)-i)
			break
		}
		height := "" // a flying vehicle's; ground vehicles stay at 0
		if m.Pose.Z != 0 {
			height = fmt.Sprintf(" z=%7.3f", m.Pose.Z)
		}
		fmt.Fprintf(text, "  %-12s %-28s x=%7.3f y=%7.3f%s yaw=%6.1f° speed=%.3f m/s\n",
			m.Name, m.VehicleID, m.Pose.X, m.Pose.Y, height, m.Pose.Yaw*180/math.Pi, m.Speed)
	}
	if dump != nil {
		fmt.Fprintln(text, dump)
	}
	if recSum != nil {
		fmt.Fprintln(text, recSum)
	}
	if line := droppedLine(sum.Sensors); line != "" {
		fmt.Fprintln(text, line)
	}
	if text.err != nil {
		return text.err
	}
	return short
}

// maxSummaryModels is how many models the plain summary lists: a fleet's thousands of lines
// buried its first one.
const maxSummaryModels = 50

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// showProgress draws a progress bar of steps on w until the run ends.
func showProgress(ctx context.Context, loop *world.Loop, total uint64, w io.Writer) {
	bar := progressbar.NewOptions64(int64(total), progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("simulating"), progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish(),
		progressbar.OptionThrottle(100*time.Millisecond))
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-loop.Done():
			bar.Finish()
			return
		case <-tick.C:
			bar.Set64(int64(loop.Snapshot().Step))
		}
	}
}

// headlessHint says how to run the scenario without a window, with the command as the user
// typed it (./bin/simgui after `make`, where simgui is not on the PATH) and the flags they
// gave: a hint that dropped --scenario would run another world.
func headlessHint() string {
	self := "simgui"
	if a := os.Args[0]; strings.ContainsRune(a, '/') && !strings.ContainsFunc(a, unicode.IsSpace) {
		self = a
	}
	return "run headless instead: " + self + " " + headlessArgs(os.Args[1:])
}

// headlessArgs is args (the window's command line after the program) as a headless run:
// run --headless with the same flags, for 10 s unless they say how long or serve the fast
// path (which runs until stopped).
func headlessArgs(args []string) string {
	if len(args) > 0 && args[0] == "run" {
		args = args[1:]
	}
	out := []string{"run", "--headless"}
	bounded := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, inline := strings.Cut(a, "=")
		switch name {
		case "--headless":
			continue
		case "--screenshot-dir": // the window's only: a headless run refuses it
			if !inline {
				i++ // its value
			}
			continue
		case "--steps", "--duration", "--fast-path":
			bounded = true
		}
		out = append(out, shellQuote(a))
	}
	if !bounded {
		out = append(out, "--duration", "10")
	}
	return strings.Join(out, " ")
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
	}) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// startNote is the line a headless run logs as it starts when it will not end, or not move,
// by itself: how to end a run without --steps or --duration (SIGTERM alone when simgui was
// started with SIGINT ignored, as stopSignals takes it), and that a lockstep world
// (runtime.lockstep) advances only when a client steps it, so that a run to --steps or
// --duration waits for those steps. It is empty for a free-running run to --steps or
// --duration.
func startNote(maxSteps uint64, lockstep, sigintIgnored bool) string {
	var notes []string
	if maxSteps == 0 {
		if sigintIgnored {
			notes = append(notes, "running until SIGTERM (kill PID; Ctrl-C does nothing: simgui was started with SIGINT ignored, as a script's background jobs are); --steps or --duration ends a run on its own")
		} else {
			notes = append(notes, "running until Ctrl-C (or SIGTERM); --steps or --duration ends a run on its own")
		}
	}
	if lockstep {
		what := "it stands still until then"
		if maxSteps > 0 {
			what = fmt.Sprintf("the run ends after %d steps asked for so", maxSteps)
		}
		notes = append(notes, "runtime.lockstep: the world advances only when a client steps it (/control's step command); "+what)
	}
	return strings.Join(notes, "; ")
}
