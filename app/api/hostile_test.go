package api

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"simgui/app/lograte"
	"simgui/app/scenario"
)

// simStep reads info's sim.step from a reply.
func simStep(t *testing.T, res *StepResult) uint64 {
	t.Helper()
	v, ok := kvLookup(res.Info, "sim.step")
	if !ok {
		t.Fatalf("no sim.step in %v", res.Info)
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// raw sends a request with full control of its headers and returns status and body.
func (s *testServer) raw(method, path, body string, header map[string]string) (int, string) {
	s.t.Helper()
	req, err := http.NewRequest(method, s.base+path, strings.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	r, err := s.c.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	var e errorBody
	json.Unmarshal(b, &e)
	return r.StatusCode, e.Error
}

// TestHostileRequests sends the training API every request the hostile probe found
// accepted, and more; each is refused with a 4xx naming its limit, and the episode keeps
// stepping (sim.step advances) after each. Heap use is measured around them.
func TestHostileRequests(t *testing.T) {
	s := startServer(t, Options{})
	s.ok("/reset", `{"seed": 1}`)
	port := s.svc.Addr().(*net.TCPAddr).Port
	js := map[string]string{"Content-Type": "application/json"}
	with := func(h map[string]string, kv ...string) map[string]string {
		out := map[string]string{}
		for k, v := range h {
			out[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			out[kv[i]] = kv[i+1]
		}
		return out
	}
	agents := func(n int, isolated bool) string {
		var b strings.Builder
		fmt.Fprintf(&b, `{"flags": [{"key": "agents.isolated", "value": "%t"}], "agents": [`, isolated)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"agentId": "a%d"}`, i)
		}
		b.WriteString("]}")
		return b.String()
	}
	manyKVs := `{"trackParams": [` + strings.Repeat(`{},`, 50000) + `{}]}`
	actions := `{"actions": [` + strings.Repeat(`{"targetAgentId": "ego"},`, MaxActions) + `{}]}`
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)

	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)

	for _, tc := range []struct {
		name, method, path, body string
		header                   map[string]string
		status                   int
		message                  string
	}{
		{"CORS simple text/plain reset", "POST", "/reset", `{"seed": 2}`, map[string]string{"Content-Type": "text/plain"}, 415, `not "text/plain"`},
		{"CORS simple text/plain step", "POST", "/step", `{"throttle": 1}`,
			map[string]string{"Content-Type": "text/plain;charset=UTF-8", "Origin": "http://evil.example"}, 403, "origin http://evil.example"},
		{"form body", "POST", "/step", `throttle=1`, map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 415, "must be application/json"},
		{"no content type", "POST", "/step", `{"throttle": 1}`, nil, 415, `not ""`},
		{"JSON in UTF-16", "POST", "/step", `{"throttle": 1}`, map[string]string{"Content-Type": "application/json; charset=utf-16"}, 415, `charset must be utf-8, not "utf-16"`},
		{"JSON in Latin-1", "POST", "/step", `{"throttle": 1}`, map[string]string{"Content-Type": "application/json; charset=latin1"}, 415, `charset must be utf-8, not "latin1"`},
		{"cross-origin JSON", "POST", "/step", `{"throttle": 1}`, with(js, "Origin", "http://evil.example"), 403, "--allow-origin http://evil.example"},
		{"rebound host: health", "GET", "/health", "", map[string]string{"Host": "evil.example:" + strconv.Itoa(port)}, 403, "--allow-host evil.example"},
		{"rebound host: step", "POST", "/step", `{}`, with(js, "Host", "evil.example:"+strconv.Itoa(port), "Origin", "http://evil.example:"+strconv.Itoa(port)), 403, "is not served"},
		{"body over the limit", "POST", "/reset", `{"seed": 1, "pad": "` + strings.Repeat("x", MaxBody) + `"}`, js, 413, "larger than 2097152 bytes"},
		{"20,000 shared agents", "POST", "/reset", agents(20000, false), js, 400, "at most 10000 agents; this one has 20000"},
		{"300 isolated agents", "POST", "/reset", agents(300, true), js, 400, "at most 256 agents (each is a world of its own); this one has 300"},
		{"3 MiB of padding", "POST", "/reset", "{" + strings.Repeat(" ", 3<<20) + "}", js, 413, "larger than 2097152 bytes"},
		{"only padding, past the limit", "POST", "/reset", strings.Repeat(" ", MaxBody+10), js, 413, "larger than 2097152 bytes"},
		{"more agents than the floor holds", "POST", "/reset", agents(2000, false), js, 400, " of the 2000 fit on the free floor"},
		{"50,000 list items", "POST", "/reset", manyKVs, js, 400, "more than 40000 list items"},
		{"257 actions", "POST", "/step", actions, js, 400, "at most 256 actions; this one has 257"},
		{"camera 4000 wide", "POST", "/reset", `{"vehicleParams": [{"key": "camera.width", "value": "4000"}]}`, js, 400, "16..1920"},
		{"camera 0 high", "POST", "/reset", `{"vehicleParams": [{"key": "camera.height", "value": "0"}]}`, js, 400, "0 pixels is outside 16..1080"},
		{"camera 20 digits wide", "POST", "/reset", `{"vehicleParams": [{"key": "camera.width", "value": "99999999999999999999"}]}`, js, 400, "99999999999999999999 pixels is outside 16..1920"},
		{"camera 1.5 wide", "POST", "/reset", `{"vehicleParams": [{"key": "camera.width", "value": "1.5"}]}`, js, 400, "'1.5' is not a whole number (pixels, 16..1920)"},
		{"camera NaN wide", "POST", "/reset", `{"vehicleParams": [{"key": "camera.width", "value": "NaN"}]}`, js, 400, "16..1920"},
		{"brightness NaN", "POST", "/reset", `{"vehicleParams": [{"key": "camera.brightness", "value": "NaN"}]}`, js, 400, "0..4"},
		{"brightness Inf", "POST", "/reset", `{"vehicleParams": [{"key": "camera.color_gain_r", "value": "+Inf"}]}`, js, 400, "0..4"},
		{"flags as an object", "POST", "/reset", `{"flags": {"randomization.enabled": "false"}}`, js, 400,
			`Invalid JSON: flags must be a list of {"key": ..., "value": ...} pairs, not object.`},
		{"vehicle params as an object", "POST", "/reset", `{"agents": [{"vehicleParams": {"mass": "1"}}]}`, js, 400,
			`Invalid JSON: agents.vehicleParams must be a list of {"key": ..., "value": ...} pairs, not object.`},
		{"throttle 1e400", "POST", "/step", `{"throttle": 1e400}`, js, 400, "Invalid JSON"},
		{"throttle NaN literal", "POST", "/step", `{"throttle": NaN}`, js, 400, "Invalid JSON"},
		{"PWM NaN", "POST", "/step", `{"extensions": [{"key": "drive.left_pwm_norm", "value": "NaN"}, {"key": "drive.right_pwm_norm", "value": "0"}]}`, js, 400, "is not a number"},
		{"PWM hexadecimal", "POST", "/step", `{"extensions": [{"key": "drive.left_pwm_norm", "value": "0x1p-1"}, {"key": "drive.right_pwm_norm", "value": "0"}]}`, js, 400, "is not a number"},
		{"vertical Inf", "POST", "/step", `{"extensions": [{"key": "control.vertical_norm", "value": "-Inf"}]}`, js, 400, "is not a number"},
		{"spawn yaw NaN", "POST", "/reset", `{"trackParams": [{"key": "spawn.yaw_deg", "value": "NaN"}]}`, js, 400, "is not a number"},
		{"spawn position Inf", "POST", "/reset", `{"trackParams": [{"key": "spawn.position", "value": "Inf,0,0"}]}`, js, 400, "spawn.position"},
		{"spawn position 1e300", "POST", "/reset", `{"trackParams": [{"key": "spawn.position", "value": "1e300,0,0"}]}`, js, 400, `"1e300,0,0": 1e300 is outside -10000..10000 m`},
		{"track param NaN", "POST", "/reset", `{"trackParams": [{"key": "length", "value": "NaN"}]}`, js, 400, "trackParams.length: NaN is not a finite number"},
		{"20,000 deep", "POST", "/reset", deep, js, 400, "Invalid JSON"},
		{"a 1 MB key", "POST", "/reset", `{"flags": [{"key": "randomization.` + strings.Repeat("k", 1<<20) + `", "value": "1"}]}`, js, 400,
			"flags: a key of 1048590 bytes (at most 256)"},
		{"30,000 flags and 100 agents", "POST", "/reset", `{"flags": [` + strings.Repeat(`{"key": "x", "value": "1"},`, 30000) + `{"key": "y"}], "agents": [` +
			strings.Repeat(`{},`, 99) + `{}]}`, js, 400, "flags has 30001 entries; at most 256"},
		{"a 1 MB value", "POST", "/reset", `{"flags": [{"key": "randomization.visual.distractors", "value": "` + strings.Repeat("1", 1<<20) + `"}]}`, js, 400,
			"more bytes)"},
		{"a 100 KB number", "POST", "/reset", `{"vehicleParams": [{"key": "sensor.camera.front.rgb.k1", "value": "0.` + strings.Repeat("1", 100<<10) + `x"}]}`, js, 400,
			"more bytes)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := simStep(t, func() *StepResult { r, _ := s.ok("/step", `{}`); return r }())
			code, msg := s.raw(tc.method, tc.path, tc.body, tc.header)
			if code != tc.status || !strings.Contains(msg, tc.message) {
				t.Errorf("got %d %.300q, want %d with %q", code, msg, tc.status, tc.message)
			}
			if len(msg) > 4096 {
				t.Errorf("a reply of %d bytes: an error should not echo what it refuses whole", len(msg))
			}
			after, _ := s.ok("/step", `{"throttle": 0.5}`)
			if simStep(t, after) <= before {
				t.Errorf("the episode did not step on: sim.step %d then %d", before, simStep(t, after))
			}
		})
	}

	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	t.Logf("heap in use %.1f MiB before the hostile requests, %.1f MiB after",
		float64(before.HeapInuse)/(1<<20), float64(after.HeapInuse)/(1<<20))
	if grew := int64(after.HeapInuse) - int64(before.HeapInuse); grew > 64<<20 {
		t.Errorf("heap grew by %d MiB", grew>>20)
	}
	// The rusim reset and step still work as before.
	s.ok("/reset", rusimReset)
	s.ok("/step", rusimStep)
}

// TestTokenGuardsTheAPI: with a token, every endpoint needs it, as a bearer header or a query
// parameter.
func TestTokenGuardsTheAPI(t *testing.T) {
	s := startServer(t, Options{Token: "s3cret"})
	for _, path := range []string{"/health", "/contract"} {
		if code, msg := s.raw("GET", path, "", nil); code != 401 || !strings.Contains(msg, "token") {
			t.Errorf("GET %s without token: %d %q", path, code, msg)
		}
	}
	js := map[string]string{"Content-Type": "application/json"}
	if code, _ := s.raw("POST", "/reset", `{}`, map[string]string{"Content-Type": "application/json", "Authorization": "Bearer nope"}); code != 401 {
		t.Errorf("wrong token: %d", code)
	}
	if code, msg := s.raw("POST", "/reset", `{}`, map[string]string{"Content-Type": "application/json", "Authorization": "Bearer s3cret"}); code != 200 {
		t.Errorf("bearer token: %d %s", code, msg)
	}
	if code, msg := s.raw("POST", "/step?token=s3cret", `{}`, js); code != 200 {
		t.Errorf("query token: %d %s", code, msg)
	}
}

// TestSlowClientsAreCutOff: half-sent headers and bodies are closed after their timeouts,
// however many there are, and the episode steps meanwhile.
func TestSlowClientsAreCutOff(t *testing.T) {
	s := startServer(t, Options{HeaderTimeout: 300 * time.Millisecond, BodyTimeout: 500 * time.Millisecond})
	s.ok("/reset", `{"seed": 1}`)
	addr := s.svc.Addr().String()
	const n = 200
	conns := make([]net.Conn, 0, n)
	for i := range n {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if i%2 == 0 {
			fmt.Fprintf(c, "POST /step HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"thr", addr)
		} else {
			fmt.Fprintf(c, "POST /step HTTP/1.1\r\nHost: %s\r\nContent-Ty", addr)
		}
		conns = append(conns, c)
	}
	first, _ := s.ok("/step", `{}`)
	second, _ := s.ok("/step", `{}`)
	if simStep(t, second) <= simStep(t, first) {
		t.Error("no step while slow clients wait")
	}
	for i, c := range conns {
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		// The server closes the connection (after a 408 for a body cut short, or without a
		// word for a header), never later than the deadline above.
		got, err := io.ReadAll(bufio.NewReader(c))
		if err != nil {
			t.Fatalf("connection %d still open: %v", i, err)
		}
		if i%2 == 0 {
			reply := string(got)
			if !strings.HasPrefix(reply, "HTTP/1.1 408 ") || !strings.Contains(reply, "The request body did not arrive within 500ms.") ||
				strings.Contains(reply, "127.0.0.1") {
				t.Fatalf("connection %d (body cut short) got %q, want a 408 that names no address", i, reply)
			}
		}
	}
}

// TestBodyBudget: clients that stall half-way through large bodies hold at most bodyBudget
// of them; a further large body is refused with 503 while small ones (every step) are still
// answered, and the budget comes back when the stalled clients leave.
func TestBodyBudget(t *testing.T) {
	s := startServer(t, Options{})
	s.ok("/reset", `{"seed": 1}`)
	addr := s.svc.Addr().String()
	large := `{"throttle": 0.1` + strings.Repeat(" ", 3*smallBody) + `}`
	post := func(body string) (int, string) {
		code, _, text := s.do("POST", "/step", body)
		return code, string(text)
	}
	// Half as many again as the budget holds: a stalled body that found the budget briefly
	// taken (by the probe below) is refused, and others take its place.
	stalled := make([]net.Conn, 0, bodyBudget/MaxBody*3/2)
	for range cap(stalled) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "POST /step HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{\"pad\": \"%s",
			addr, MaxBody, strings.Repeat("x", 2*smallBody))
		stalled = append(stalled, c)
	}
	// The server takes each stalled body's budget once it has read past smallBody of it:
	// spent when not even one more such body fits.
	deadline := time.Now().Add(30 * time.Second)
	for s.svc.bodies.TryAcquire(MaxBody) {
		s.svc.bodies.Release(MaxBody)
		if time.Now().After(deadline) {
			t.Fatalf("%d stalled bodies did not spend the budget", len(stalled))
		}
		runtime.Gosched()
	}
	code, text := post(large)
	if code != http.StatusServiceUnavailable || !strings.Contains(text, "retry") {
		t.Fatalf("a large body with %d stalled ones: %d %s, want 503", len(stalled), code, text)
	}
	if code, text := post(`{"throttle": 0.1}`); code != http.StatusOK {
		t.Errorf("a small step while the budget is spent: %d %s", code, text)
	}
	for _, c := range stalled {
		c.Close()
	}
	deadline = time.Now().Add(30 * time.Second)
	for code == http.StatusServiceUnavailable && time.Now().Before(deadline) {
		code, text = post(large)
	}
	if code != http.StatusOK {
		t.Errorf("a large body after the stalled clients left: %d %s", code, text)
	}
}

// TestCameraSizeRule: any frame from 16×16 to 1920×1080 renders — rusim's range, 320–1920 ×
// 240–1080, and the small frames policies read, such as 84×84 — at exactly the size asked.
func TestCameraSizeRule(t *testing.T) {
	s := startServer(t, Options{Scenario: scenario.Default()})
	for _, size := range [][2]int{{84, 84}, {16, 16}, {320, 240}, {1920, 1080}} {
		res, _ := s.ok("/reset", fmt.Sprintf(`{"vehicleParams": [{"key": "camera.width", "value": "%d"}, {"key": "camera.height", "value": "%d"}]}`, size[0], size[1]))
		if res.Frame.Width != size[0] || res.Frame.Height != size[1] {
			t.Errorf("asked %v, got %d×%d", size, res.Frame.Width, res.Frame.Height)
		}
	}
}

// TestFramePixelBudget: limits that pass one by one (256 isolated agents, 256 actions,
// 1920×1080 frames) cannot add up past MaxFramePixels: a reset whose worlds would draw more is
// refused before any is built, a step whose frames would hold more is refused before any is
// drawn, and the same requests with smaller frames are served. A shared world draws all its
// agents' frames into one image, so many agents cost one frame's buffers.
func TestFramePixelBudget(t *testing.T) {
	s := startServer(t, Options{})
	reset := func(n int, isolated bool, w, h int) string {
		var b strings.Builder
		fmt.Fprintf(&b, `{"selectedTrackId": "track.basic_arena.v1", "flags": [{"key": "agents.isolated", "value": "%t"}],
		  "vehicleParams": [{"key": "camera.width", "value": "%d"}, {"key": "camera.height", "value": "%d"}], "agents": [`, isolated, w, h)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"agentId": "a%d"}`, i)
		}
		b.WriteString("]}")
		return b.String()
	}
	step := func(n int) string {
		var b strings.Builder
		b.WriteString(`{"actions": [`)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"targetAgentId": "a%d", "throttle": 0.3}`, i)
		}
		b.WriteString("]}")
		return b.String()
	}
	refused := func(path, body, msg string) {
		t.Helper()
		if code, _, b := s.do("POST", path, body); code != 400 || !strings.Contains(string(b), msg) {
			t.Errorf("POST %s: got %d %.300s, want 400 with %q", path, code, b, msg)
		}
	}
	perFrame := maxFrameWidth * maxFrameHeight
	over := MaxFramePixels/perFrame + 1 // 65

	refused("/reset", reset(over, true, maxFrameWidth, maxFrameHeight),
		fmt.Sprintf("at most %d camera pixels together (64 frames of 1920×1080; a realistic camera's pixel counts 3 times); these %d worlds draw %d", MaxFramePixels, over, over*perFrame))
	refused("/reset", reset(MaxIsolatedAgents, true, 1280, 720), "these 256 worlds draw")
	// A realistic camera's pixel counts realisticWeight times: 22 full-HD ones are over.
	realistic := strings.Replace(reset(22, true, maxFrameWidth, maxFrameHeight), `"vehicleParams": [`,
		`"vehicleParams": [{"key": "sensor.camera.front.rgb.realistic", "value": "1"}, `, 1)
	refused("/reset", realistic, fmt.Sprintf("a realistic camera's pixel counts 3 times); these 22 worlds draw %d", 22*3*perFrame))
	lensed := strings.Replace(reset(22, true, maxFrameWidth, maxFrameHeight), `"vehicleParams": [`,
		`"vehicleParams": [{"key": "sensor.camera.front.rgb.k1", "value": "-0.1"}, `, 1)
	refused("/reset", lensed, fmt.Sprintf("these 22 worlds draw %d", 22*3*perFrame))

	// A shared world of 65 full-HD cameras is one frame's buffers: served. A step framing
	// all 65 is not.
	r0, _ := s.ok("/reset", reset(over, false, maxFrameWidth, maxFrameHeight))
	r1, _ := s.ok("/step", `{"actions": [{"targetAgentId": "a1"}]}`)
	refused("/step", step(over),
		fmt.Sprintf("at most %d pixels together (64 frames of 1920×1080); these %d frames hold %d", MaxFramePixels, over, over*perFrame))
	// The refused step was not applied: the world advanced by two steps' worth in all.
	r2, _ := s.ok("/step", `{"actions": [{"targetAgentId": "a1"}]}`)
	if d1, d2 := simStep(t, r1)-simStep(t, r0), simStep(t, r2)-simStep(t, r1); d1 == 0 || d2 != d1 {
		t.Errorf("sim.step %d, %d, %d around a refused step: it moved the world", simStep(t, r0), simStep(t, r1), simStep(t, r2))
	}

	// The same counts with small frames pass.
	s.ok("/reset", reset(over, false, 320, 240))
	res, _ := s.ok("/step", step(over))
	framed := 0
	for _, a := range res.Agents {
		if a.Frame.Width == 320 && a.Frame.Height == 240 && a.Frame.DataBase64 != "" {
			framed++
		}
	}
	if framed != over {
		t.Errorf("%d agents got a 320×240 frame, want %d", framed, over)
	}
	res, _ = s.ok("/reset", reset(MaxIsolatedAgents, true, 84, 84))
	if len(res.Agents) != MaxIsolatedAgents {
		t.Errorf("%d isolated agents at 84×84, want %d", len(res.Agents), MaxIsolatedAgents)
	}
}

// TestRefusalsDoNotFloodTheLog: a client repeating a refused request as fast as it can gets
// each refused, while the log gets a burst of lines and then a count of those left out.
func TestRefusalsDoNotFloodTheLog(t *testing.T) {
	var buf syncBuffer
	s := startServer(t, Options{Logger: slog.New(slog.NewTextHandler(&buf, nil))})
	for range 300 {
		if code, _ := s.raw("GET", "/health", "", map[string]string{"Host": "evil.example"}); code != 403 {
			t.Fatalf("a rebound host answered %d", code)
		}
	}
	lines := strings.Count(buf.String(), "refused a request")
	if lines == 0 || lines > lograte.DefaultBurst+2 {
		t.Errorf("%d log lines for 300 refusals", lines)
	}
}

// syncBuffer is a bytes.Buffer for a logger written from the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestRefusedParamsNamedAsSent: a refused parameter is named as the request sent it
// (vehicleParams, trackParams), and an entry without a key is refused as such.
func TestRefusedParamsNamedAsSent(t *testing.T) {
	s := startServer(t, Options{})
	for _, tc := range []struct{ body, want string }{
		{`{"vehicleParams": [{"key": "camera.jpeg_quality", "value": "19"}]}`, "vehicleParams.camera.jpeg_quality: 19 is outside the range 20..100"},
		{`{"trackParams": [{"key": "width", "value": "99"}]}`, "trackParams.width: 99 is above the maximum 2.0"},
		{`{"vehicleParams": [{"key": " ", "value": "1"}]}`, "vehicleParams: an entry has an empty key."},
		{`{"agents": [{"agentId": "a", "trackParams": [{"key": "", "value": "1"}]}]}`, "agents[0].trackParams: an entry has an empty key."},
	} {
		s.wantError("POST", "/reset", tc.body, http.StatusBadRequest, tc.want)
	}
}

// TestEmptyBodyWithoutContentType: a POST with no body and no Content-Type (curl -X POST, or
// requests' post(json=None)) gets rusim's answer to an empty body, not the Content-Type
// refusal; a body without the JSON Content-Type is still refused with 415.
func TestEmptyBodyWithoutContentType(t *testing.T) {
	s := startServer(t, Options{})
	for _, path := range []string{"/reset", "/step"} {
		if code, msg := s.raw("POST", path, "", nil); code != http.StatusBadRequest || msg != "Request body is empty." {
			t.Errorf("POST %s without a body: got %d %q, want 400 \"Request body is empty.\"", path, code, msg)
		}
	}
	if code, msg := s.raw("POST", "/health", "", nil); code != http.StatusNotFound || msg != "not_found" {
		t.Errorf("POST /health without a body: got %d %q, want 404 not_found", code, msg)
	}
	if code, _ := s.raw("POST", "/reset", `{"seed": 1}`, nil); code != http.StatusUnsupportedMediaType {
		t.Errorf("POST /reset with a body but no Content-Type: got %d, want 415", code)
	}
	// The same, chunked (a length not told before the body): an empty one is empty, one with
	// JSON in it still lacks its Content-Type.
	for _, c := range []struct {
		body, ct string
		code     int
		want     string
	}{
		{"", "", http.StatusBadRequest, "Request body is empty."},
		{"  \r\n", "", http.StatusBadRequest, "Request body is empty."},
		{`{"seed": 1}`, "", http.StatusUnsupportedMediaType, `Content-Type must be application/json, not "".`},
		{`{"seed": 1}`, "text/plain", http.StatusUnsupportedMediaType, `Content-Type must be application/json, not "text/plain".`},
	} {
		addr := s.svc.Addr().String()
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		head := "POST /reset HTTP/1.1\r\nHost: " + addr + "\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n"
		if c.ct != "" {
			head += "Content-Type: " + c.ct + "\r\n"
		}
		chunk := ""
		if c.body != "" {
			chunk = fmt.Sprintf("%x\r\n%s\r\n", len(c.body), c.body)
		}
		fmt.Fprintf(conn, "%s\r\n%s0\r\n\r\n", head, chunk)
		r, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		var e errorBody
		err = json.NewDecoder(r.Body).Decode(&e)
		r.Body.Close()
		conn.Close()
		if r.StatusCode != c.code || err != nil || e.Error != c.want {
			t.Errorf("chunked POST /reset %q, Content-Type %q: got %d %q (%v), want %d %q", c.body, c.ct, r.StatusCode, e.Error, err, c.code, c.want)
		}
	}
}
