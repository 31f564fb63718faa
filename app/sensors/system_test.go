package sensors_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"image/png"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"simgui/app/sensors"
	"simgui/app/sensors/sensortest"
	_ "simgui/app/sensors/standard"
	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/app/world"
	"simgui/physics/drive"
	"simgui/plugins"
)

func tinyCamera(id string, rate float64, noise float64) sensortest.Sensor {
	s := sensortest.Sensor{
		Mount:    plugins.SensorMount{ID: id, Kind: "camera", Pose: plugins.Pose3{X: 0.12, Z: 0.09, PitchDeg: 6}},
		Contract: plugins.SensorDescriptor{ID: id, SensorType: "camera", Format: "raw", Shape: []int{12, 16, 3}, RateHz: rate},
	}
	if noise > 0 {
		s.Contract.Noise = &plugins.Noise{Stddev: noise}
	}
	return s
}

func speedometer(rate float64) sensortest.Sensor {
	return sensortest.Sensor{
		Mount:    plugins.SensorMount{ID: "speed", Kind: "speedometer"},
		Contract: plugins.SensorDescriptor{ID: "speed", SensorType: "scalar", Format: "float32", Unit: "m/s", Shape: []int{1}, RateHz: rate},
	}
}

func corridor() *plugins.Layout {
	return &plugins.Layout{
		Floor: plugins.Floor{X: 1, Length: 4, Width: 2, Texture: "plywood"},
		Elements: []plugins.Element{
			{Kind: plugins.ElementWall, X: 1, Y: 0.4, Length: 4, Width: 0.02, Height: 0.25, Color: "#b8966a"},
			{Kind: plugins.ElementWall, X: 1, Y: -0.4, Length: 4, Width: 0.02, Height: 0.25, Color: "#b8966a"},
			{Kind: plugins.ElementBox, X: 1.5, Y: 0.1, Length: 0.15, Width: 0.15, Height: 0.15, Movable: true, Color: "#2050c0"},
		},
	}
}

// In a 200 Hz world over a simulated minute, a 30 Hz camera publishes 1,800 ± 1 frames
// stamped on the first step at or after each 1/30 s boundary, and a 30 Hz scalar the same.
func TestScheduleInWorld(t *testing.T) {
	v := sensortest.KS0223(t, tinyCamera("cam", 30, 0), speedometer(30))
	env := sensortest.New(t, &plugins.Layout{}, []world.AgentSpec{{Name: "ego", Vehicle: v, Spawn: &world.Pose{}}}, sensors.Options{Lossless: true})
	cam := env.Subscribe("ego", "cam", sensors.TopicImage)
	spd := env.Subscribe("ego", "speed", sensors.TopicScalar)
	env.Step(12000)
	if got := env.World.SimTime(); got != time.Minute {
		t.Fatalf("sim time %v after 12000 steps", got)
	}
	for _, sub := range []string{"cam", "speed"} {
		s := cam
		if sub == "speed" {
			s = spd
		}
		ms := env.Drain(s)
		if n := len(ms); n < 1799 || n > 1801 {
			t.Fatalf("%s: %d readings in a minute, want 1800 ± 1", sub, n)
		}
		for k, m := range ms {
			boundary := (int64(k)*1e9 + 29) / 30
			step := (boundary + 5e6 - 1) / 5e6 * 5e6
			if step == 0 {
				step = 5e6
			}
			if int64(m.Stamp) != step {
				t.Fatalf("%s reading %d stamped %v, want %v", sub, k, m.Stamp, time.Duration(step))
			}
		}
	}
}

// A camera nobody watches renders nothing, yet its schedule and noise stream run on: a
// subscriber that arrives late gets exactly the frames one that was there from the start gets.
func TestLateSubscriberSeesTheSameFrames(t *testing.T) {
	run := func(subscribeAt int) []sensortestMessage {
		v := sensortest.KS0223(t, tinyCamera("cam", 20, 12))
		env := sensortest.New(t, corridor(), []world.AgentSpec{{Name: "ego", Vehicle: v, Spawn: &world.Pose{}}}, sensors.Options{Lossless: true})
		env.World.SetCommand("ego", drive.Command{Throttle: 0.5, Steer: 0.2})
		env.Step(subscribeAt)
		sub := env.Subscribe("ego", "cam", sensors.TopicImage)
		env.Step(200 - subscribeAt)
		var out []sensortestMessage
		for _, m := range env.Drain(sub) {
			out = append(out, sensortestMessage{m.Stamp, m.Msg.(*msgs.Image).Data})
		}
		return out
	}
	early, late := run(0), run(101)
	if len(early) != 21 || len(late) != 10 {
		t.Fatalf("%d frames from the start, %d from step 101; want 21 and 10", len(early), len(late))
	}
	tail := early[len(early)-len(late):]
	for i := range late {
		if tail[i].stamp != late[i].stamp || !bytes.Equal(tail[i].data, late[i].data) {
			t.Fatalf("frame at %v differs between the early and the late subscriber", late[i].stamp)
		}
	}
}

type sensortestMessage struct {
	stamp time.Duration
	data  []byte
}

// Reset rebuilds the sensors: schedules restart at sim time 0 and the noise streams are
// re-seeded, so the episode repeats frame for frame.
func TestResetRepeatsTheEpisode(t *testing.T) {
	v := sensortest.KS0223(t, tinyCamera("cam", 10, 20))
	env := sensortest.New(t, corridor(), []world.AgentSpec{{Name: "ego", Vehicle: v, Spawn: &world.Pose{}}}, sensors.Options{Lossless: true})
	sub := env.Subscribe("ego", "cam", sensors.TopicImage)
	env.World.SetCommand("ego", drive.Command{Throttle: 0.7})
	env.Step(100)
	first := env.Drain(sub)
	if err := env.World.Reset(1); err != nil {
		t.Fatal(err)
	}
	env.World.SetCommand("ego", drive.Command{Throttle: 0.7})
	env.Step(100)
	second := env.Drain(sub)
	if len(first) != 6 || len(second) != 6 {
		t.Fatalf("%d and %d frames in 0.5 s at 10 Hz, want 6", len(first), len(second))
	}
	for i := range first {
		a, b := first[i].Msg.(*msgs.Image), second[i].Msg.(*msgs.Image)
		if first[i].Stamp != second[i].Stamp || !bytes.Equal(a.Data, b.Data) {
			t.Fatalf("frame %d differs after reset (stamps %v, %v)", i, first[i].Stamp, second[i].Stamp)
		}
	}
}

// Models spawned later get their sensors on the next step, removed ones lose them.
func TestSpawnAndRemove(t *testing.T) {
	v := sensortest.KS0223(t, speedometer(50))
	env := sensortest.New(t, &plugins.Layout{}, []world.AgentSpec{{Name: "ego", Vehicle: v, Spawn: &world.Pose{}}}, sensors.Options{})
	env.Step(1)
	env.Spawn("late", sensortest.KS0223(t, tinyCamera("cam", 50, 0), speedometer(50)), world.Pose{X: 1})
	sub := env.Subscribe("late", "speed", sensors.TopicScalar)
	env.Step(10)
	var names []string
	for _, s := range env.System.Sensors() {
		names = append(names, s.Model+"/"+s.ID)
	}
	if !slices.Equal(names, []string{"ego/speed", "late/cam", "late/speed"}) {
		t.Fatalf("sensors %v", names)
	}
	if n := len(env.Drain(sub)); n != 3 {
		t.Fatalf("late/speed gave %d readings in 10 steps at 50 Hz, want 3", n)
	}
	if err := env.World.Remove("late"); err != nil {
		t.Fatal(err)
	}
	env.Step(10)
	if n := len(env.System.Sensors()); n != 1 {
		t.Fatalf("%d sensors after removing late, want 1", n)
	}
	if n := len(env.Drain(sub)); n != 0 {
		t.Fatalf("%d readings from a removed model", n)
	}
}

// An unknown mount kind stops the world from starting, with the known kinds listed.
func TestUnknownKind(t *testing.T) {
	v := sensortest.KS0223(t, sensortest.Sensor{
		Mount:    plugins.SensorMount{ID: "x", Kind: "sonar9000"},
		Contract: plugins.SensorDescriptor{ID: "x", SensorType: "scalar", RateHz: 10},
	})
	w, err := world.New(world.Config{Track: &plugins.TrackDescriptor{ID: "t"}, Agents: []world.AgentSpec{{Name: "ego", Vehicle: v}},
		BuildLayout: func(*plugins.TrackDescriptor, map[string]any, int64) (*plugins.Layout, error) {
			return &plugins.Layout{}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	w.AddSystem(sensors.New(sensors.Options{}), world.SystemOptions{Name: "sensors"})
	err = w.Start()
	if err == nil || !strings.Contains(err.Error(), `unknown sensor kind "sonar9000"`) || !strings.Contains(err.Error(), "camera, depth, imu") {
		t.Fatalf("Start: %v", err)
	}
}

// A dump writes PNG frames and JSON lines; the same seed gives byte-identical files, another
// seed other noise.
func TestDumpIsDeterministic(t *testing.T) {
	run := func(seed int64, dir string) sensors.DumpSummary {
		v := sensortest.KS0223(t)
		for i := range v.Contract.Sensors {
			if v.Contract.Sensors[i].ID == "camera.front.rgb" {
				v.Contract.Sensors[i].Shape = []int{48, 64, 3}
				v.Contract.Sensors[i].Noise = &plugins.Noise{Stddev: 6}
			}
		}
		env := sensortest.Default(t, v, sensors.Options{})
		if err := env.World.Reset(seed); err != nil {
			t.Fatal(err)
		}
		if err := env.System.StartDump(dir); err != nil {
			t.Fatal(err)
		}
		env.World.SetCommand("ego", drive.Command{Throttle: 0.6, Steer: 0.3})
		env.Step(100)
		sum, err := env.System.StopDump()
		if err != nil {
			t.Fatal(err)
		}
		return sum
	}
	a, b, c := t.TempDir(), t.TempDir(), t.TempDir()
	sum := run(3, a)
	run(3, b)
	run(4, c)
	t.Log(sum)
	files, _ := filepath.Glob(filepath.Join(a, "*"))
	pngs, jsonl := 0, 0
	for _, f := range files {
		da, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		db, err := os.ReadFile(filepath.Join(b, filepath.Base(f)))
		if err != nil || !bytes.Equal(da, db) {
			t.Fatalf("%s differs between two runs with seed 3 (%v)", filepath.Base(f), err)
		}
		switch filepath.Ext(f) {
		case ".png":
			pngs++
			img, err := png.Decode(bytes.NewReader(da))
			if err != nil || img.Bounds().Dx() != 64 || img.Bounds().Dy() != 48 {
				t.Fatalf("%s: %v", f, err)
			}
			if dc, err := os.ReadFile(filepath.Join(c, filepath.Base(f))); err != nil || bytes.Equal(da, dc) {
				t.Fatalf("%s is the same with seed 4 (%v); the noise should differ", filepath.Base(f), err)
			}
		case ".jsonl":
			jsonl++
			fh, _ := os.Open(f)
			sc := bufio.NewScanner(fh)
			lines := 0
			for sc.Scan() {
				var rec struct {
					Step    uint64          `json:"step"`
					SimTime float64         `json:"simTime"`
					Model   string          `json:"model"`
					Sensor  string          `json:"sensor"`
					Msg     json.RawMessage `json:"msg"`
				}
				if err := json.Unmarshal(sc.Bytes(), &rec); err != nil || rec.Model != "ego" || len(rec.Msg) == 0 {
					t.Fatalf("%s line %d: %v %q", filepath.Base(f), lines+1, err, sc.Text())
				}
				lines++
			}
			fh.Close()
			if lines == 0 {
				t.Fatalf("%s is empty", f)
			}
		}
	}
	// 0.5 s: the 15 Hz camera gives 8 frames; speedometer, ultrasonic, line tracker,
	// powertrain and odometry one JSON-lines file each.
	if pngs != 8 || jsonl != 5 {
		t.Fatalf("%d PNG files and %d JSON-lines files, want 8 and 5: %v", pngs, jsonl, files)
	}
	if !strings.Contains(sum.String(), "8 PNG frames") {
		t.Fatalf("summary %q", sum)
	}
}

// Without Lossless, a camera whose worker falls behind drops its oldest queued frames, counts
// them, and keeps the rest in order; the step loop never waits.
func TestSlowWorkerDropsOldestFrames(t *testing.T) {
	v := sensortest.KS0223(t, sensortest.Sensor{
		Mount:    plugins.SensorMount{ID: "cam", Kind: "camera", Pose: plugins.Pose3{X: 0.12, Z: 0.09}},
		Contract: plugins.SensorDescriptor{ID: "cam", SensorType: "camera", Format: "raw", Shape: []int{480, 640, 3}, RateHz: 200},
	})
	env := sensortest.New(t, corridor(), []world.AgentSpec{{Name: "ego", Vehicle: v, Spawn: &world.Pose{}}}, sensors.Options{QueueLen: 1})
	sub := env.Subscribe("ego", "cam", sensors.TopicImage)
	env.Step(400)
	ms := env.Drain(sub)
	info := env.System.Sensors()[0]
	if info.Dropped == 0 || uint64(len(ms))+info.Dropped != 400 || info.Readings != uint64(len(ms)) {
		t.Fatalf("%d frames published, %d dropped, %d counted; want some dropped and 400 in all", len(ms), info.Dropped, info.Readings)
	}
	for i := 1; i < len(ms); i++ {
		if ms[i].Stamp <= ms[i-1].Stamp {
			t.Fatalf("frame %d stamped %v after %v", i, ms[i].Stamp, ms[i-1].Stamp)
		}
	}
	t.Logf("%d of 400 frames published, %d dropped", len(ms), info.Dropped)
}

// A folder holding one file is refused naming the file, not as "1 entries (notes.txt, ...)".
func TestDumpRefusesAFolderWithOneFile(t *testing.T) {
	v := sensortest.KS0223(t, tinyCamera("cam", 10, 0), speedometer(10))
	env := sensortest.New(t, corridor(), []world.AgentSpec{{Name: "ego", Vehicle: v, Spawn: &world.Pose{}}}, sensors.Options{})
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	want := "sensor dump: " + dir + " holds notes.txt: give an empty or new folder"
	if err := env.System.StartDump(dir); err == nil || err.Error() != want {
		t.Errorf("a dump into a folder with one file: %v\nwant %s", err, want)
	}
}

// A dump across a reset keeps both episodes: the JSON lines go on in the same file with the
// episode number, and the frames of the second episode are named ep1_.
func TestDumpAcrossReset(t *testing.T) {
	v := sensortest.KS0223(t, tinyCamera("cam", 10, 0), speedometer(10))
	env := sensortest.New(t, corridor(), []world.AgentSpec{{Name: "ego", Vehicle: v, Spawn: &world.Pose{}}}, sensors.Options{})
	dir := t.TempDir()
	if err := env.System.StartDump(dir); err != nil {
		t.Fatal(err)
	}
	env.Step(20)
	if err := env.World.Reset(2); err != nil {
		t.Fatal(err)
	}
	env.Step(20)
	sum, err := env.System.StopDump()
	// A second dump into the same folder would mix the runs: refused, naming the folder.
	if err := env.System.StartDump(dir); err == nil || !strings.Contains(err.Error(), dir+" holds") {
		t.Errorf("a dump into a folder with files: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	first, _ := filepath.Glob(filepath.Join(dir, "ego__cam__step*.png"))
	second, _ := filepath.Glob(filepath.Join(dir, "ego__cam__ep1_step*.png"))
	if len(first) != 2 || len(second) != 2 {
		t.Fatalf("frames: %d of the first episode, %d of the second; want 2 and 2 (%v)", len(first), len(second), sum)
	}
	data, err := os.ReadFile(filepath.Join(dir, "ego__speed.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], `{"episode":0,"step":1,`) || !strings.HasPrefix(lines[2], `{"episode":1,"step":1,`) {
		t.Fatalf("speed lines:\n%s", data)
	}
}

// A contract sensorType the runtime has no special handling for ("thermal") is accepted: its
// mount produces readings as its kind makes them, published raw, with a warning logged once.
func TestUnknownSensorTypePublishedRaw(t *testing.T) {
	var logs bytes.Buffer
	thermal := sensortest.Sensor{
		Mount:    plugins.SensorMount{ID: "thermal.front", Kind: "speedometer"},
		Contract: plugins.SensorDescriptor{ID: "thermal.front", SensorType: "thermal", Format: "celsius16", Shape: []int{1}, RateHz: 20},
	}
	v := sensortest.KS0223(t, thermal)
	env := sensortest.New(t, corridor(), []world.AgentSpec{{Name: "ego", Vehicle: v}},
		sensors.Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	sub := env.Subscribe("ego", "thermal.front", sensors.TopicScalar)
	env.Step(200) // 1 s at 200 Hz: readings at 0, 0.05, ..., 1.0 s
	ms := env.Drain(sub)
	if len(ms) != 21 {
		t.Fatalf("%d readings in 1 s at 20 Hz, want 21", len(ms))
	}
	if d := ms[0].Msg.(*msgs.Float_V).GetData(); len(d) != 1 {
		t.Fatalf("reading %v", d)
	}
	if n := strings.Count(logs.String(), "no special handling"); n != 1 {
		t.Fatalf("warning logged %d times:\n%s", n, logs.String())
	}
}

// A publish gate sees every reading that goes out, one at a time, the cameras' workers' too.
func TestPublishGateOneReadingAtATime(t *testing.T) {
	var cams []sensortest.Sensor
	for _, id := range []string{"a", "b", "c", "d"} {
		cams = append(cams, tinyCamera(id, 100, 0))
	}
	v := sensortest.KS0223(t, cams...)
	env := sensortest.New(t, corridor(), []world.AgentSpec{{Name: "ego", Vehicle: v, Spawn: &world.Pose{}}}, sensors.Options{Lossless: true})
	var subs []*transport.Subscription
	for _, id := range []string{"a", "b", "c", "d"} {
		subs = append(subs, env.Subscribe("ego", id, sensors.TopicImage))
	}
	var inside, most, calls atomic.Int32
	env.System.SetPublishGate(func() {
		n := inside.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		calls.Add(1)
		runtime.Gosched() // a reading let through beside this one would be inside now
		inside.Add(-1)
	})
	env.Step(200)
	env.System.Flush()
	frames := 0
	for _, s := range subs {
		frames += len(env.Drain(s))
	}
	if frames != 4*101 || int(calls.Load()) != frames || most.Load() != 1 {
		t.Errorf("%d frames, %d through the gate, at most %d in it at once; want 404 (101 a camera), 404, 1", frames, calls.Load(), most.Load())
	}
	env.System.SetPublishGate(nil)
	env.Step(20)
	env.System.Flush()
	if c := calls.Load(); c != int32(frames) {
		t.Errorf("the gate saw %d readings after it was taken away", c-int32(frames))
	}
}
