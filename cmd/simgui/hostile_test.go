package main

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"simgui/app/window/xtest"
)

// freePort returns a loopback port free at the moment.
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// rssKiB reads a process's resident set size from /proc.
func rssKiB(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			n, _ := strconv.Atoi(strings.Fields(v)[0])
			return n
		}
	}
	t.Fatal("no VmRSS")
	return 0
}

// zmtp streams, as the bridge's tests build them.
func zmtpGreeting() []byte {
	g := make([]byte, 64)
	g[0], g[9], g[10] = 0xff, 0x7f, 3
	copy(g[12:], "NULL")
	return g
}

func zmtpLongHeader(flags byte, size uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{flags | 0x02}, size)
}

func zmtpCommand(body string) []byte { return append([]byte{0x04, byte(len(body))}, body...) }

// TestHostileInputsKeepTheProcessUp runs the real binary with every face on and sends each
// what took the process down, froze it or let a web page in: oversize ZMTP frame headers and
// broken handshakes to a micom Rx, an Info and a camera Data port; cross-origin, text/plain,
// rebound-Host and oversize requests and half-sent bodies to the training API; impossible
// time scales and poses and 80 idle sessions to /control. After each group the world has
// stepped on, and the resident memory stays bounded (the figure is logged).
func TestHostileInputsKeepTheProcessUp(t *testing.T) {
	ctlPort, apiPort := freePort(t), freePort(t)
	cmd := exec.Command(bin, "run", "--headless", "--time-scale", "1", "--control-port", ctlPort, "--api-port", apiPort)
	var errb xtest.LockedBuffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	}()
	ctlURL := "ws://127.0.0.1:" + ctlPort + "/control"
	var ctl *websocket.Conn
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, _, err := websocket.DefaultDialer.Dial(ctlURL, nil)
		if err == nil {
			ctl = c
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no control service: %v; stderr: %s", err, errb.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	defer ctl.Close()
	ask := func(req string) map[string]any {
		t.Helper()
		ctl.SetReadDeadline(time.Now().Add(20 * time.Second))
		if err := ctl.WriteMessage(websocket.TextMessage, []byte(req)); err != nil {
			t.Fatalf("send %s: %v; stderr: %s", req, err, errb.String())
		}
		var out map[string]any
		if err := ctl.ReadJSON(&out); err != nil {
			t.Fatalf("answer to %s: %v; stderr: %s", req, err, errb.String())
		}
		return out
	}
	simTime := func() float64 {
		t.Helper()
		res, ok := ask(`{"command":"step"}`)["result"].(map[string]any)
		if !ok {
			t.Fatal("step gave no result")
		}
		return res["sim_time"].(float64)
	}
	stepsOn := func(what string) {
		t.Helper()
		a := simTime()
		if b := simTime(); b <= a {
			t.Fatalf("after %s the world stands at %g s", what, b)
		}
		if cmd.ProcessState != nil {
			t.Fatalf("the process exited after %s", what)
		}
	}
	ports := map[string]float64{}
	for k, v := range ask(`{"command":"port_list"}`)["result"].(map[string]any) {
		ports[k] = v.(float64)
	}
	stepsOn("start")
	before := rssKiB(t, cmd.Process.Pid)

	// Device ports.
	g := zmtpGreeting()
	for _, key := range []string{"egoMicomRx", "egoMicomInfo", "egocamera_front_rgbData"} {
		port, ok := ports[key]
		if !ok {
			t.Fatalf("no %s in %v", key, ports)
		}
		for _, stream := range [][]byte{
			append(append([]byte{}, g...), zmtpLongHeader(0x04, 1<<62)...),
			append(append([]byte{}, g...), zmtpLongHeader(0x04, 1<<40)...),
			append(append([]byte{}, g...), zmtpCommand("\x05READY\x01")...),
			append(append([]byte{}, g...), zmtpCommand("\x05READY\x0bSocket-Type\x00\x00\x00\x03XXX")...),
		} {
			c, err := net.Dial("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(int(port))))
			if err != nil {
				t.Fatal(err)
			}
			c.SetDeadline(time.Now().Add(10 * time.Second))
			go c.Write(stream)
			io.Copy(io.Discard, c) // until the bridge hangs up
			c.Close()
		}
		stepsOn("hostile streams to " + key)
	}

	// Training API.
	api := "http://127.0.0.1:" + apiPort
	post := func(path, ct, body string, h map[string]string) int {
		t.Helper()
		req, _ := http.NewRequest("POST", api+path, strings.NewReader(body))
		req.Header.Set("Content-Type", ct)
		for k, v := range h {
			if k == "Host" {
				req.Host = v
			} else {
				req.Header.Set(k, v)
			}
		}
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, r.Body)
		r.Body.Close()
		return r.StatusCode
	}
	agents := `{"agents":[` + strings.Repeat(`{},`, 19999) + `{}]}`
	for _, tc := range []struct {
		name, path, ct, body string
		h                    map[string]string
		want                 int
	}{
		{"text/plain reset", "/reset", "text/plain", `{"seed":1}`, nil, 415},
		{"cross-origin step", "/reset", "application/json", `{}`, map[string]string{"Origin": "http://evil.example"}, 403},
		{"rebound host", "/reset", "application/json", `{}`, map[string]string{"Host": "evil.example:" + apiPort}, 403},
		{"20,000 agents", "/reset", "application/json", agents, nil, 400},
		{"3 MiB body", "/reset", "application/json", `{"x":"` + strings.Repeat("y", 3<<20) + `"}`, nil, 413},
		{"throttle 1e400", "/step", "application/json", `{"throttle":1e400}`, nil, 400},
	} {
		if got := post(tc.path, tc.ct, tc.body, tc.h); got != tc.want {
			t.Errorf("API %s: %d, want %d", tc.name, got, tc.want)
		}
	}
	var slow []net.Conn
	for range 300 {
		c, err := net.Dial("tcp", "127.0.0.1:"+apiPort)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(c, "POST /reset HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{\"seed\"")
		slow = append(slow, c)
	}
	r, err := http.Get(api + "/health")
	if err != nil || r.StatusCode != 200 {
		t.Fatalf("health with 300 half-sent bodies open: %v %v", err, r)
	}
	var h map[string]any
	json.NewDecoder(r.Body).Decode(&h)
	r.Body.Close()
	if b, _ := json.Marshal(h); strings.Contains(string(b), "/") {
		t.Errorf("/health shows a path: %s", b)
	}
	stepsOn("hostile API requests")
	for _, c := range slow {
		c.Close()
	}

	// Control.
	for _, req := range []string{
		`{"command":"set_time_scale","scale":1e18}`,
		`{"command":"set_time_scale","scale":"NaN"}`,
		`{"command":"teleport","targets":[{"target":"ego","pose":{"x":1e308,"y":0,"z":0,"yaw":0}}]}`,
	} {
		if res, _ := ask(req)["result"].(string); res == "ok" {
			t.Errorf("%s answered ok", req)
		}
	}
	var idle []*websocket.Conn
	for range 80 {
		c, _, err := websocket.DefaultDialer.Dial(ctlURL, nil)
		if err != nil {
			t.Fatalf("idle session: %v", err)
		}
		idle = append(idle, c)
	}
	fresh, _, err := websocket.DefaultDialer.Dial(ctlURL, nil)
	if err != nil {
		t.Fatalf("a new client after 80 idle sessions: %v", err)
	}
	fresh.Close()
	for _, c := range idle {
		c.Close()
	}
	// ctl itself may have been the idle session closed to make room: reconnect.
	ctl.Close()
	if ctl, _, err = websocket.DefaultDialer.Dial(ctlURL, nil); err != nil {
		t.Fatal(err)
	}
	stepsOn("hostile control commands")

	after := rssKiB(t, cmd.Process.Pid)
	t.Logf("resident memory %.1f MiB before the hostile inputs, %.1f MiB after (%+.1f MiB); frame headers declared up to 2^62 bytes",
		float64(before)/1024, float64(after)/1024, float64(after-before)/1024)
	if after-before > 200*1024 {
		t.Errorf("resident memory grew by %d MiB", (after-before)/1024)
	}
	for _, want := range []string{"over the limit", "a peer's connection failed"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("stderr lacks %q:\n%.2000s", want, errb.String())
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	if err := cmd.Wait(); err != nil {
		t.Errorf("exit after Ctrl-C: %v", err)
	}
}
