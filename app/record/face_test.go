package record

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"simgui/app"
	"simgui/app/scenario"
	"simgui/app/systems/gztopics"
	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/app/world"
	"simgui/physics/drive"
	"simgui/plugins"
)

// runScenario builds plan's world with opts as a host's scenario and runs the host with a
// record face until the test ends.
func runScenario(t *testing.T, plan *scenario.Plan, opts app.BuildOptions) (*app.Host, *app.Sim, *Face, context.Context) {
	t.Helper()
	h := app.NewHost(app.HostOptions{Logger: slog.New(slog.DiscardHandler)})
	sc, err := h.Build(plan, opts)
	if err != nil {
		t.Fatal(err)
	}
	h.SetScenario(sc)
	f := &Face{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx, f) }()
	t.Cleanup(func() { cancel(); <-done; h.Close() })
	<-h.Start.Done()
	return h, sc, f, ctx
}

// The recorder as a face: it offers app.Recorder to the other faces, a recording follows the
// active world into a training episode in the same file with log times that never go back,
// and Shutdown closes the file cleanly.
func TestRecordFaceFollowsTheActiveWorld(t *testing.T) {
	resolve := func(vehicle string) *scenario.Plan {
		sc, err := scenario.Parse([]byte("world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: "+vehicle+"}\n"), "face.yaml")
		if err != nil {
			t.Fatal(err)
		}
		p, err := scenario.Resolve(sc, plugins.Builtin())
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	h, sc, f, ctx := runScenario(t, resolve("vehicle.ks0223.v1"), app.BuildOptions{Lockstep: true})
	if h.Recorder() == nil {
		t.Fatal("the recorder is not offered")
	}

	path := filepath.Join(t.TempDir(), "run.mcap")
	stop, err := h.Recorder().StartRecording(create(t, path))
	if err != nil {
		t.Fatal(err)
	}
	sc.Loop.Step(ctx, 300) // 1.5 s of the scenario world: its ego

	p := resolve("vehicle.arcade.red.v1")
	p.Agents[0].Name = "trainee"
	ep, err := h.Build(p, app.BuildOptions{Lockstep: true, Kind: app.KindEpisode, Label: "episode 1", Agents: []string{"trainee"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.AddEpisode("episode-1", []*app.Sim{ep}, ep); err != nil {
		t.Fatal(err)
	}
	// The recorder switches to the episode on its own goroutine: wait until the episode's bus
	// has it, then step the episode from sim time 0.
	for !ep.Bus.HasSubscribers("/model/trainee/pose") {
		time.Sleep(time.Millisecond)
	}
	ep.Loop.Step(ctx, 50)
	// The trainee's actions are in the file beside its poses, however they were given.
	act := drive.Command{Throttle: 0.7, Steer: -0.2}
	if err := ep.Loop.Call(ctx, func(w *world.World) error { return w.SetCommand("trainee", act) }); err != nil {
		t.Fatal(err)
	}
	ep.Loop.Step(ctx, 50)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	rec, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	counts := rec.Counts()
	if !rec.Complete || counts["/model/ego/pose"] != 300 || counts["/model/trainee/pose"] != 100 {
		t.Fatalf("complete=%v counts %v", rec.Complete, counts)
	}
	var last Message
	for i, m := range rec.Messages {
		if m.LogTime < last.LogTime {
			t.Fatalf("message %d (%s) logged at %v after %v (%s)", i, m.Topic, m.LogTime, last.LogTime, last.Topic)
		}
		last = m
	}
	if counts["/model/trainee/command"] != 2 || counts["/model/ego/command"] != 1 {
		t.Fatalf("commands recorded %d times of the trainee (want its first and its change), %d of the ego (want 1)",
			counts["/model/trainee/command"], counts["/model/ego/command"])
	}
	for _, m := range rec.Messages {
		if m.Topic != "/model/trainee/command" || m.PublishTime != 255*time.Millisecond {
			continue
		}
		var p msgs.Param
		if err := proto.Unmarshal(m.Data, &p); err != nil {
			t.Fatal(err)
		}
		if c, _ := gztopics.CommandFrom(&p, drive.Command{}); c != act {
			t.Fatalf("the recorded action %+v, want %+v", c, act)
		}
		act = drive.Command{} // found
	}
	if act != (drive.Command{}) {
		t.Fatal("the trainee's action after 0.25 s is not in the file")
	}
	if last.PublishTime != 500*time.Millisecond {
		t.Errorf("the last message %s published at %v, want the episode's 0.5 s", last.Topic, last.PublishTime)
	}
	// Each world is named where its messages begin: they all publish the same topics.
	name := func(w World) [3]string { return [3]string{w.ID, w.Kind, w.Label} }
	if len(rec.Worlds) != 2 || name(rec.Worlds[0].World) != [3]string{sc.ID, "scenario", sc.Label} ||
		name(rec.Worlds[1].World) != [3]string{ep.ID, "episode", "episode 1"} {
		t.Fatalf("worlds %+v; want the scenario's, then episode-1's", rec.Worlds)
	}
	for _, m := range rec.Messages {
		inEpisode := m.LogTime >= rec.Worlds[1].LogTime
		if !strings.HasPrefix(m.Topic, "/model/") {
			continue
		}
		if strings.HasPrefix(m.Topic, "/model/ego/") == inEpisode || strings.HasPrefix(m.Topic, "/model/trainee/") != inEpisode {
			t.Fatalf("%s logged at %v: the episode's mark is at %v", m.Topic, m.LogTime, rec.Worlds[1].LogTime)
		}
	}

	if _, err := h.Recorder().StartRecording(create(t, filepath.Join(t.TempDir(), "open.mcap"))); err != nil {
		t.Fatal(err)
	}
	if err := f.Shutdown(context.Background()); err != nil || h.Recorder() != nil {
		t.Fatalf("Shutdown: %v; recorder still offered: %v", err, h.Recorder() != nil)
	}
}

// A 10 s recording of the default scenario (its camera renders off the loop goroutine, so its
// frames reach the recorder after later messages of other topics) at time scale 3 is in
// log-time order across the whole file, read in write order.
func TestRecordingInLogTimeOrder(t *testing.T) {
	plan, err := scenario.Resolve(scenario.Default(), plugins.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	scale := 3.0
	h, sc, _, _ := runScenario(t, plan, app.BuildOptions{TimeScale: &scale, Paused: true})
	path := filepath.Join(t.TempDir(), "order.mcap")
	stop, err := h.Recorder().StartRecording(create(t, path))
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Loop.Resume(); err != nil {
		t.Fatal(err)
	}
	for {
		up := sc.Loop.Updated()
		if sc.Loop.Snapshot().SimTime >= 10*time.Second {
			break
		}
		<-up
	}
	sc.Loop.Pause()
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	rec, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	frames := 0
	var last Message
	for i, m := range rec.Messages {
		if m.LogTime < last.LogTime {
			t.Fatalf("message %d (%s, stamp %v) logged at %v after %v (%s)", i, m.Topic, m.PublishTime, m.LogTime, last.LogTime, last.Topic)
		}
		last = m
		if m.Type == "gz.msgs.Image" {
			frames++
		}
	}
	if !rec.Complete || frames == 0 || rec.Counts()["/clock"] < 2000 {
		t.Fatalf("complete=%v, %d camera frames; counts %v", rec.Complete, frames, rec.Counts())
	}
}

// Messages that reach the recorder out of stamp order within the reorder window are written in
// stamp order, each with its own stamp as log time.
func TestReorderBuffer(t *testing.T) {
	bus := transport.NewBus(transport.Options{})
	defer bus.Close()
	path := filepath.Join(t.TempDir(), "reorder.mcap")
	r, err := Start(bus, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []struct {
		topic string
		ms    int
	}{{"/a", 10}, {"/a", 30}, {"/b", 20}, {"/a", 40}, {"/b", 35}} {
		bus.Publish(x.topic, &msgs.Double{Data: float64(x.ms)}, time.Duration(x.ms)*time.Millisecond)
	}
	if _, err := r.Stop(); err != nil {
		t.Fatal(err)
	}
	rec, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range rec.Messages {
		got = append(got, fmt.Sprintf("%s@%v/%v", m.Topic, m.LogTime, m.PublishTime))
	}
	want := "/a@10ms/10ms /b@20ms/20ms /a@30ms/30ms /b@35ms/35ms /a@40ms/40ms"
	if strings.Join(got, " ") != want {
		t.Fatalf("file order %v, want %s", got, want)
	}
}

// create makes a new file for a recording, as /control's start_record does.
func create(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// A recording of a lockstep world holds every camera frame of a step batch run faster than
// the camera draws, up to the batch's last, as --dump-sensors writes them: 400 steps of the
// default scenario (a 15 Hz camera, 640×480) fire it 31 times. Without the record face keeping
// the frames, a recording held 1 to 5 of them (the others dropped as the worker fell behind,
// the last ones still drawing when stop_record closed the file).
func TestRecordingKeepsEveryCameraFrame(t *testing.T) {
	plan, err := scenario.Resolve(scenario.Default(), plugins.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	h, sc, _, ctx := runScenario(t, plan, app.BuildOptions{Lockstep: true})
	path := filepath.Join(t.TempDir(), "lockstep.mcap")
	stop, err := h.Recorder().StartRecording(create(t, path))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sc.Loop.Step(ctx, 400); err != nil {
		t.Fatal(err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	rec, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var stamps []time.Duration
	for _, m := range rec.Messages {
		if m.Type == "gz.msgs.Image" {
			stamps = append(stamps, m.PublishTime)
		}
	}
	// The camera fires on the first step at or after each k/15 s: 5 ms, 70 ms, 135 ms, ...
	if len(stamps) != 31 || stamps[0] != 5*time.Millisecond || stamps[1] != 70*time.Millisecond || stamps[30] != 2*time.Second {
		t.Fatalf("%d camera frames stamped %v; want 31 from 5ms to 2s", len(stamps), stamps)
	}
	for _, s := range sc.Sensors.Sensors() {
		if s.Dropped != 0 {
			t.Errorf("%s dropped %d readings while recorded", s.Topic, s.Dropped)
		}
	}
}

// The face tells a recording how many robots the world it records holds, so that the queue
// has room for a step of the fleet (queueFor).
func TestFaceNamesTheFleet(t *testing.T) {
	sc, err := scenario.Parse([]byte("world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\nagents: {count: 40}\n"), "fleet.yaml")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := scenario.Resolve(sc, plugins.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	a, err := app.Build(plan, app.BuildOptions{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	f := &Face{}
	w := f.options(a, slog.New(slog.DiscardHandler)).World
	if w.Models != 40 {
		t.Errorf("the recording's world holds %d robots, want 40", w.Models)
	}
	if got, want := queueFor(DefaultQueueLen, w), DefaultQueueLen+40*stepRoom; got != want {
		t.Errorf("its queue holds %d messages, want %d", got, want)
	}
}
