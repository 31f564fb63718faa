package api

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"io"
	"log/slog"
	"math"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"simgui/app"
	"simgui/app/scenario"
	"simgui/plugins"
)

// testServer is a Service on a free port with a keep-alive client.
type testServer struct {
	t    *testing.T
	svc  *Service
	base string
	c    *http.Client
}

func startServer(t *testing.T, opts Options) *testServer {
	t.Helper()
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	if opts.Scenario == nil {
		opts.Scenario = scenario.Default()
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Host == nil {
		opts.Host = startHost(t, opts.Scenario)
	}
	svc, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- svc.Serve(context.Background()) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		svc.Shutdown(ctx)
		if err := <-done; err != ErrClosed {
			t.Errorf("Serve returned %v, want ErrClosed", err)
		}
	})
	return &testServer{t: t, svc: svc, base: "http://" + svc.Addr().String(), c: &http.Client{Timeout: 30 * time.Second}}
}

// startHost runs a host whose scenario world is sc's, paused, with no faces: the API's
// episodes run on it.
func startHost(t *testing.T, sc *scenario.Scenario) *app.Host {
	t.Helper()
	h, _ := runHost(t, sc)
	return h
}

// runHost is startHost that also returns stop, which ends the host's run and returns what Run
// returned; the test's cleanup stops it if the test has not.
func runHost(t *testing.T, sc *scenario.Scenario) (*app.Host, func() error) {
	t.Helper()
	plan, err := scenario.Resolve(sc, plugins.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	h := app.NewHost(app.HostOptions{Logger: slog.New(slog.DiscardHandler)})
	sim, err := h.Build(plan, app.BuildOptions{Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	h.SetScenario(sim)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx) }()
	stop := sync.OnceValue(func() error {
		cancel()
		return <-done
	})
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Errorf("host: %v", err)
		}
		h.Close()
	})
	<-h.Running() // episodes can start from now on
	return h, stop
}

func fixedClock() time.Time { return time.UnixMilli(1700000000123) }

// do sends a request and returns the status, the content type and the body.
func (s *testServer) do(method, path, body string) (int, string, []byte) {
	s.t.Helper()
	req, err := http.NewRequest(method, s.base+path, strings.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	r, err := s.c.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer r.Body.Close()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		s.t.Fatal(err)
	}
	return r.StatusCode, r.Header.Get("Content-Type"), b
}

// ok posts and fails unless the status is 200; it returns the decoded StepResult and the body.
func (s *testServer) ok(path, body string) (*StepResult, []byte) {
	s.t.Helper()
	code, _, b := s.do(http.MethodPost, path, body)
	if code != http.StatusOK {
		s.t.Fatalf("POST %s %s: %d %s", path, body, code, b)
	}
	var res StepResult
	if err := json.Unmarshal(b, &res); err != nil {
		s.t.Fatalf("POST %s: %v in %s", path, err, b)
	}
	return &res, b
}

// wantError checks an error reply: status and exact body.
func (s *testServer) wantError(method, path, body string, status int, msg string) {
	s.t.Helper()
	code, ct, b := s.do(method, path, body)
	want, _ := json.Marshal(map[string]string{"error": msg})
	if code != status || !bytes.Equal(b, want) {
		s.t.Errorf("%s %s %q: got %d %s, want %d %s", method, path, body, code, b, status, want)
	}
	if ct != "application/json; charset=utf-8" {
		s.t.Errorf("%s %s: content type %q", method, path, ct)
	}
}

// Shapes: "string", "number", "integer", "bool"; obj is an object with exactly these keys;
// list{elem} a list whose every element has the shape.
type obj map[string]any
type list struct{ elem any }

var (
	kvShape    = obj{"key": "string", "value": "string"}
	vec3Shape  = obj{"x": "number", "y": "number", "z": "number"}
	stateShape = obj{
		"pose":            obj{"position": vec3Shape, "rotation": obj{"x": "number", "y": "number", "z": "number", "w": "number"}},
		"linearVelocity":  vec3Shape,
		"angularVelocity": vec3Shape,
		"speed":           "number",
		"timestamp":       "integer",
		"timeBase":        "string",
		"telemetry":       list{kvShape},
	}
	frameShape = obj{
		"frameId": "string", "width": "integer", "height": "integer", "format": "string", "encoding": "string",
		"timestamp": "integer", "timeBase": "string", "bytesLength": "integer", "dataRef": "string", "dataBase64": "string",
	}
	stepResultShape = obj{
		"activeAgentId": "string", "activeVehicleId": "string", "state": stateShape, "reward": "number",
		"done": "bool", "info": list{kvShape}, "frame": frameShape,
		"agents": list{obj{"agentId": "string", "vehicleId": "string", "state": stateShape, "frame": frameShape}},
	}
	healthShape = obj{
		"status": "string", "pluginRegistrySource": "string", "availableVehicles": "integer", "availableTracks": "integer",
		"activeAgentId": "string", "activeVehicleId": "string", "activeTrackId": "string", "activeVehicleCount": "integer",
		"activeAgentIds": list{"string"}, "activeVehicleIds": list{"string"},
	}
	contractShape = obj{
		"simulatorId": "string", "simulatorName": "string", "contractVersion": "string", "transportInfo": "string",
		"availableVehicles": list{obj{
			"deviceId": "string", "deviceType": "string",
			"sensors": list{obj{"id": "string", "sensorType": "string", "format": "string", "unit": "string",
				"shape": list{"integer"}, "rateHz": "number"}},
			"actuators":             list{obj{"id": "string", "actuatorType": "string", "unit": "string", "min": "number", "max": "number"}},
			"observationSchemaJson": "string", "actionSchemaJson": "string",
		}},
		"availableTracks": list{obj{"trackId": "string", "displayName": "string", "parametersSchemaJson": "string"}},
	}
)

// checkShape reports every difference between the JSON in b and shape: missing or extra keys,
// wrong types. Lists must not be null.
func checkShape(t *testing.T, b []byte, shape any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	for _, p := range shapeProblems("$", v, shape) {
		t.Error(p)
	}
}

func shapeProblems(path string, v, shape any) []string {
	switch s := shape.(type) {
	case string:
		ok := false
		switch s {
		case "string":
			_, ok = v.(string)
		case "bool":
			_, ok = v.(bool)
		case "number":
			_, ok = v.(json.Number)
		case "integer":
			n, isNum := v.(json.Number)
			_, err := n.Int64()
			ok = isNum && err == nil
		}
		if !ok {
			return []string{fmt.Sprintf("%s: %T %v, want %s", path, v, v, s)}
		}
		return nil
	case obj:
		m, ok := v.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: %T, want an object", path, v)}
		}
		var out []string
		keys := make([]string, 0, len(s))
		for k := range s {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			x, ok := m[k]
			if !ok {
				out = append(out, fmt.Sprintf("%s.%s: missing", path, k))
				continue
			}
			out = append(out, shapeProblems(path+"."+k, x, s[k])...)
		}
		for k := range m {
			if _, ok := s[k]; !ok {
				out = append(out, fmt.Sprintf("%s.%s: unexpected key", path, k))
			}
		}
		return out
	case list:
		l, ok := v.([]any)
		if !ok {
			return []string{fmt.Sprintf("%s: %T, want a list", path, v)}
		}
		var out []string
		for i, x := range l {
			out = append(out, shapeProblems(fmt.Sprintf("%s[%d]", path, i), x, s.elem)...)
		}
		return out
	}
	return []string{fmt.Sprintf("%s: bad shape %T", path, shape)}
}

// kv returns the value of key in kvs, failing when it is absent.
func kv(t *testing.T, kvs []KV, key string) string {
	t.Helper()
	for _, x := range kvs {
		if x.Key == key {
			return string(x.Value)
		}
	}
	t.Fatalf("no %s in %v", key, kvs)
	return ""
}

func keys(kvs []KV) []string {
	out := make([]string, len(kvs))
	for i, x := range kvs {
		out[i] = x.Key
	}
	return out
}

// decodeFrame decodes a frame's JPEG.
func decodeFrame(t *testing.T, f Frame) image.Image {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(f.DataBase64)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != f.BytesLength {
		t.Fatalf("bytesLength %d, decoded %d bytes", f.BytesLength, len(b))
	}
	img, err := jpeg.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() != f.Width || img.Bounds().Dy() != f.Height {
		t.Fatalf("frame says %dx%d, JPEG is %v", f.Width, f.Height, img.Bounds())
	}
	return img
}

// changedPixels counts pixels whose channels differ by more than tol between two images.
func changedPixels(a, b image.Image, tol int) int {
	n := 0
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, _ := a.At(x, y).RGBA()
			r2, g2, b2, _ := b.At(x, y).RGBA()
			d := max(absDiff(r1, r2), absDiff(g1, g2), absDiff(b1, b2)) >> 8
			if int(d) > tol {
				n++
			}
		}
	}
	return n
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

// unityYaw reads rusim's yaw from a quaternion as its clients do, in degrees.
func unityYaw(q Quat) float64 {
	x, y, z, w := float64(q.X), float64(q.Y), float64(q.Z), float64(q.W)
	return math.Atan2(2*(w*y+x*z), 1-2*(y*y+z*z)) * 180 / math.Pi
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }
