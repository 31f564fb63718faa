package window

import (
	"encoding/json"
	"fmt"
	"image"
	"io"
	"math"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"simgui/app/record"
	"simgui/app/window/xtest"
)

// TestWindowWatchesTraining: with the window open, a training client resets an episode of two
// agents over the API and drives one: the window switches to the episode and shows its robot
// moving, /control's device_list lists the episode's agents, and a recording started during
// the episode holds the episode's topics. The user can then switch back to the scenario world
// with ] and the bridge follows.
func TestWindowWatchesTraining(t *testing.T) {
	needDisplay(t)
	ctl, api := freePort(t), freePort(t)
	dir := t.TempDir()
	g := startGUI(t, buildSimgui(t), []string{"--control-port", strconv.Itoa(ctl), "--api-port", strconv.Itoa(api),
		"--record-dir", dir})
	base := fmt.Sprintf("http://127.0.0.1:%d", api)
	post := func(path, body string) map[string]any {
		t.Helper()
		r, err := http.Post(base+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		b, _ := io.ReadAll(r.Body)
		var out map[string]any
		if r.StatusCode != 200 || json.Unmarshal(b, &out) != nil {
			t.Fatalf("%s: %d %s", path, r.StatusCode, b)
		}
		return out
	}
	control, _, err := websocket.DefaultDialer.Dial(fmt.Sprintf("ws://127.0.0.1:%d/control", ctl), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer control.Close()
	ask := func(req string) any {
		t.Helper()
		if err := control.WriteMessage(websocket.TextMessage, []byte(req)); err != nil {
			t.Fatal(err)
		}
		var rep struct{ Result any }
		control.SetReadDeadline(time.Now().Add(20 * time.Second))
		if err := control.ReadJSON(&rep); err != nil {
			t.Fatal(err)
		}
		return rep.Result
	}
	deviceModels := func() []string {
		var out []string
		for m := range ask(`{"command":"device_list"}`).(map[string]any) {
			out = append(out, m)
		}
		return out
	}

	post("/reset", `{"seed": 3, "agents": [{"agentId": "alpha", "isPrimary": true}, {"agentId": "beta"}]}`)
	s := g.waitState("the episode on show", 20*time.Second, func(s State) bool {
		return s.World == "episode-1" && s.Worlds == 2 && s.Selected == "alpha"
	})
	// The client resets and steps the episode: the window's reset, pause and step say so
	// rather than change it under the client.
	for _, k := range [][2]string{{"r", "reset"}, {"p", "pause"}, {"n", "step"}} {
		g.key(k[0])
		g.waitState("the window to refuse "+k[1]+" on the episode", 10*time.Second, func(s State) bool {
			return strings.HasPrefix(s.Status, k[1]+": this world is a training episode") && !s.Paused && s.Step == 0
		})
	}
	// Stop following the robot, so that the view stays put while it drives.
	g.key("f")
	s = g.waitState("the view to stay put", 10*time.Second, func(s State) bool { return !s.Follow })
	before := g.shot("training-start.png")
	// The pose and view as the picture has them: the state after the shot, which the frame
	// that took it wrote or a later one (nothing moves until the trainer steps).
	sb, ok := g.readState()
	if !ok {
		t.Fatal("no window state after the first picture")
	}
	start := sb.Pose

	// The bridge re-registers the episode's devices (discovery runs every 100 ms).
	deadline := time.Now().Add(10 * time.Second)
	for models := deviceModels(); !(slices.Contains(models, "alpha") && slices.Contains(models, "beta") && !slices.Contains(models, "ego")); models = deviceModels() {
		if time.Now().After(deadline) {
			t.Fatalf("device_list during the episode lists %v, want alpha and beta", models)
		}
		time.Sleep(50 * time.Millisecond)
	}

	if got := ask(`{"command":"start_record","filename":"episode"}`); got != "True" {
		t.Fatalf("start_record: %v", got)
	}
	// The window says a recording runs, though it did not start it.
	g.waitState("the window to show the control socket's recording", 10*time.Second, func(s State) bool {
		return slices.Equal(s.OtherRecordings, []string{"episode.mcap"})
	})
	var last map[string]any
	for range 40 {
		last = post("/step", `{"targetAgentId": "alpha", "throttle": 1}`)
	}
	// The world's step after them: the window's state must have caught up with it before the
	// picture, or the picture may show the robot further on than the state said.
	finalStep := ""
	for _, kv := range last["info"].([]any) {
		if kv := kv.(map[string]any); kv["key"] == "sim.step" {
			finalStep = kv["value"].(string)
		}
	}
	if finalStep == "" {
		t.Fatalf("no sim.step in the step reply's info: %v", last["info"])
	}
	if got := ask(`{"command":"stop_record"}`); got != "True" {
		t.Fatalf("stop_record: %v", got)
	}
	s = g.waitState("alpha driving in the window", 20*time.Second, func(s State) bool {
		return s.Selected == "alpha" && strconv.FormatUint(s.Step, 10) == finalStep && math.Hypot(s.Pose[0]-start[0], s.Pose[1]-start[1]) > 0.5
	})
	after := g.shot("training-moved.png")
	if sa, ok := g.readState(); !ok || sa.View != sb.View {
		t.Fatalf("the view moved between the pictures: %v then %v", sb.View, sa.View)
	}
	// Where the robot now is, the picture changed; where it started, too (it left).
	for _, p := range [][3]float64{start, s.Pose} {
		at := toScreen(after, sb, p[0], p[1]) // the view is the same in both pictures
		r := image.Rectangle{at.Sub(image.Pt(6, 6)), at.Add(image.Pt(6, 6))}
		if !r.In(after.Bounds()) {
			t.Fatalf("pose %v is at %v, outside the %v picture (view %v)", p, at, after.Bounds(), sb.View)
		}
		if a, b := xtest.RegionStats(before, r), xtest.RegionStats(after, r); math.Abs(a.R-b.R)+math.Abs(a.G-b.G)+math.Abs(a.B-b.B) < 20 {
			t.Errorf("the window did not show the robot move at %v (pose %v from %v, view %v): %+v then %+v", at, p, start, sb.View, a, b)
		}
	}

	rec, err := record.ReadFile(filepath.Join(dir, "episode.mcap"))
	if err != nil {
		t.Fatal(err)
	}
	counts := rec.Counts()
	if !rec.Complete || counts["/model/alpha/pose"] == 0 || counts["/model/beta/pose"] == 0 || counts["/model/ego/pose"] != 0 {
		t.Fatalf("the recording during the episode: complete=%v counts %v", rec.Complete, counts)
	}

	// ] shows the next world: the scenario's again, with its own robot.
	g.key("bracketright")
	g.waitState("the scenario world", 10*time.Second, func(s State) bool { return s.World == "scenario" && s.Selected == "ego" })
	deadline = time.Now().Add(10 * time.Second)
	for models := deviceModels(); !slices.Contains(models, "ego") || slices.Contains(models, "alpha"); models = deviceModels() {
		if time.Now().After(deadline) {
			t.Fatalf("device_list after switching back lists %v", models)
		}
		time.Sleep(50 * time.Millisecond)
	}
	g.shot("training-back-to-scenario.png")
}
