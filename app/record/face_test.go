package record

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"simgui/app"
	"simgui/app/scenario"
	"simgui/plugins"
)

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
	h := app.NewHost(app.HostOptions{Logger: slog.New(slog.DiscardHandler)})
	sc, err := h.Build(resolve("vehicle.ks0223.v1"), app.BuildOptions{Lockstep: true})
	if err != nil {
		t.Fatal(err)
	}
	h.SetScenario(sc)
	f := &Face{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx, f) }()
	defer func() { cancel(); <-done; h.Close() }()
	<-h.Start.Done()
	if h.Recorder() == nil {
		t.Fatal("the recorder is not offered")
	}

	path := filepath.Join(t.TempDir(), "run.mcap")
	stop, err := h.Recorder().StartRecording(path)
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
	ep.Loop.Step(ctx, 100)
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
	if last.PublishTime != 500*time.Millisecond {
		t.Errorf("the last message %s published at %v, want the episode's 0.5 s", last.Topic, last.PublishTime)
	}

	if _, err := h.Recorder().StartRecording(filepath.Join(t.TempDir(), "open.mcap")); err != nil {
		t.Fatal(err)
	}
	if err := f.Shutdown(context.Background()); err != nil || h.Recorder() != nil {
		t.Fatalf("Shutdown: %v; recorder still offered: %v", err, h.Recorder() != nil)
	}
}
