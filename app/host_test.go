package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"simgui/app/scenario"
	"simgui/app/world"
	"simgui/plugins"
)

var quiet = slog.New(slog.DiscardHandler)

// plan resolves a scenario written in YAML against the built-in plugins.
func plan(t *testing.T, src string) *scenario.Plan {
	t.Helper()
	sc, err := scenario.Parse([]byte(src), t.Name()+".yaml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := scenario.Resolve(sc, plugins.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

const arena = "world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\n"

// runHost runs h with faces until the test ends.
func runHost(t *testing.T, h *Host, faces ...Face) <-chan error {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx, faces...) }()
	t.Cleanup(func() {
		cancel()
		<-done
		h.Close()
	})
	<-h.Running()
	return done
}

// runScenarioHost runs a host whose scenario world is the arena's, until the test ends.
func runScenarioHost(t *testing.T) (*Host, *Sim) {
	t.Helper()
	h := NewHost(HostOptions{Logger: quiet})
	sc, err := h.Build(plan(t, arena), BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h.SetScenario(sc)
	runHost(t, h)
	return h, sc
}

// episode builds a lockstep world of agents for the host (not yet added).
func episode(t *testing.T, h *Host, agents ...string) *Sim {
	t.Helper()
	p := plan(t, arena)
	p.Agents[0].Name = agents[0]
	s, err := h.Build(p, BuildOptions{Lockstep: true, Kind: KindEpisode, Label: "episode of " + agents[0], Agents: agents})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// waitChange waits for the host's next change.
func waitChange(t *testing.T, ch <-chan struct{}) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatal("the host did not signal a change")
	}
}

// The active world is the user's pick, else the newest live episode's primary world, else the
// scenario's; a picked episode agent is followed into the next episode; the scenario world is
// paused while an episode is on show, and resumed after.
func TestActiveWorld(t *testing.T) {
	h, sc := runScenarioHost(t)
	if h.Active() != sc || sc.ID != "scenario" {
		t.Fatalf("active %v, want the scenario world", h.Active().ID)
	}

	ch := h.Changed()
	a, b := episode(t, h, "agent-1"), episode(t, h, "agent-2")
	if err := h.AddEpisode("episode-1", []*Sim{a, b}, b); err != nil {
		t.Fatal(err)
	}
	waitChange(t, ch)
	if h.Active() != b || a.ID != "episode-1/agent-1" || b.ID != "episode-1/agent-2" || len(h.Worlds()) != 3 {
		t.Fatalf("active %s; worlds %d (%s, %s)", h.Active().ID, len(h.Worlds()), a.ID, b.ID)
	}
	waitPaused(t, sc, true) // training runs: the scenario world waits

	// The user watches agent-1; the next episode keeps showing agent-1.
	if err := h.Pick("episode-1/agent-1"); err != nil || h.Active() != a {
		t.Fatalf("Pick: %v, active %s", err, h.Active().ID)
	}
	c, d := episode(t, h, "agent-1"), episode(t, h, "agent-2")
	if err := h.AddEpisode("episode-2", []*Sim{c, d}, d); err != nil {
		t.Fatal(err)
	}
	h.RemoveEpisode("episode-1")
	if h.Active() != c || len(h.Worlds()) != 3 {
		t.Fatalf("after the next episode: active %s, %d worlds", h.Active().ID, len(h.Worlds()))
	}
	if _, err := a.Loop.Step(context.Background(), 1); err == nil {
		t.Error("a removed episode's world still steps")
	}

	// Back to automatic; when the training client goes idle the scenario is on show again.
	if err := h.Pick(""); err != nil || h.Active() != d {
		t.Fatalf("automatic: active %s", h.Active().ID)
	}
	h.SetLive("episode-2", false)
	if h.Active() != sc {
		t.Fatalf("idle training: active %s", h.Active().ID)
	}
	waitPaused(t, sc, false)
	if err := h.Pick("nowhere"); err == nil {
		t.Error("picking an unknown world succeeded")
	}
}

// waitPaused waits for the world's loop to be paused (or running).
func waitPaused(t *testing.T, s *Sim, paused bool) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		up := s.Loop.Updated()
		if s.Loop.Snapshot().Paused == paused {
			return
		}
		select {
		case <-up:
		case <-deadline:
			t.Fatalf("the scenario world's paused state did not become %v", paused)
		}
	}
}

// A world the user paused stays paused when training ends.
func TestHostResumesOnlyWhatItPaused(t *testing.T) {
	h := NewHost(HostOptions{Logger: quiet})
	sc, err := h.Build(plan(t, arena), BuildOptions{Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	h.SetScenario(sc)
	runHost(t, h)
	e := episode(t, h, "ego")
	if err := h.AddEpisode("episode-1", []*Sim{e}, e); err != nil {
		t.Fatal(err)
	}
	h.RemoveEpisode("episode-1")
	if h.Active() != sc {
		t.Fatal("the scenario world is not back on show")
	}
	if _, err := sc.Loop.Step(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	if !sc.Loop.Snapshot().Paused {
		t.Error("the host resumed a world the user had paused")
	}
}

// Episodes opened and closed back to back leave the scenario world as the last of them
// wants it: running when none is left, paused while one runs. Each pause and resume went
// to the loop on a goroutine of its own, and a pause could land after the resume.
func TestEpisodesOpenedAndClosedAtOnce(t *testing.T) {
	h, sc := runScenarioHost(t)
	// A call on the loop is queued after every pause and resume the host queued before it.
	barrier := func() {
		if err := sc.Loop.Call(context.Background(), func(*world.World) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 30 {
		e := episode(t, h, "ego")
		id := fmt.Sprintf("episode-%d", i)
		if err := h.AddEpisode(id, []*Sim{e}, e); err != nil {
			t.Fatal(err)
		}
		h.RemoveEpisode(id)
	}
	barrier()
	if sc.Loop.Snapshot().Paused {
		t.Fatal("no episode is left, and the scenario world stays paused")
	}
	e := episode(t, h, "ego")
	if err := h.AddEpisode("last", []*Sim{e}, e); err != nil {
		t.Fatal(err)
	}
	h.RemoveEpisode("last")
	e = episode(t, h, "ego")
	if err := h.AddEpisode("running", []*Sim{e}, e); err != nil {
		t.Fatal(err)
	}
	barrier()
	if !sc.Loop.Snapshot().Paused {
		t.Error("an episode runs, and the scenario world runs too")
	}
}

// probeFace is a face that records its calls; startErr fails its start.
type probeFace struct {
	Name     string `yaml:"name"`
	Port     int    `yaml:"port"`
	startErr error
	calls    *[]string
	host     *Host
}

func (f *probeFace) Start(_ context.Context, h *Host) error {
	*f.calls = append(*f.calls, "start "+f.Name)
	f.host = h
	return f.startErr
}

func (f *probeFace) Shutdown(context.Context) error {
	*f.calls = append(*f.calls, "shutdown "+f.Name)
	return nil
}

// Faces start in order and shut down in reverse; one that fails to start stops the host with
// its error after the ones already started have shut down; the scenario world's MaxSteps ends
// the run.
func TestFacesStartAndStopInOnePlace(t *testing.T) {
	var calls []string
	h := NewHost(HostOptions{Logger: quiet})
	sc, err := h.Build(plan(t, arena), BuildOptions{MaxSteps: 50, TimeScale: new(float64)})
	if err != nil {
		t.Fatal(err)
	}
	h.SetScenario(sc)
	err = h.Run(context.Background(), &probeFace{Name: "a", calls: &calls}, &probeFace{Name: "b", calls: &calls})
	h.Close()
	if err != nil || strings.Join(calls, ", ") != "start a, start b, shutdown b, shutdown a" || sc.Loop.Snapshot().Step != 50 {
		t.Fatalf("Run = %v, calls %v, step %d", err, calls, sc.Loop.Snapshot().Step)
	}
	if !h.Start.AllStarted() {
		t.Errorf("not every part reported started: missing %v", h.Start.Missing())
	}

	calls = nil
	h = NewHost(HostOptions{Logger: quiet})
	sc, _ = h.Build(plan(t, arena), BuildOptions{})
	h.SetScenario(sc)
	boom := errors.New("port taken")
	err = h.Run(context.Background(), &probeFace{Name: "a", calls: &calls}, &probeFace{Name: "b", calls: &calls, startErr: boom},
		&probeFace{Name: "c", calls: &calls})
	h.Close()
	if !errors.Is(err, boom) || strings.Join(calls, ", ") != "start a, start b, shutdown a" {
		t.Fatalf("Run = %v, calls %v", err, calls)
	}
}

func init() {
	RegisterFace(FaceModule{ID: "faces.probe", New: func() Face { return &probeFace{calls: new([]string)} }, Doc: "a test face"})
	RegisterFace(FaceModule{ID: "faces.ghost", Absent: "this build has no ghost", Doc: "a face this build lacks"})
	RegisterFace(FaceModule{ID: "faces.shade", Absent: "this build has no shade", Settings: []string{"width"}, Doc: "a face this build lacks, its settings known"})
}

// A face the build lacks takes any settings without complaint, so a scenario written for the
// full build loads; turning it on says why it cannot be.
func TestAbsentFace(t *testing.T) {
	faces, err := Faces(FaceSettings{"ghost": map[string]any{"width": 800, "anything": "x"}, "probe": true})
	if err != nil {
		t.Fatalf("settings for an absent face: %v", err)
	}
	if base, _ := Faces(); len(faces) != len(base)+1 {
		t.Errorf("faces %v, want the defaults %v and the probe", faces, base)
	}
	for _, on := range []FaceSettings{{"ghost": true}, {"faces.ghost": map[string]any{"enabled": true}}} {
		if _, err := Faces(on); err == nil || err.Error() != "faces.ghost: this build has no ghost" {
			t.Errorf("Faces(%v) = %v, want the reason it is absent", on, err)
		}
	}
	if _, err := Faces(FaceSettings{"ghost": false}); err != nil {
		t.Errorf("turning an absent face off: %v", err)
	}
	// One whose settings are known takes those and refuses others, as the build with it does.
	if _, err := Faces(FaceSettings{"shade": map[string]any{"width": 800, "enabled": false}}); err != nil {
		t.Errorf("a known setting of an absent face: %v", err)
	}
	if _, err := Faces(FaceSettings{"shade": map[string]any{"widht": 800}}); err == nil || err.Error() != `faces.shade: unknown setting "widht" (known: width, enabled)` {
		t.Errorf("an unknown setting of an absent face: %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("a module with both New and Absent was registered")
		}
	}()
	RegisterFace(FaceModule{ID: "faces.both", New: func() Face { return &probeFace{} }, Absent: "x"})
}

// Settings turn faces on and off by name and are decoded strictly; the command line's layer
// wins over the scenario's.
func TestFaceSettings(t *testing.T) {
	faces, err := Faces(FaceSettings{"probe": map[string]any{"name": "from the scenario", "port": 7, "enabled": true}},
		FaceSettings{"faces.probe": map[string]any{"name": "from the flags"}})
	if err != nil {
		t.Fatal(err)
	}
	var p *probeFace
	for _, f := range faces {
		if x, ok := f.(*probeFace); ok {
			p = x
		}
	}
	if p == nil || p.Name != "from the flags" || p.Port != 7 {
		t.Fatalf("probe face %+v", p)
	}
	probes := func(faces []Face) (n int) {
		for _, f := range faces {
			if _, ok := f.(*probeFace); ok {
				n++
			}
		}
		return n
	}
	if faces, _ := Faces(); probes(faces) != 0 {
		t.Errorf("a face that is off by default came up without settings: %v", faces)
	}
	for _, tc := range []struct {
		in   FaceSettings
		want string
	}{
		{FaceSettings{"probe": map[string]any{"nmae": "x"}}, `faces.probe: unknown setting "nmae" (known: name, port, enabled)`},
		{FaceSettings{"nosuch": true}, `unknown face "nosuch"`},
		{FaceSettings{"probe": "yes"}, "want true, false or a mapping"},
		{FaceSettings{"probe": map[string]any{"enabled": "yes"}}, "faces.probe.enabled: want true or false, not a string"},
	} {
		if _, err := Faces(tc.in); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Faces(%v) = %v, want %q", tc.in, err, tc.want)
		}
	}
	if faces, err := Faces(FaceSettings{"probe": true}, FaceSettings{"probe": false}); err != nil || probes(faces) != 0 {
		t.Errorf("a later false did not turn the face off: %v %v", faces, err)
	}
}
