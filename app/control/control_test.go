package control

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"simgui/app"
	"simgui/app/bridge"
	"simgui/app/world"
)

func TestDeviceListAndPortList(t *testing.T) {
	e := start(t, Options{})
	c := e.dial(t, "/control", nil)

	// cloisim_ros's request, single quotes and all.
	raw := ask(t, c, `{'command':'device_list', 'filter':''}`)
	if !strings.HasPrefix(string(raw), `{"sim_version":"5.4.2","command":"device_list","result":{`) {
		t.Fatalf("answer does not start as CLOiSim's: %s", raw)
	}
	var dl struct {
		Result bridge.DeviceMap
	}
	if err := json.Unmarshal(raw, &dl); err != nil {
		t.Fatal(err)
	}
	want := e.bridge.GetDeviceMapList("")
	if got, _ := json.Marshal(dl.Result); string(got) != mustJSON(t, want) {
		t.Fatalf("device_list %s, bridge has %s", got, mustJSON(t, want))
	}
	if len(dl.Result["car0"][bridge.DeviceMicom]["Micom"]) != 3 || dl.Result["car0"][bridge.DeviceLaser]["lidar"]["Data"] == 0 {
		t.Fatalf("car0's devices missing: %v", dl.Result)
	}

	filtered := askJSON(t, c, `{"command":"device_list","filter":"Wor"}`)["result"].(map[string]any)
	if len(filtered) != 1 || filtered["World"] == nil {
		t.Fatalf("filtered device_list %v", filtered)
	}

	pl := askJSON(t, c, `{"command":"port_list","filter":"car0Micom"}`)
	ports := pl["result"].(map[string]any)
	for _, key := range []string{"car0MicomInfo", "car0MicomRx", "car0MicomTx"} {
		p, _ := e.bridge.SearchSensorPort(key)
		if ports[key] != float64(p) || p == 0 {
			t.Errorf("port_list[%s] = %v, bridge has %d", key, ports[key], p)
		}
	}
	if len(ports) != 3 {
		t.Errorf("port_list with filter car0Micom has %d keys", len(ports))
	}

	// No bridge: empty maps, as cloisim_ros keeps asking until it sees devices.
	e2 := start(t, Options{})
	e2.svc.opts.Devices = nil
	c2 := e2.dial(t, "/control", nil)
	if got := ask(t, c2, `{"command":"device_list"}`); string(got) != `{"sim_version":"5.4.2","command":"device_list","result":{}}` {
		t.Fatalf("device_list without bridge: %s", got)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// badScale is the answer to a set_time_scale the loop cannot keep.
const badScale = "set_time_scale needs scale: 0 (as fast as possible) or a number from 0.001 up to 1000000 (1 is real time)"

// A step answers with the steps that ran: fewer than asked when the run ends on the way.
func TestStepCountsTheStepsRun(t *testing.T) {
	e := start(t, Options{}, func(o *app.BuildOptions) { o.MaxSteps = 50 })
	c := e.dial(t, "/control", nil)
	for _, want := range []struct{ steps, iterations float64 }{{30, 30}, {20, 50}} {
		res := askJSON(t, c, `{"command":"step","steps":30}`)["result"].(map[string]any)
		if res["steps"] != want.steps || res["iterations"] != want.iterations {
			t.Fatalf("step 30 answered %v, want %v steps to iteration %v", res, want.steps, want.iterations)
		}
	}
}

func TestLockstepStep(t *testing.T) {
	e := start(t, Options{})
	c := e.dial(t, "/control", nil)
	r := askJSON(t, c, `{"command":"step","steps":40}`)
	res := r["result"].(map[string]any)
	if res["steps"] != 40.0 || res["iterations"] != 40.0 || math.Abs(res["sim_time"].(float64)-0.2) > 1e-12 {
		t.Fatalf("step answered %v", r)
	}
	// The answer comes after the steps ran: the published snapshot already shows them.
	if s := e.loop.Snapshot(); s.Step != 40 || s.SimTime != 200*time.Millisecond {
		t.Fatalf("snapshot after step: step %d, sim time %v", s.Step, s.SimTime)
	}
	if res := askJSON(t, c, `{"command":"step"}`)["result"].(map[string]any); res["steps"] != 1.0 || res["iterations"] != 41.0 {
		t.Fatalf("default step answered %v", res)
	}
	// Lockstep: nothing moves between commands. The loop takes a round of calls, each queued
	// once the one before was answered; a loop running on its own (time scale 0 here) would
	// step between them, whenever it found its queue empty.
	for i := range 20 {
		var step uint64
		if err := e.loop.Call(context.Background(), func(w *world.World) error { step = w.StepCount(); return nil }); err != nil {
			t.Fatal(err)
		}
		if step != 41 {
			t.Fatalf("the world ran on its own to step %d (call %d)", step, i)
		}
	}
	if s := e.loop.Snapshot(); s.Step != 41 {
		t.Fatalf("the world ran on its own to step %d", s.Step)
	}
	// A whole number written as JSON may write it: 2.0 steps twice.
	if res := askJSON(t, c, `{"command":"step","steps":2.0}`)["result"].(map[string]any); res["steps"] != 2.0 || res["iterations"] != 43.0 {
		t.Fatalf("steps 2.0 answered %v", res)
	}
	for _, c2 := range []struct{ req, want string }{
		{`{"command":"pause"}`, "ok"},
		{`{"command":"resume"}`, "ok"},
		{`{"command":"set_time_scale","scale":2.5}`, "ok"},
		{`{"command":"fps"}`, "0"},
		{`{"command":"step","steps":0}`, "steps must be a whole number from 1 to 1000000"},
		{`{"command":"step","steps":1.5}`, "steps must be a whole number from 1 to 1000000"},
		{`{"command":"step","steps":"many"}`, "steps must be a whole number from 1 to 1000000"},
		{`{"command":"step","steps":1e7}`, "steps must be a whole number from 1 to 1000000"},
		{`{"command":"set_time_scale","scale":-1}`, badScale},
		{`{"command":"set_time_scale"}`, badScale},
		{`{"command":"set_time_scale","scale":1e18}`, badScale},
		{`{"command":"set_time_scale","scale":"NaN"}`, badScale},
	} {
		if got := askJSON(t, c, c2.req)["result"]; got != c2.want {
			t.Errorf("%s answered %v, want %q", c2.req, got, c2.want)
		}
	}
	if s := e.loop.Snapshot(); s.TimeScale != 2.5 || s.Paused {
		t.Fatalf("time scale %v paused %v", s.TimeScale, s.Paused)
	}
}

func TestFPSIsStepRate(t *testing.T) {
	e := start(t, Options{})
	c := e.dial(t, "/control", nil)
	// Free running at real time: 200 steps of 5 ms per second.
	askJSON(t, c, `{"command":"set_time_scale","scale":1}`)
	e.loop.SetLockstep(false)
	deadline := time.Now().Add(20 * time.Second)
	for {
		fps := askJSON(t, c, `{"command":"fps"}`)["result"].(string)
		var v float64
		if err := json.Unmarshal([]byte(fps), &v); err != nil {
			t.Fatalf("fps %q is not a number", fps)
		}
		if v > 150 && v < 250 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("fps %v never near 200 steps/s", v)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestResetAndTeleport(t *testing.T) {
	e := start(t, Options{})
	c := e.dial(t, "/control", nil)
	askJSON(t, c, `{"command":"step","steps":10}`)
	if got := askJSON(t, c, `{"command":"reset"}`)["result"]; got != "ok" {
		t.Fatalf("reset answered %v", got)
	}
	if s := e.loop.Snapshot(); s.Step != 0 || s.SimTime != 0 {
		t.Fatalf("after reset: step %d sim time %v", s.Step, s.SimTime)
	}

	tp := `{"command":"teleport","targets":[{"target":"car0","pose":{"x":1.5,"y":-0.5,"z":0,"roll":0,"pitch":0,"yaw":0.75},"reset":true}]}`
	if got := askJSON(t, c, tp)["result"]; got != "ok" {
		t.Fatalf("teleport answered %v", got)
	}
	// get_model_info sees the teleport before any step (lockstep).
	info := askJSON(t, c, `{"command":"get_model_info","target_model":"car0"}`)
	pose := info["result"].(map[string]any)["pose"].(map[string]any)
	pos, ori := pose["position"].(map[string]any), pose["orientation"].(map[string]any)
	if info["result"].(map[string]any)["name"] != "car0" || pos["x"] != 1.5 || pos["y"] != -0.5 || pos["z"] != 0.0 ||
		math.Abs(ori["yaw"].(float64)-0.75) > 1e-9 || ori["roll"] != 0.0 || ori["pitch"] != 0.0 {
		t.Fatalf("model info %v", info)
	}
	askJSON(t, c, `{"command":"step"}`)
	if m, _ := e.loop.Snapshot().Model("car0"); math.Abs(m.Pose.X-1.5) > 1e-3 || math.Abs(m.Pose.Yaw-0.75) > 1e-3 {
		t.Fatalf("snapshot pose after teleport %+v", m.Pose)
	}

	// world_reset resets first, then places the model: the teleport stands.
	tp2 := `{"command":"teleport","world_reset":true,"targets":[{"target":"car0","pose":{"x":-1,"y":0.5,"yaw":0}}]}`
	if got := askJSON(t, c, tp2)["result"]; got != "ok" {
		t.Fatalf("teleport with world_reset answered %v", got)
	}
	askJSON(t, c, `{"command":"step"}`)
	if s := e.loop.Snapshot(); s.Step != 1 {
		t.Fatalf("world_reset did not reset: step %d", s.Step)
	} else if m, _ := s.Model("car0"); math.Abs(m.Pose.X+1) > 1e-3 {
		t.Fatalf("teleport after world reset: %+v", m.Pose)
	}

	for _, tc := range []struct{ req, want string }{
		{`{"command":"teleport"}`, "targets list is empty"},
		{`{"command":"teleport","targets":[{"pose":{"x":1}}]}`, "one or more target model names are empty"},
		{`{"command":"teleport","targets":[{"target":"car0"}]}`, "one or more pose information is null"},
		{`{"command":"teleport","targets":[{"target":"car0","pose":{"x":"far"}}]}`, "invalid teleport request: "},
		{`{"command":"teleport","targets":[{"target":"car0","pose":{"x":9}},{"target":"ghost","pose":{}}]}`, "model 'ghost' not found"},
		{`{"command":"get_model_info"}`, "target_model is empty"},
		{`{"command":"get_model_info","target_model":"ghost"}`, "model 'ghost' not found"},
	} {
		got, _ := askJSON(t, c, tc.req)["result"].(string)
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s answered %q, want %q", tc.req, got, tc.want)
		}
	}
	// The refused teleport moved nothing.
	askJSON(t, c, `{"command":"step"}`)
	if m, _ := e.loop.Snapshot().Model("car0"); math.Abs(m.Pose.X+1) > 1e-2 {
		t.Fatalf("refused teleport moved car0 to %+v", m.Pose)
	}

	// A model whose name is no ROS 2 name is found by the one device_list lists it under too.
	if err := e.loop.Call(context.Background(), func(w *world.World) error {
		_, err := w.Spawn(world.AgentSpec{Name: "agent-2", Vehicle: w.Model("car0").Vehicle, Spawn: &world.Pose{X: 2, Y: 2}})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if got := askJSON(t, c, `{"command":"teleport","targets":[{"target":"agent_2","pose":{"x":-2,"y":1.25}}]}`)["result"]; got != "ok" {
		t.Fatalf("teleport of agent_2 answered %v", got)
	}
	info = askJSON(t, c, `{"command":"get_model_info","target_model":"agent_2"}`)
	if pos := info["result"].(map[string]any)["pose"].(map[string]any)["position"].(map[string]any); pos["x"] != -2.0 || pos["y"] != 1.25 {
		t.Fatalf("agent_2's model info %v", info)
	}

	// indent: the same answer, pretty-printed with two spaces.
	ind := ask(t, c, `{"command":"get_model_info","target_model":"car0","indent":true}`)
	if !strings.HasPrefix(string(ind), "{\n  \"sim_version\": \"5.4.2\",\n  \"command\": \"get_model_info\",") {
		t.Fatalf("indented answer %s", ind)
	}
}

// TestBadInput is the table of bad requests: each is answered as specified and the
// session stays usable.
func TestBadInput(t *testing.T) {
	e := start(t, Options{})
	c := e.dial(t, "/control", nil)
	m := e.dial(t, "/markers", nil)
	box := `{"command":"Add","markers":[{"group":"goal","id":1,"type":"Box","color":"Red","box":{"size":0.2,"point":{"x":1,"y":1,"z":0}}}]}`
	if got := askJSON(t, m, box); got["result"] != "ok" {
		t.Fatalf("first add answered %v", got)
	}
	long := func(n int) string { return strings.Repeat("a", n) }
	twoMiB := `{"command":"device_list","filter":"` + long(2<<20) + `"}`
	cases := []struct {
		name string
		conn *websocket.Conn
		req  string
		want string // exact answer
	}{
		{"malformed JSON", c, `{"command":"fps"`, `{"sim_version":"5.4.2","command":"","result":"invalid json: unexpected end of JSON input"}`},
		{"malformed single quotes", c, `{'command':'fps}`, `{"sim_version":"5.4.2","command":"","result":"invalid json: unexpected end of JSON input"}`},
		{"empty body", c, ``, `{"sim_version":"5.4.2","command":"","result":"request body is empty"}`},
		{"null body", c, `null`, `{"sim_version":"5.4.2","command":"","result":"request body is empty"}`},
		{"empty command", c, `{"command":"  "}`, `{"sim_version":"5.4.2","command":"  ","result":"command is empty"}`},
		{"unknown command", c, `{"command":"fly"}`, `{"sim_version":"5.4.2","command":"fly","result":"unsupported command 'fly'"}`},
		{"empty command of 100 KB", c, `{"command":"` + strings.Repeat(" ", 100000) + `"}`,
			`{"sim_version":"5.4.2","command":"` + strings.Repeat(" ", 64) + `…","result":"command is empty"}`},
		{"unknown command of 100 KB", c, `{"command":"` + long(100000) + `"}`,
			`{"sim_version":"5.4.2","command":"` + long(64) + `…","result":"unsupported command '` + long(64) + `…'"}`},
		{"filter over 256", c, `{"command":"device_list","filter":"` + long(257) + `"}`, `{"sim_version":"5.4.2","command":"device_list","result":"filter is too long (max 256 characters)"}`},
		{"port_list filter over 256", c, `{"command":"port_list","filter":"` + long(257) + `"}`, `{"sim_version":"5.4.2","command":"port_list","result":"filter is too long (max 256 characters)"}`},
		{"filename over 512", c, `{"command":"start_record","filename":"` + long(513) + `"}`, `{"sim_version":"5.4.2","command":"start_record","result":"filename is too long (max 512 characters)"}`},
		{"filename empty", c, `{"command":"start_record"}`, `{"sim_version":"5.4.2","command":"start_record","result":"filename is empty!!"}`},
		{"2 MiB message", c, twoMiB, `{"sim_version":"5.4.2","command":"","result":"message too large (max 1048576 bytes)"}`},
		{"wrong field type", c, `{"command":"device_list","indent":"yes"}`, `{"sim_version":"5.4.2","command":"","result":"invalid json: json: cannot unmarshal string into Go struct field request.indent of type bool"}`},
		{"add of an existing marker", m, box, `{"command":"add","result":"fail","error":"add goal!%!1!%!Box: marker already exists"}`},
		{"markers malformed JSON", m, `{"command":`, `{"command":"","result":"fail","error":"invalid json: unexpected end of JSON input"}`},
		{"markers 2 MiB message", m, twoMiB, `{"command":"","result":"fail","error":"message too large (max 1048576 bytes)"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(ask(t, tc.conn, tc.req)); got != tc.want {
				t.Fatalf("answer\n%s\nwant\n%s", got, tc.want)
			}
			// The session is still up.
			if tc.conn == c {
				if r := askJSON(t, c, `{"command":"port_list"}`); r["command"] != "port_list" {
					t.Fatalf("session unusable after the bad request: %v", r)
				}
			} else if r := askJSON(t, m, `{"command":"List"}`); r["result"] != "ok" {
				t.Fatalf("markers session unusable: %v", r)
			}
		})
	}

	t.Run("cross-origin upgrade", func(t *testing.T) {
		h := http.Header{"Origin": {"http://evil.example"}}
		_, resp, err := websocket.DefaultDialer.Dial("ws://"+e.addr+"/control", h)
		if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
			t.Fatalf("cross-origin dial: %v, response %v", err, resp)
		}
	})

	t.Run("far too large closes", func(t *testing.T) {
		big := e.dial(t, "/control", nil)
		big.WriteMessage(websocket.TextMessage, []byte(long(9<<20)))
		_, _, err := big.ReadMessage()
		if !websocket.IsCloseError(err, websocket.CloseMessageTooBig) {
			t.Fatalf("9 MiB message: %v, want close 1009", err)
		}
	})
}

func TestOriginAndToken(t *testing.T) {
	e := start(t, Options{Token: "s3cret", AllowOrigins: []string{"http://localhost:3000/"}})
	dial := func(path string, h http.Header) int {
		c, resp, err := websocket.DefaultDialer.Dial("ws://"+e.addr+path, h)
		if err == nil {
			c.Close()
			return http.StatusSwitchingProtocols
		}
		if resp == nil {
			t.Fatalf("dial %s: %v", path, err)
		}
		return resp.StatusCode
	}
	bearer := http.Header{"Authorization": {"Bearer s3cret"}}
	with := func(h http.Header, k, v string) http.Header {
		out := h.Clone()
		out.Set(k, v)
		return out
	}
	_, port, _ := strings.Cut(e.addr, ":")
	for _, c := range []struct {
		name, path string
		h          http.Header
		want       int
	}{
		{"no token", "/control", nil, http.StatusUnauthorized},
		{"wrong token", "/control?token=guess", nil, http.StatusUnauthorized},
		{"query token", "/control?token=s3cret", nil, http.StatusSwitchingProtocols},
		{"bearer token", "/markers", bearer, http.StatusSwitchingProtocols},
		{"other origin", "/control", with(bearer, "Origin", "http://evil.example"), http.StatusForbidden},
		{"allowed origin", "/control", with(bearer, "Origin", "http://localhost:3000"), http.StatusSwitchingProtocols},
		{"same host by IP", "/control", with(bearer, "Origin", "http://"+e.addr), http.StatusSwitchingProtocols},
		{"same host, other port", "/control", with(bearer, "Origin", "http://127.0.0.1:1"), http.StatusForbidden},
		// DNS rebinding: evil.example resolving to 127.0.0.1 sends Host and Origin alike.
		{"rebound name", "/control", with(with(bearer, "Origin", "http://evil.example:"+port), "Host", "evil.example:"+port), http.StatusForbidden},
		{"unknown path", "/admin?token=s3cret", nil, http.StatusNotFound},
	} {
		if got := dial(c.path, c.h); got != c.want {
			t.Errorf("%s: HTTP %d, want %d", c.name, got, c.want)
		}
	}
	e2 := start(t, Options{AllowOrigins: []string{"*"}})
	if c, _, err := websocket.DefaultDialer.Dial("ws://"+e2.addr+"/control", http.Header{"Origin": {"https://anything.example"}}); err != nil {
		t.Fatalf("allow-origin *: %v", err)
	} else {
		c.Close()
	}
}

func TestDefaultAddr(t *testing.T) {
	t.Setenv(PortEnv, "")
	if a, err := DefaultAddr(); err != nil || a != "127.0.0.1:8080" {
		t.Fatalf("default %s %v", a, err)
	}
	t.Setenv(PortEnv, "18080")
	if a, err := DefaultAddr(); err != nil || a != "127.0.0.1:18080" {
		t.Fatalf("from env %s %v", a, err)
	}
	t.Setenv(PortEnv, "80a")
	if _, err := New(Options{}); err == nil || !strings.Contains(err.Error(), "CLOISIM_SERVICE_PORT") {
		t.Fatalf("bad env port: %v", err)
	}
}
