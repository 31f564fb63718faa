package api

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"math"
	"net/http"
	"simgui/app/scenario"
	"strings"
	"sync"
	"testing"
)

// Two KS0223s on the basic arena, ego at Unity (0, -7.5) and peer 0.5 m ahead of it, both
// facing +z (north): the peer fills the middle of ego's camera.
const twoAgentsReset = `{"seed": 4, "selectedTrackId": "track.basic_arena.v1", "selectedVehicleId": "vehicle.ks0223.v1",
  "vehicleParams": [{"key": "camera.width", "value": "84"}, {"key": "camera.height", "value": "84"}],
  "flags": [%s],
  "agents": [
    {"agentId": "ego", "isPrimary": true, "trackParams": [{"key": "spawn.position", "value": "0,0,-7.5"}, {"key": "spawn.yaw_deg", "value": "0"}]}%s]}`

const peerAgent = `,
    {"agentId": "peer", "trackParams": [{"key": "spawn.position", "value": "0,0.2,-7.0"}, {"key": "spawn.yaw_deg", "value": "0"}]}`

func flags(kv ...string) string {
	var out []string
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, fmt.Sprintf(`{"key": %q, "value": %q}`, kv[i], kv[i+1]))
	}
	return strings.Join(out, ", ")
}

func TestPeersInCameraAndCollisions(t *testing.T) {
	s := startServer(t, Options{Now: fixedClock})
	alone, _ := s.ok("/reset", fmt.Sprintf(twoAgentsReset, "", ""))
	if p := alone.State.Pose.Position; p.X != 0 || p.Z != -7.5 || math.Abs(unityYaw(alone.State.Pose.Rotation)) > 1e-9 {
		t.Fatalf("ego spawned at %+v yaw %g", p, unityYaw(alone.State.Pose.Rotation))
	}
	aloneImg := decodeFrame(t, alone.Frame)

	seen, _ := s.ok("/reset", fmt.Sprintf(twoAgentsReset, flags("agents.see_each_other", "true"), peerAgent))
	if p := seen.Agents[1].State.Pose.Position; p.X != 0 || p.Z != -7 {
		t.Fatalf("peer spawned at %+v", p)
	}
	if n := changedPixels(aloneImg, decodeFrame(t, seen.Frame), 40); n < 150 {
		t.Errorf("see_each_other: the peer changed only %d pixels of ego's frame", n)
	}

	for _, f := range []string{
		flags("agents.see_each_other", "false"),
		flags("agents.isolated", "true"),
		flags("agents.isolated", "true", "agents.see_each_other", "true"),
	} {
		res, _ := s.ok("/reset", fmt.Sprintf(twoAgentsReset, f, peerAgent))
		if res.Frame.DataBase64 != alone.Frame.DataBase64 {
			t.Errorf("flags [%s]: ego's frame differs from its frame alone (%d pixels)", f,
				changedPixels(aloneImg, decodeFrame(t, res.Frame), 40))
		}
		if p := res.Agents[1].State.Pose.Position; p.X != 0 || p.Z != -7 {
			t.Errorf("flags [%s]: peer at %+v", f, p)
		}
	}

	// Drive ego 20 steps (1 s at 0.73 m/s) into the peer's spot.
	drive := func(f string) (ego, peer Vec3) {
		s.ok("/reset", fmt.Sprintf(twoAgentsReset, f, peerAgent))
		var res *StepResult
		for range 20 {
			res, _ = s.ok("/step", `{"throttle": 1, "targetAgentId": "ego"}`)
		}
		return res.Agents[0].State.Pose.Position, res.Agents[1].State.Pose.Position
	}
	ego, peer := drive(flags("agents.isolated", "true"))
	if ego.Z < -6.9 || peer.Z != -7 || peer.X != 0 {
		t.Errorf("isolated: ego at z %.3f should have driven through the peer's spot; peer at %+v", ego.Z, peer)
	}
	egoColl, peerColl := drive(flags("agents.collisions_enabled", "true"))
	if peerColl.Z <= -7+0.05 && egoColl.Z > -7.5+0.26 {
		t.Errorf("shared world with collisions: ego at z %.3f passed the peer, which stayed at %.3f", egoColl.Z, peerColl.Z)
	}
	if peerColl == peer {
		t.Errorf("shared world with collisions: the peer was not pushed (%+v)", peerColl)
	}
	egoOff, peerOff := drive(flags("agents.collisions_enabled", "false"))
	if egoOff.Z != ego.Z || peerOff.Z != -7 {
		t.Errorf("collisions off: ego z %.4f (isolated %.4f), peer z %.4f", egoOff.Z, ego.Z, peerOff.Z)
	}
}

// A scenario without a randomization block draws rusim's KS0223 per-episode ranges at each
// reset — mass, dampings, motor gains, camera pitch — seeded: the same seed draws the same,
// another seed other values, and randomization.enabled=false draws nothing.
func TestDefaultPerEpisodeDraws(t *testing.T) {
	s := startServer(t, Options{Now: fixedClock})
	draws := func(body string) map[string]string {
		res, _ := s.ok("/reset", body)
		out := map[string]string{}
		for _, kv := range res.Info {
			if key, ok := strings.CutPrefix(kv.Key, "randomization.ego."); ok && key != "seed" {
				out[key] = string(kv.Value)
			}
		}
		return out
	}
	one := draws(`{"seed": 1}`)
	for _, key := range []string{"mass", "linear_damping", "angular_damping", "motor_gain_left", "motor_gain_right", "camera.pitch_deg"} {
		if _, ok := one[key]; !ok {
			t.Errorf("seed 1 drew %v: no %s", one, key)
		}
	}
	if len(one) != 6 {
		t.Errorf("seed 1 drew %d values, want the 6 of rusim's per-episode ranges: %v", len(one), one)
	}
	if again := draws(`{"seed": 1}`); !maps.Equal(one, again) {
		t.Errorf("seed 1 twice: %v then %v", one, again)
	}
	if two := draws(`{"seed": 2}`); maps.Equal(one, two) {
		t.Errorf("seeds 1 and 2 drew the same: %v", one)
	}
	if off := draws(`{"seed": 1, "flags": [{"key": "randomization.enabled", "value": "false"}]}`); len(off) != 0 {
		t.Errorf("randomization.enabled=false drew %v", off)
	}
}

// A scenario whose block says enabled: false refuses ranges sent without a word on enabled:
// they would not be drawn.
func TestRangesWhileRandomizationIsOff(t *testing.T) {
	sc, err := scenario.Parse([]byte("world: {trackId: track.cardboard_corridor.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\nrandomization: {enabled: false}\n"), "off.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := startServer(t, Options{Scenario: sc})
	code, msg := s.raw("POST", "/reset", `{"flags": [{"key": "randomization.visual.textures", "value": "1"}]}`, map[string]string{"Content-Type": "application/json"})
	if code != 400 || !strings.Contains(msg, "randomization is off in this scenario") {
		t.Errorf("got %d %q, want 400 saying randomization is off", code, msg)
	}
}

// TestDrawsReplay checks that the draws a reset reports replay the episode: the same seed with
// randomization off and the drawn values as params gives the same step replies.
func TestDrawsReplay(t *testing.T) {
	s := startServer(t, Options{Scenario: randomizedScenario(t), Now: fixedClock})
	steps := actions(30, "ego")
	res, _ := s.ok("/reset", fmt.Sprintf(detReset, 21))
	var vp, tp []string
	for _, kv := range res.Info {
		key, ok := strings.CutPrefix(kv.Key, "randomization.ego.")
		if !ok || key == "seed" {
			continue
		}
		pair := fmt.Sprintf(`{"key": %q, "value": %q}`, strings.TrimPrefix(key, "track."), kv.Value)
		if strings.HasPrefix(key, "track.") {
			tp = append(tp, pair)
		} else {
			vp = append(vp, pair)
		}
	}
	if len(vp) < 10 || len(tp) != 1 {
		t.Fatalf("draws: vehicle %v, track %v", vp, tp)
	}
	var want [][]byte
	for _, st := range steps {
		_, b := s.ok("/step", st)
		want = append(want, b)
	}
	replay := fmt.Sprintf(`{"seed": 21, "vehicleParams": [{"key": "camera.width", "value": "84"}, {"key": "camera.height", "value": "84"}, %s],
	  "trackParams": [%s], "flags": [{"key": "randomization.enabled", "value": "false"}]}`, strings.Join(vp, ", "), strings.Join(tp, ", "))
	got := episodeReplies(s, replay, steps)
	if strings.Contains(string(got[0]), "randomization.ego") {
		t.Errorf("randomization off still drew: %s", got[0])
	}
	sameReplies(t, "replay", want, got[1:])
}

// TestConcurrentClients steps four isolated agents from four clients at once, with /health and
// /contract polled alongside and resets racing the steps at the end: every reply is whole, and
// each agent's world advanced exactly by its own steps.
func TestConcurrentClients(t *testing.T) {
	s := startServer(t, Options{})
	s.ok("/reset", `{"seed": 2, "flags": [{"key": "agents.isolated", "value": "true"}],
	  "vehicleParams": [{"key": "camera.width", "value": "32"}, {"key": "camera.height", "value": "32"}],
	  "agents": [{"agentId": "a"}, {"agentId": "b"}, {"agentId": "c"}, {"agentId": "d"}]}`)
	const n = 25
	var wg sync.WaitGroup
	errs := make(chan string, 100)
	for _, id := range []string{"a", "b", "c", "d"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &http.Client{}
			for range n {
				r, err := c.Post(s.base+"/step", "application/json", strings.NewReader(fmt.Sprintf(`{"targetAgentId": %q, "throttle": 0.5}`, id)))
				if err != nil {
					errs <- err.Error()
					return
				}
				var res StepResult
				err = json.NewDecoder(r.Body).Decode(&res)
				r.Body.Close()
				if err != nil || r.StatusCode != 200 || res.ActiveAgentID != id || res.Frame.Width != 32 {
					errs <- fmt.Sprintf("%s: %d %v %s", id, r.StatusCode, err, res.ActiveAgentID)
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 10 {
			for _, p := range []string{"/health", "/contract"} {
				if code, _, _ := s.do(http.MethodGet, p, ""); code != 200 {
					errs <- fmt.Sprintf("GET %s: %d", p, code)
				}
			}
		}
	}()
	wg.Wait()
	res, _ := s.ok("/step", `{"actions": [{"targetAgentId": "a"}, {"targetAgentId": "b"}, {"targetAgentId": "c"}, {"targetAgentId": "d"}]}`)
	for _, a := range res.Agents {
		if a.State.Speed == 0 {
			t.Errorf("agent %s did not move", a.AgentID)
		}
	}
	if got := kv(t, res.Info, "sim.step"); got != fmt.Sprint((n+1)*10) {
		t.Errorf("agent a's world ran %s steps, want %d", got, (n+1)*10)
	}

	// Resets racing steps: every reply is a whole 200 reply.
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := range 5 {
			if code, _, b := s.do(http.MethodPost, "/reset", fmt.Sprintf(`{"seed": %d}`, i)); code != 200 {
				errs <- fmt.Sprintf("reset: %d %s", code, b)
			}
		}
	}()
	go func() {
		defer wg.Done()
		for range 30 {
			code, _, b := s.do(http.MethodPost, "/step", `{"throttle": 1}`)
			var res StepResult
			if code != 200 || json.Unmarshal(b, &res) != nil || len(res.Agents) == 0 {
				errs <- fmt.Sprintf("step during resets: %d %s", code, b)
			}
		}
	}()
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestUnknownTargetDrivesThePrimaryAndIsLogged: a step for an agent the episode does not have
// drives the primary, as rusim's does, and the log says so once per unknown id, across resets.
func TestUnknownTargetDrivesThePrimaryAndIsLogged(t *testing.T) {
	var buf syncBuffer
	s := startServer(t, Options{Now: fixedClock, Logger: slog.New(slog.NewTextHandler(&buf, nil))})
	s.ok("/reset", fmt.Sprintf(twoAgentsReset, flags("agents.isolated", "true"), peerAgent))
	var res *StepResult
	for range 3 {
		res, _ = s.ok("/step", `{"throttle": 1, "targetAgentId": "eg0"}`)
	}
	if res.ActiveAgentID != "ego" || res.Agents[0].State.Pose.Position.Z <= -7.5 {
		t.Fatalf("a step for eg0 drove %q; ego at z %.3f", res.ActiveAgentID, res.Agents[0].State.Pose.Position.Z)
	}
	s.ok("/step", `{"throttle": 1, "targetAgentId": "pear"}`)
	s.ok("/step", `{"throttle": 1, "targetAgentId": "peer"}`)
	// A new episode, the same unknown id: rusim's clients send "ego" at every reset.
	s.ok("/reset", fmt.Sprintf(twoAgentsReset, flags("agents.isolated", "true"), peerAgent))
	s.ok("/step", `{"throttle": 1, "targetAgentId": "eg0"}`)
	log := buf.String()
	if n := strings.Count(log, "targetAgentId=eg0"); n != 1 {
		t.Errorf("eg0 logged %d times, want once:\n%s", n, log)
	}
	if n := strings.Count(log, "targetAgentId=pear"); n != 1 {
		t.Errorf("pear logged %d times, want once:\n%s", n, log)
	}
	if strings.Contains(log, "targetAgentId=peer") {
		t.Errorf("a step for an agent of the episode was logged:\n%s", log)
	}
}

// TestResetLogsUnusedCameraParams: a reset whose camera is kept flat (realistic=0) while the
// film is drawn logs that the draw is unused, once however many resets do the same.
func TestResetLogsUnusedCameraParams(t *testing.T) {
	var buf syncBuffer
	s := startServer(t, Options{Now: fixedClock, Logger: slog.New(slog.NewTextHandler(&buf, nil))})
	body := `{"seed": 3, "selectedTrackId": "track.cardboard_corridor.v1", "selectedVehicleId": "vehicle.ks0223.v1",
	  "vehicleParams": [{"key": "camera.width", "value": "84"}, {"key": "camera.height", "value": "84"},
	                    {"key": "sensor.camera.front.rgb.realistic", "value": "0"}],
	  "flags": [{"key": "randomization.enabled", "value": "true"}, {"key": "randomization.sensors.exposure", "value": "2,3"}]}`
	for range 3 {
		s.ok("/reset", body)
	}
	log := buf.String()
	if n := strings.Count(log, "sensor.camera.front.rgb.exposure (from the vehicle's descriptor or a draw): exposure acts only in the realistic look"); n != 1 {
		t.Errorf("the unused exposure logged %d times, want once:\n%s", n, log)
	}
}

// TestSchemaTrackDrawsBuild: track params drawn over their whole schema range that would not
// build together are drawn again, so that every reset of a training run builds its track.
func TestSchemaTrackDrawsBuild(t *testing.T) {
	s := startServer(t, Options{Now: fixedClock})
	for seed := range 12 {
		body := fmt.Sprintf(`{"seed": %d, "selectedTrackId": "track.cardboard_corridor.v1", "selectedVehicleId": "vehicle.ks0223.v1",
		  "trackParams": [{"key": "length", "value": "2"}],
		  "vehicleParams": [{"key": "camera.width", "value": "84"}, {"key": "camera.height", "value": "84"}],
		  "flags": [{"key": "randomization.enabled", "value": "true"}, {"key": "randomization.track.width", "value": "schema"}]}`, seed)
		res, _ := s.ok("/reset", body)
		if w := infoValue(res.Info, "randomization.ego.track.width"); w == "" {
			t.Fatalf("seed %d: no width drawn in info %v", seed, res.Info)
		}
	}
}

// In a shared world an agent's own spawn.yaw_deg alone turns it where the world places it, as
// rusim's scenario_to_reset_config sends it (it was dropped without a spawn.position).
func TestAgentYawAloneInASharedWorld(t *testing.T) {
	s := startServer(t, Options{})
	res, _ := s.ok("/reset", `{"selectedTrackId": "track.basic_arena.v1", "flags": [{"key": "agents.isolated", "value": "false"}],
	  "agents": [{"agentId": "a", "vehicleId": "vehicle.ks0223.v1", "trackParams": [{"key": "spawn.yaw_deg", "value": "90.0"}]},
	             {"agentId": "b", "vehicleId": "vehicle.ks0223.v1", "trackParams": [{"key": "spawn.yaw_deg", "value": "-90.0"}]}]}`)
	for i, want := range []float64{90, -90} {
		if got := unityYaw(res.Agents[i].State.Pose.Rotation); math.Abs(got-want) > 1e-6 {
			t.Errorf("agent %s faces %.3f° (rusim's frame), want %g", res.Agents[i].AgentID, got, want)
		}
	}
}
