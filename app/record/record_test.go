package record

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/foxglove/mcap/go/mcap"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"

	"simgui/app/foxview"
	"simgui/app/systems/clock"
	"simgui/app/systems/gztopics"
	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/app/window/xtest"
	"simgui/app/world"
	"simgui/plugins"
)

var testVehicle = &plugins.VehicleDescriptor{
	ID: "vehicle.test.car.v1", Version: plugins.ContractVersion{Major: 1},
	Body:  &plugins.Body{Shape: "box", Length: 0.25, Width: 0.15, Height: 0.12, Mass: 1, Friction: 0.9},
	Drive: &plugins.Drive{Model: "differential"},
}

var testTrack = &plugins.TrackDescriptor{
	ID:          "track.test.v1",
	Elements:    []plugins.Element{{Kind: "wall", Name: "north", X: 0, Y: 2, Length: 4, Width: 0.02, Height: 0.25}},
	SpawnPoints: []plugins.SpawnPoint{{X: 0, Y: 0, YawDeg: 90}},
}

func staticLayout(t *plugins.TrackDescriptor, _ map[string]any, _ int64) (*plugins.Layout, error) {
	return &plugins.Layout{Elements: t.Elements, SpawnPoints: t.SpawnPoints}, nil
}

// runWorld records a lockstep world for steps steps (5 ms each) with a command published every
// 100 steps, and returns the stopped recorder's stats and the bus's topic counters.
func runWorld(t *testing.T, path string, steps int, opts Options) (Stats, map[string]uint64) {
	t.Helper()
	bus := transport.NewBus(transport.Options{Logger: slog.New(slog.DiscardHandler)})
	defer bus.Close()
	w, err := world.New(world.Config{
		Track: testTrack, BuildLayout: staticLayout, Bus: bus, Logger: slog.New(slog.DiscardHandler),
		Agents: []world.AgentSpec{{Name: "car0", Vehicle: testVehicle}},
	})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := Start(bus, path, opts)
	if err != nil {
		t.Fatal(err)
	}
	loop := world.NewLoop(w, world.LoopOptions{Lockstep: true})
	// The topics a world of the app publishes: poses, clock and statistics.
	for _, sys := range []any{&gztopics.Adapter{}, &clock.Clock{}} {
		if err := w.AddSystem(sys, world.SystemOptions{Name: fmt.Sprintf("%T", sys)}); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	runDone := make(chan error, 1)
	go func() { runDone <- loop.Run(ctx) }()
	// The systems subscribe to the command topics in Init, when the loop starts: a command
	// sent before that is nobody's.
	if err := loop.Call(ctx, func(*world.World) error { return nil }); err != nil {
		t.Fatal(err)
	}
	for done := 0; done < steps; done += 100 {
		s := loop.Snapshot()
		if err := bus.Publish(transport.CmdVelTopic("car0"), &msgs.Twist{Linear: &msgs.Vector3D{X: 0.2}}, s.SimTime); err != nil {
			t.Fatal(err)
		}
		if _, err := loop.Step(ctx, 100); err != nil {
			t.Fatal(err)
		}
	}
	cancel()
	<-runDone
	st, err := rec.Stop()
	if err != nil {
		t.Fatal(err)
	}
	published := map[string]uint64{}
	for _, ti := range bus.Topics() {
		if ti.Published > 0 {
			published[ti.Name] = ti.Published
		}
	}
	return st, published
}

func TestRecordTenSeconds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.mcap")
	st, published := runWorld(t, path, 2000, Options{})
	if st.Dropped != 0 {
		t.Fatalf("%d messages dropped", st.Dropped)
	}
	// The clock system publishes the clock and stats after each step, the gz topics system the
	// poses and the held command when it changes (once: the first cmd_vel reaches the first
	// step, the other 19 repeat it); the test sent 20 commands.
	want := map[string]int{
		"/clock": 2000, "/world/default/stats": 2000, "/model/car0/pose": 2000,
		"/world/default/pose/info": 2000, "/model/car0/cmd_vel": 20, "/model/car0/command": 1,
	}
	rec, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Complete || rec.Truncated {
		t.Fatalf("complete=%v truncated=%v (%v)", rec.Complete, rec.Truncated, rec.Reason)
	}
	got := rec.Counts()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("topics and counts in the file:\n%v\nwant\n%v", got, want)
	}
	for topic, n := range published {
		if uint64(got[topic]) != n || st.PerTopic[topic] != n {
			t.Errorf("%s: file %d, recorder %d, bus published %d", topic, got[topic], st.PerTopic[topic], n)
		}
	}
	if st.Messages != uint64(len(rec.Messages)) || st.Topics != len(want) {
		t.Fatalf("stats %+v, file has %d messages", st, len(rec.Messages))
	}

	// Log times are sim time: the last clock message is at 10 s and agrees with its payload,
	// decoded with the schema stored in the file.
	var last Message
	var prev time.Duration
	for _, m := range rec.Messages {
		if m.Topic == "/clock" {
			if m.LogTime < prev {
				t.Fatalf("clock log time went back from %v to %v", prev, m.LogTime)
			}
			prev, last = m.LogTime, m
		}
	}
	if last.LogTime != 10*time.Second || last.Type != "gz.msgs.Clock" || last.Sequence != 2000 {
		t.Fatalf("last clock message %+v", last)
	}
	dm, err := rec.Decode(last)
	if err != nil {
		t.Fatal(err)
	}
	var clock msgs.Clock
	b, _ := proto.Marshal(dm)
	if err := proto.Unmarshal(b, &clock); err != nil || clock.GetSim().AsDuration() != 10*time.Second {
		t.Fatalf("decoded clock %v (%v)", &clock, err)
	}

	// The summary section agrees, and the run spans several chunks.
	info := readInfo(t, path)
	if info.Statistics.MessageCount != uint64(len(rec.Messages)) || len(info.ChunkIndexes) < 4 {
		t.Fatalf("summary: %d messages in %d chunks", info.Statistics.MessageCount, len(info.ChunkIndexes))
	}
	// Its start is the first message's log time, here 0 (the first command, at sim time 0),
	// which viewers take as the recording's start.
	first := rec.Messages[0].LogTime
	for _, m := range rec.Messages {
		first = min(first, m.LogTime)
	}
	if start := time.Duration(info.Statistics.MessageStartTime); start != first || first != 0 {
		t.Errorf("summary start %v, first message at %v; want both 0", start, first)
	}
	for topic, n := range info.ChannelCounts() {
		if int(n) != want[topic] {
			t.Errorf("summary count of %s = %d, want %d", topic, n, want[topic])
		}
	}
	for _, s := range info.Schemas {
		if s.Encoding != "protobuf" {
			t.Errorf("schema %s encoding %q", s.Name, s.Encoding)
		}
	}
	for _, c := range info.Channels {
		if c.MessageEncoding != "protobuf" {
			t.Errorf("channel %s encoding %q", c.Topic, c.MessageEncoding)
		}
	}
}

// openMCAP opens path with Foxglove's reader, closed when the test ends.
func openMCAP(t *testing.T, path string) *mcap.Reader {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	r, err := mcap.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return r
}

func readInfo(t *testing.T, path string) *mcap.Info {
	t.Helper()
	info, err := openMCAP(t, path).Info()
	if err != nil {
		t.Fatal(err)
	}
	return info
}

func TestTruncatedFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.mcap")
	runWorld(t, path, 2000, Options{ChunkSize: 16 << 10})
	full, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	chunks := readInfo(t, path).ChunkIndexes
	if len(chunks) < 4 {
		t.Fatalf("only %d chunks", len(chunks))
	}
	cut := func(name string, n uint64) *Recording {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data[:n], 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Truncated || r.Complete || r.Reason == nil {
			t.Fatalf("%s: truncated=%v complete=%v reason=%v", name, r.Truncated, r.Complete, r.Reason)
		}
		for i, m := range r.Messages {
			if m.Topic != full.Messages[i].Topic || string(m.Data) != string(full.Messages[i].Data) {
				t.Fatalf("%s: message %d differs from the full file", name, i)
			}
		}
		return r
	}
	k := len(chunks) / 2
	c := chunks[k]
	atStart := cut("start.mcap", c.ChunkStartOffset)
	mid := cut("mid.mcap", c.ChunkStartOffset+c.ChunkLength/2)
	atEnd := cut("end.mcap", c.ChunkStartOffset+c.ChunkLength)
	// Cutting inside chunk k yields exactly the chunks before it: nothing of the broken one.
	if len(mid.Messages) != len(atStart.Messages) || len(atStart.Messages) == 0 {
		t.Fatalf("mid-chunk cut gave %d messages, the chunks before it hold %d", len(mid.Messages), len(atStart.Messages))
	}
	if len(atEnd.Messages) <= len(mid.Messages) || len(atEnd.Messages) >= len(full.Messages) {
		t.Fatalf("cut after chunk %d gave %d messages (mid %d, full %d)", k, len(atEnd.Messages), len(mid.Messages), len(full.Messages))
	}
	// A damaged byte inside a chunk stops reading there too (CRC check).
	bad := append([]byte(nil), data...)
	bad[c.ChunkStartOffset+c.ChunkLength-10] ^= 0xff
	p := filepath.Join(dir, "bad.mcap")
	os.WriteFile(p, bad, 0o644)
	r, err := ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Truncated || len(r.Messages) != len(atStart.Messages) {
		t.Fatalf("damaged chunk: truncated=%v, %d messages, want %d", r.Truncated, len(r.Messages), len(atStart.Messages))
	}
}

func TestDropsAreCounted(t *testing.T) {
	bus := transport.NewBus(transport.Options{Logger: slog.New(slog.DiscardHandler)})
	defer bus.Close()
	path := filepath.Join(t.TempDir(), "drops.mcap")
	var logged xtest.LockedBuffer
	rec, st := flood(t, bus, path, slog.New(slog.NewTextHandler(&logged, nil)))
	if st.Messages+st.Dropped != floodN {
		t.Fatalf("written %d + dropped %d != published %d", st.Messages, st.Dropped, floodN)
	}
	if warned := strings.Contains(logged.String(), "recording is dropping messages"); warned != (st.Dropped > 0) || st.Dropped == 0 {
		t.Errorf("%d dropped; warned %v:\n%s", st.Dropped, warned, logged.String())
	}
	r, err := ReadFile(path)
	if err != nil || uint64(len(r.Messages)) != st.Messages {
		t.Fatalf("file has %d messages, recorder wrote %d (%v)", len(r.Messages), st.Messages, err)
	}
	// Later publishes do not reach a stopped recorder.
	bus.Publish("/flood", &msgs.Double{}, 0)
	if again, _ := rec.Stop(); again.Messages != st.Messages {
		t.Fatalf("stopped recorder grew to %d", again.Messages)
	}
}

// A recording stops writing when its file reaches its size limit, says so once, counts what it
// cut, and its file stays whole, within a chunk and the summary of the limit. The limit is on
// the file, not on the messages before compression: a recording of the default scenario's
// camera stopped after 321 s with a 13.6 MB file under the 4 GiB limit. And from the first
// message cut on, every topic is cut: the frames stopped there while the poses went on 5 s.
func TestSizeLimit(t *testing.T) {
	bus := transport.NewBus(transport.Options{Logger: slog.New(slog.DiscardHandler)})
	defer bus.Close()
	path := filepath.Join(t.TempDir(), "limit.mcap")
	var logged xtest.LockedBuffer
	const limit, chunk = 256 << 10, 16 << 10
	rec, err := Start(bus, path, Options{MaxBytes: limit, ChunkSize: chunk, Logger: slog.New(slog.NewTextHandler(&logged, nil))})
	if err != nil {
		t.Fatal(err)
	}
	// 8 KiB frames, half noise, half flat: they compress to about half. Each step publishes
	// a frame and a count with the same stamp.
	const n = 200
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range n {
		frame := make([]byte, 8<<10)
		for j := range len(frame) / 2 {
			frame[j] = byte(rng.Uint32())
		}
		stamp := time.Duration(i) * time.Millisecond
		bus.Publish("/frame", &msgs.Image{Width: 64, Height: 128, Step: 64, Data: frame}, stamp)
		bus.Publish("/count", &msgs.Double{Data: float64(i + 1)}, stamp)
	}
	st, err := rec.Stop()
	if err != nil {
		t.Fatal(err)
	}
	frames, counts := st.PerTopic["/frame"], st.PerTopic["/count"]
	// The message data of 32 frames is the limit; compressed, about 60 fit.
	// Those published after the recorder let go of the bus reach it no more, uncounted.
	if frames < 45 || frames >= n || st.Cut == 0 || st.Messages+st.Cut+st.Dropped > 2*n {
		t.Fatalf("written %d frames and %d counts, cut %d, dropped %d of %d messages; want 45 to %d frames", frames, counts, st.Cut, st.Dropped, 2*n, n-1)
	}
	if counts != frames && counts != frames-1 {
		t.Errorf("%d frames but %d counts written: the topics end at different moments", frames, counts)
	}
	if c := strings.Count(logged.String(), "reached its size limit"); c != 1 {
		t.Errorf("warned %d times:\n%s", c, logged.String())
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Size() > limit+chunk+16<<10 {
		t.Errorf("the file has %d bytes; limit %d (%v)", fi.Size(), limit, err)
	}
	r, err := ReadFile(path)
	if err != nil || !r.Complete || uint64(len(r.Messages)) != st.Messages {
		t.Fatalf("file: complete %v, %d messages (%v)", r.Complete, len(r.Messages), err)
	}
}

// A full recording lets go of the bus, and of the worlds it is switched to later: its
// subscription to every topic made each camera draw every frame for a file that took
// nothing more (a recording left by a client that went away cost for the rest of the run).
func TestFullRecordingLetsGoOfTheBus(t *testing.T) {
	quiet := transport.Options{Logger: slog.New(slog.DiscardHandler)}
	bus, next := transport.NewBus(quiet), transport.NewBus(quiet)
	defer bus.Close()
	defer next.Close()
	path := filepath.Join(t.TempDir(), "full.mcap")
	// A limit the file's header already takes: the first message is cut.
	rec, err := Start(bus, path, Options{MaxBytes: 1, Compression: "none", Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	const image = "/model/car/sensor/camera/image"
	if !bus.HasSubscribers(image) {
		t.Fatal("a recording does not subscribe to every topic")
	}
	for i := range 20 {
		if err := bus.Publish("/count", &msgs.Double{Data: float64(i + 1)}, time.Duration(i)); err != nil {
			t.Fatal(err)
		}
	}
	for rec.Stats().Cut == 0 { // the writer takes them after its reorder window
		time.Sleep(time.Millisecond)
	}
	if bus.HasSubscribers(image) {
		t.Error("a full recording still subscribes to the bus: its cameras draw for nothing")
	}
	rec.Switch(next, World{ID: "episode-1"})
	if next.HasSubscribers(image) {
		t.Error("a full recording subscribed to the world it was switched to")
	}
	st, err := rec.Stop()
	if err != nil || st.Messages != 0 || st.Cut == 0 {
		t.Fatalf("written %d, cut %d (%v); want none written", st.Messages, st.Cut, err)
	}
	r, err := ReadFile(path)
	if err != nil || !r.Complete || len(r.Messages) != 0 {
		t.Fatalf("file: complete %v, %d messages (%v)", r.Complete, len(r.Messages), err)
	}
}

// Topics past what a file holds (a fleet of thousands with cameras) are left out and
// counted; the recording goes on with the others.
func TestTopicsPastTheFileAreLeftOut(t *testing.T) {
	bus := transport.NewBus(transport.Options{Logger: slog.New(slog.DiscardHandler)})
	defer bus.Close()
	path := filepath.Join(t.TempDir(), "many.mcap")
	rec, err := Start(bus, path, Options{QueueLen: MaxChannels + 16, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	for i := range MaxChannels + 5 {
		if err := bus.Publish("/t/"+strconv.Itoa(i), &msgs.Double{Data: float64(i)}, time.Duration(i)); err != nil {
			t.Fatal(err)
		}
	}
	// An early topic again: still written.
	bus.Publish("/t/0", &msgs.Double{Data: -1}, time.Duration(MaxChannels+5))
	st, err := rec.Stop()
	if err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if st.Topics != MaxChannels || st.TopicsLeftOut != 5 || st.Messages != MaxChannels+1 || st.Dropped != 0 {
		t.Fatalf("%d topics, %d left out, %d messages, %d dropped; want %d, 5, %d, 0", st.Topics, st.TopicsLeftOut, st.Messages, st.Dropped, MaxChannels, MaxChannels+1)
	}
	r, err := ReadFile(path)
	if err != nil || !r.Complete || len(r.Messages) != MaxChannels+1 {
		t.Fatalf("file: complete %v, %d messages (%v)", r.Complete, len(r.Messages), err)
	}
}

func TestStartRefusals(t *testing.T) {
	bus := transport.NewBus(transport.Options{})
	defer bus.Close()
	dir := t.TempDir()
	existing := filepath.Join(dir, "x.mcap")
	os.WriteFile(existing, []byte("keep"), 0o644)
	if _, err := Start(bus, existing, Options{}); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Fatalf("overwrite: %v", err)
	}
	if b, _ := os.ReadFile(existing); string(b) != "keep" {
		t.Fatal("existing file was changed")
	}
	if _, err := Start(bus, filepath.Join(dir, "y.mcap"), Options{Compression: "bz2"}); err == nil || !strings.Contains(err.Error(), "zstd, lz4, none") {
		t.Fatalf("bad compression: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "y.mcap")); err == nil {
		t.Fatal("refused recording left a file")
	}
	if _, err := ReadFile(existing); err == nil {
		t.Fatal("a non-MCAP file was read without error")
	}
}

func TestSchemaHasImports(t *testing.T) {
	data, err := foxview.SchemaData((&msgs.Marker_V{}).ProtoReflect().Descriptor())
	if err != nil {
		t.Fatal(err)
	}
	var set descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(data, &set); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range set.File {
		names = append(names, f.GetName())
	}
	// Dependencies come before the files importing them; marker.proto last.
	if got := strings.Join(names, " "); got != "gz/msgs/header.proto gz/msgs/geometry.proto gz/msgs/marker.proto" {
		t.Fatalf("files in the set: %s", got)
	}
}

// A reset sends the world's clock back: the episode before it is written whole before the one
// after, also its messages published late (a frame rendered before the reset) and a reset
// sooner than a second after the start; log time never goes back.
func TestResetKeepsEpisodesApart(t *testing.T) {
	bus := transport.NewBus(transport.Options{Logger: slog.New(slog.DiscardHandler)})
	defer bus.Close()
	path := filepath.Join(t.TempDir(), "reset.mcap")
	rec, err := Start(bus, path, Options{Compression: "none"})
	if err != nil {
		t.Fatal(err)
	}
	ms := time.Millisecond
	pub := func(topic string, ep, at time.Duration) {
		t.Helper()
		if err := bus.Publish(topic, &msgs.Double{Data: float64(ep)}, at); err != nil {
			t.Fatal(err)
		}
	}
	clock := func(ep, at time.Duration) {
		t.Helper()
		if err := bus.Publish(transport.ClockTopic, &msgs.Clock{Sim: msgs.NewTime(at), Real: msgs.NewTime(ep)}, at); err != nil {
			t.Fatal(err)
		}
	}
	// Episode 1: 0.6 s, then a reset; a frame of 590 ms arrives after the reset's clock.
	for at := time.Duration(0); at <= 600*ms; at += 10 * ms {
		clock(1, at)
		pub("/pose", 1, at)
	}
	clock(2, 0)
	pub("/camera", 1, 590*ms)
	for at := time.Duration(0); at <= 300*ms; at += 10 * ms {
		if at > 0 {
			clock(2, at)
		}
		pub("/pose", 2, at)
	}
	if _, err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	r, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	episode := func(m Message) float64 {
		d := new(msgs.Double)
		if m.Topic == transport.ClockTopic {
			c := new(msgs.Clock)
			if err := proto.Unmarshal(m.Data, c); err != nil {
				t.Fatal(err)
			}
			return float64(c.Real.Sec)*1e9 + float64(c.Real.Nsec)
		}
		if err := proto.Unmarshal(m.Data, d); err != nil {
			t.Fatal(err)
		}
		return d.Data
	}
	var last time.Duration
	seen2 := false
	for i, m := range r.Messages {
		ep := episode(m)
		if ep == 2 {
			seen2 = true
		} else if seen2 {
			t.Fatalf("message %d (%s at %v) of the first episode after the second's began", i, m.Topic, m.PublishTime)
		}
		if m.LogTime < last {
			t.Fatalf("message %d: log time %v after %v", i, m.LogTime, last)
		}
		last = m.LogTime
	}
	if n := len(r.Messages); n != 2*61+1+2*31 || !seen2 {
		t.Fatalf("%d messages", n)
	}
	if first2 := r.Messages[2*61+1]; first2.LogTime < 600*ms || first2.PublishTime != 0 {
		t.Errorf("the second episode starts at log %v, publish %v; want after 600 ms, 0", first2.LogTime, first2.PublishTime)
	}
}
