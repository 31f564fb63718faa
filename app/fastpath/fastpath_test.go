package fastpath

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image/jpeg"
	"log/slog"
	"math"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"simgui/app"
	"simgui/app/api"
	"simgui/app/scenario"
)

// corridorTraining is the corridor with domain randomization of the vehicle, the camera, the
// sonar and the corridor's width.
const corridorTraining = `
scenarioId: corridor-training-test
runtime: {seed: 0, stepSize: 0.005, actionPeriod: 0.1}
world:
  trackId: track.cardboard_corridor.v1
  params: {length: 2.0, width: 0.6}
vehicle: {vehicleId: vehicle.ks0223.v1}
randomization:
  vehicle: {mass: 0.2, motor_gain_left: 0.1, motor_gain_right: 0.1, latency: [0, 0.03]}
  sensors: {camera_pitch_deg: 4, image_noise: [0, 3], brightness: 0.15, color_jitter: 0.05, sonar_noise: [0, 0.01]}
  track: {width: [0.5, 0.8]}
`

func waitFor(t *testing.T, h *app.Host, what string, ok func() bool) {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for !ok() {
		select {
		case <-h.Changed():
		case <-deadline:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// A session's envs are worlds of the host, shown while the session runs; a reset reports
// each env's episode, a step advances every env by one action period, and closing the
// session removes its worlds.
func TestSessionEnvsAreWorldsOfTheHost(t *testing.T) {
	h, f := startFace(t, scenario.Default())
	if fi, err := os.Stat(f.Addr()); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket %s: %v, mode %v; want 0600", f.Addr(), err, fi.Mode())
	}
	c := dial(t, f.Addr())
	c.open(OpenRequest{Envs: 3, FrameWidth: 32, FrameHeight: 24, ActionPeriod: 0.1, Label: "test"})
	if c.rep.Session != "train-1" || len(c.rep.Worlds) != 3 || c.rep.Worlds[2] != "train-1/env-2" ||
		c.rep.Frame.Width != 32 || c.rep.Frame.Height != 24 || c.rep.Frame.Channels != 3 || c.rep.StepsPerAction != 20 {
		t.Fatalf("open reply %+v", c.rep)
	}
	if string(c.mem[:8]) != memMagic {
		t.Fatalf("memory header %q", c.mem[:8])
	}
	waitFor(t, h, "env-0 on show", func() bool { a := h.Active(); return a != nil && a.ID == "train-1/env-0" })
	for _, id := range c.rep.Worlds {
		w := h.World(id)
		if w == nil || w.Kind != app.KindEpisode || !strings.Contains(w.Label, "test") {
			t.Fatalf("world %s: %+v", id, w)
		}
	}

	resets := c.resetAll(5)
	if len(resets) != 3 {
		t.Fatalf("%d resets reported", len(resets))
	}
	for i, r := range resets {
		if r.Env != i || r.Seed != int64(5+i) || r.Route == nil || len(r.Route.Waypoints) != 4 || r.Spawn[1] >= 0 {
			t.Fatalf("reset %d: %+v", i, r)
		}
	}
	y0 := c.state(1, "y")
	for range 10 {
		c.stepAll([3]float64{0.6, 0})
	}
	for i := range 3 {
		if got := c.state(i, "sim_time"); math.Abs(got-1.0) > 1e-9 {
			t.Errorf("env %d: sim time %g after 10 steps of 0.1 s", i, got)
		}
		if got := c.state(i, "actions"); got != 10 {
			t.Errorf("env %d: %g actions", i, got)
		}
	}
	if y := c.state(1, "y"); y < y0+0.2 {
		t.Errorf("env 1 drove from y %g to %g: it should have gone north", y0, y)
	}
	if s := c.state(1, "ultrasonic_m"); !(s > 0 && s <= 3.5) {
		t.Errorf("sonar %g", s)
	}
	img := c.image(0)
	if bytes.Count(img, img[:1]) == len(img) {
		t.Error("the frame is a single colour")
	}

	c.send(msgClose, nil)
	if typ, _, _, err := c.recv(); err != nil || typ != msgClosed {
		t.Fatalf("close: 0x%02x %v", typ, err)
	}
	waitFor(t, h, "the session's worlds removed", func() bool { return h.World("train-1/env-0") == nil })
	if a := h.Active(); a == nil || a.Kind != app.KindScenario {
		t.Errorf("after the session the active world is %v", a)
	}
}

// Env i of a session seeded s is the env seeded s+i on its own; resetting a used world with a
// seed gives the same episode as its first reset with that seed; different seeds draw
// different episodes.
func TestSeedsGiveTheSameObservations(t *testing.T) {
	sc, err := scenario.Parse([]byte(corridorTraining), "test")
	if err != nil {
		t.Fatal(err)
	}
	_, f := startFace(t, sc)
	open := func(n int) *client {
		c := dial(t, f.Addr())
		c.open(OpenRequest{Envs: n, FrameWidth: 48, FrameHeight: 48})
		return c
	}
	actions := func(k int) [3]float64 { return [3]float64{0.7, 0.4 * math.Sin(float64(k)/3)} }
	run := func(c *client, env int, seed int64) (frames [][]byte, poses [][3]float64) {
		n := c.rep.Envs
		kinds, seeds := make([]byte, n), make([]int64, n)
		kinds[env], seeds[env] = kindReset, seed
		c.mustStep(kinds, make([][3]float64, n), seeds)
		for k := range 15 {
			kinds[env] = kindStep
			acts := make([][3]float64, n)
			acts[env] = actions(k)
			c.mustStep(kinds, acts, seeds)
			frames = append(frames, bytes.Clone(c.image(env)))
			poses = append(poses, [3]float64{c.state(env, "x"), c.state(env, "y"), c.state(env, "ultrasonic_m")})
		}
		return
	}
	a := open(2)
	a.resetAll(20) // envs 20 and 21
	fa, pa := run(a, 1, 21)
	b := open(1)
	fb, pb := run(b, 0, 21)
	for k := range fa {
		if !bytes.Equal(fa[k], fb[k]) || pa[k] != pb[k] {
			t.Fatalf("step %d: env 1 of a session and a session of its own differ with seed 21: %v vs %v", k, pa[k], pb[k])
		}
	}
	fa2, pa2 := run(a, 1, 21) // the same world again
	for k := range fa {
		if !bytes.Equal(fa[k], fa2[k]) || pa[k] != pa2[k] {
			t.Fatalf("step %d: a second episode with seed 21 differs from the first", k)
		}
	}
	fo, po := run(a, 1, 22)
	if bytes.Equal(fo[0], fa[0]) && po[len(po)-1] == pa[len(pa)-1] {
		t.Fatal("seeds 21 and 22 gave the same episode")
	}
}

// The fast path and the training API give the same observations for the same seed and
// actions, randomization on, the fast path running only the sensors observed: the same poses and sonar readings to the last bit of what the API
// prints, the same route progress, and the same frame up to the API's JPEG.
func TestMatchesTheTrainingAPI(t *testing.T) {
	sc, err := scenario.Parse([]byte(corridorTraining), "test")
	if err != nil {
		t.Fatal(err)
	}
	h, f := startFace(t, sc)
	svc, err := api.New(api.Options{Addr: "127.0.0.1:0", Scenario: sc, Host: h, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	go svc.Serve(context.Background())
	t.Cleanup(func() { svc.Shutdown(context.Background()) })
	base := "http://" + svc.Addr().String()
	post := func(path, body string) *api.StepResult {
		t.Helper()
		r, err := http.Post(base+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		var res api.StepResult
		if err := json.NewDecoder(r.Body).Decode(&res); err != nil || r.StatusCode != 200 {
			t.Fatalf("%s: %d %v", path, r.StatusCode, err)
		}
		return &res
	}
	const seed = 31
	c := dial(t, f.Addr())
	// The fast path runs only the camera and the sonar; the API runs every sensor.
	c.open(OpenRequest{Envs: 1, FrameWidth: 64, FrameHeight: 48, VehicleParams: map[string]any{"camera.jpeg_quality": 100},
		Sensors: []string{"ultrasonic.front"}})
	c.resetAll(seed)
	res := post("/reset", fmt.Sprintf(`{"seed": %d, "vehicleParams": [{"key": "camera.width", "value": "64"},
		{"key": "camera.height", "value": "48"}, {"key": "camera.jpeg_quality", "value": "100"}]}`, seed))
	var worst float64
	for k := 0; k <= 25; k++ {
		if k > 0 {
			th, st := 0.8, 0.5*math.Sin(float64(k)/4)
			c.stepAll([3]float64{th, st})
			res = post("/step", fmt.Sprintf(`{"throttle": %v, "steer": %v}`, th, st))
		}
		p := res.State.Pose.Position
		if float64(p.X) != c.state(0, "x") || float64(p.Z) != c.state(0, "y") {
			t.Fatalf("step %d: the API is at (%v, %v), the fast path at (%v, %v)", k, p.X, p.Z, c.state(0, "x"), c.state(0, "y"))
		}
		tel := map[string]string{}
		for _, kv := range append(res.State.Telemetry, res.Info...) {
			tel[kv.Key] = string(kv.Value)
		}
		for key, field := range map[string]string{"sensor.ultrasonic.front.m": "ultrasonic_m",
			"route.current_index": "route_index", "route.distance_to_target_m": "route_distance"} {
			want, err := strconv.ParseFloat(tel[key], 64)
			if err != nil || want != c.state(0, field) {
				t.Fatalf("step %d: the API's %s is %q, the fast path's %s %v", k, key, tel[key], field, c.state(0, field))
			}
		}
		jpg, err := base64.StdEncoding.DecodeString(res.Frame.DataBase64)
		if err != nil {
			t.Fatal(err)
		}
		img, err := jpeg.Decode(bytes.NewReader(jpg))
		if err != nil {
			t.Fatal(err)
		}
		raw := c.image(0)
		var sum float64
		for y := range 48 {
			for x := range 64 {
				r, g, b, _ := img.At(x, y).RGBA()
				o := 3 * (64*y + x)
				sum += math.Abs(float64(r>>8)-float64(raw[o])) + math.Abs(float64(g>>8)-float64(raw[o+1])) + math.Abs(float64(b>>8)-float64(raw[o+2]))
			}
		}
		worst = max(worst, sum/(64*48*3))
	}
	// JPEG at quality 100 with 4:2:0 chroma costs a level or two on average; a frame one
	// action period apart differs by tens.
	if worst > 3 {
		t.Fatalf("the API's frames differ from the fast path's by %.2f levels on average (worst step)", worst)
	}
	t.Logf("mean absolute difference of the API's JPEG to the raw frame: %.2f levels at worst", worst)
}
