package record

import (
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"simgui/app/foxview"
	"simgui/app/foxview/foxglove"
	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/app/world"
	"simgui/plugins"
)

// sceneSnapshot is a world of testTrack's layout and n test cars.
func sceneSnapshot(n int) *world.Snapshot {
	s := &world.Snapshot{SimTime: 2 * time.Second, Layout: &plugins.Layout{Elements: testTrack.Elements}}
	for i := range n {
		s.Models = append(s.Models, world.ModelState{Name: fmt.Sprintf("car%d", i), VehicleID: testVehicle.ID, Vehicle: testVehicle})
	}
	return s
}

// A recording writes each world's scene where its messages begin, after the world's mark.
func TestSceneWrittenPerWorld(t *testing.T) {
	quiet := slog.New(slog.DiscardHandler)
	a, b := transport.NewBus(transport.Options{Logger: quiet}), transport.NewBus(transport.Options{Logger: quiet})
	defer a.Close()
	defer b.Close()
	sa, _ := foxview.Scene(sceneSnapshot(1))
	sb, _ := foxview.Scene(sceneSnapshot(2))
	path := filepath.Join(t.TempDir(), "scenes.mcap")
	rec, err := Start(a, path, Options{Foxglove: true, Logger: quiet, World: World{ID: "a", Scene: func() *foxglove.SceneUpdate { return sa }}})
	if err != nil {
		t.Fatal(err)
	}
	a.Publish("/clock", &msgs.Clock{}, time.Second)
	rec.Switch(b, World{ID: "b", Scene: func() *foxglove.SceneUpdate { return sb }})
	b.Publish("/clock", &msgs.Clock{}, time.Second)
	if _, err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var topics []string
	var scenes []*foxglove.SceneUpdate
	for _, m := range got.Messages {
		topics = append(topics, m.Topic)
		if m.Topic == foxview.SceneTopic {
			var s foxglove.SceneUpdate
			if err := proto.Unmarshal(m.Data, &s); err != nil {
				t.Fatal(err)
			}
			scenes = append(scenes, &s)
		}
	}
	if fmt.Sprint(topics) != fmt.Sprint([]string{foxview.SceneTopic, "/clock", foxview.SceneTopic, "/clock"}) {
		t.Errorf("messages on %v, want each world's scene before its first message", topics)
	}
	if len(scenes) == 2 && (len(scenes[0].Entities) != 2 || len(scenes[1].Entities) != 3) {
		t.Errorf("scenes of %d and %d entities, want 2 and 3", len(scenes[0].Entities), len(scenes[1].Entities))
	}
	if len(got.Worlds) != 2 || got.Worlds[1].ID != "b" {
		t.Errorf("worlds %v", got.Worlds)
	}
}

// A robot that comes into the world's pose list brings the scene again, looked for once a
// second of the file's time; the same robots do not.
func TestSceneFollowsTheRobots(t *testing.T) {
	quiet := slog.New(slog.DiscardHandler)
	bus := transport.NewBus(transport.Options{Logger: quiet})
	defer bus.Close()
	var mu sync.Mutex
	robots := 1
	scene := func() *foxglove.SceneUpdate {
		mu.Lock()
		defer mu.Unlock()
		s, _ := foxview.Scene(sceneSnapshot(robots))
		return s
	}
	path := filepath.Join(t.TempDir(), "robots.mcap")
	rec, err := Start(bus, path, Options{Foxglove: true, Logger: quiet, World: World{ID: "w", Scene: scene}})
	if err != nil {
		t.Fatal(err)
	}
	// Each list is written before the robots change: the scene is the world as it is when
	// the writer comes to the list.
	sent := uint64(0)
	poses := func(n int, at time.Duration) {
		list := &msgs.Pose_V{}
		for i := range n {
			list.Pose = append(list.Pose, &msgs.Pose{Name: fmt.Sprintf("car%d", i)})
		}
		if err := bus.Publish("/world/w/pose/info", list, at); err != nil {
			t.Fatal(err)
		}
		sent++
		for rec.Stats().PerTopic["/world/w/pose/info"] < sent {
			time.Sleep(5 * time.Millisecond)
		}
	}
	set := func(n int) {
		mu.Lock()
		robots = n
		mu.Unlock()
	}
	poses(1, 0)                     // the first scene: car0
	poses(1, 2*time.Second)         // the same robots: none
	set(2)                          //
	poses(2, 2500*time.Millisecond) // car1 came, but the last look was within a second: none
	poses(2, 3200*time.Millisecond) // a scene with car1
	set(3)                          //
	poses(3, 3500*time.Millisecond) // within a second of the last scene: none
	poses(3, 4500*time.Millisecond) // a scene with car2
	set(5)                          // the world two robots ahead of the writer:
	poses(4, 5600*time.Millisecond) // a scene with car3, not car4, which this list lacks
	if _, err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var at []time.Duration
	var entities []int
	for _, m := range got.Messages {
		if m.Topic == "/world/w/pose/info/foxglove" {
			// Each list's own view, also where a scene was written with it.
			var tf foxglove.FrameTransforms
			if err := proto.Unmarshal(m.Data, &tf); err != nil || len(tf.Transforms) == 0 || !strings.HasPrefix(tf.Transforms[0].ChildFrameId, "car") {
				t.Errorf("the view at %v is not the list's transforms: %v (%v)", m.PublishTime, &tf, err)
			}
		}
		if m.Topic == foxview.SceneTopic {
			var s foxglove.SceneUpdate
			if err := proto.Unmarshal(m.Data, &s); err != nil {
				t.Fatal(err)
			}
			at, entities = append(at, m.PublishTime), append(entities, len(s.Entities))
			for _, e := range s.Entities {
				if ts := e.Timestamp.AsTime().Sub(time.Unix(0, 0)); ts != m.LogTime {
					t.Errorf("scene entity %s stamped %v, logged at %v", e.Id, ts, m.LogTime)
				}
			}
		}
	}
	if fmt.Sprint(at) != "[0s 3.2s 4.5s 5.6s]" || fmt.Sprint(entities) != "[2 3 4 5]" {
		t.Errorf("scenes at %v of %v entities; want at [0s 3.2s 4.5s 5.6s] of [2 3 4 5] (the track and the listed robots)", at, entities)
	}
}
