package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRunServesTrainingAPI runs `simgui run --headless --api-port P` and trains over it: health,
// a reset, steps; then Ctrl-C ends the run cleanly. A busy --api-port is a one-line error.
func TestRunServesTrainingAPI(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	cmd := exec.Command(bin, "run", "--headless", "--time-scale", "1", "--no-control", "--api-port", port)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	base := "http://127.0.0.1:" + port
	deadline := time.Now().Add(10 * time.Second)
	for {
		r, err := http.Get(base + "/health")
		if err == nil {
			r.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("no API on %s: %v; stderr: %s", port, err, errb.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	post := func(path, body string) map[string]any {
		r, err := http.Post(base+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		var m map[string]any
		if err := json.NewDecoder(r.Body).Decode(&m); err != nil || r.StatusCode != 200 {
			t.Fatalf("%s: %d %v", path, r.StatusCode, err)
		}
		return m
	}
	post("/reset", `{"seed": 1}`)
	var res map[string]any
	for range 3 {
		res = post("/step", `{"throttle": 1}`)
	}
	if res["activeAgentId"] != "ego" || res["state"].(map[string]any)["speed"].(float64) <= 0 {
		t.Errorf("step reply %v", res["state"])
	}

	// The port is now taken: a second run asking for it fails in one line.
	_, stderr, code := simgui(t, nil, "run", "--headless", "--steps", "1", "--no-control", "--api-port", port)
	if code != 1 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, port) {
		t.Errorf("busy --api-port: exit %d, stderr %q", code, stderr)
	}

	cmd.Process.Signal(syscall.SIGINT)
	if err := cmd.Wait(); err != nil {
		t.Errorf("run after Ctrl-C: %v; stderr: %s", err, errb.String())
	}
}

// TestRunSaysWhereItListens runs headless with ports the system chooses: the log says where
// the training API and the control socket listen, and they answer there.
func TestRunSaysWhereItListens(t *testing.T) {
	cmd := exec.Command(bin, "run", "--headless", "--time-scale", "1", "--api-port", "0", "--control-port", "0", "--no-bridge")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGINT)
		cmd.Wait()
	}()
	// A run that never says ends the read below rather than hanging the test.
	watchdog := time.AfterFunc(2*time.Minute, func() { cmd.Process.Kill() })
	defer watchdog.Stop()
	api := regexp.MustCompile(`training API listening addr=(http://127\.0\.0\.1:\d+)`)
	ctl := regexp.MustCompile(`control socket listening addr=ws://(127\.0\.0\.1:\d+)/control`)
	var apiURL, ctlAddr string
	lines := bufio.NewScanner(stderr)
	var seen []string
	for (apiURL == "" || ctlAddr == "") && lines.Scan() {
		seen = append(seen, lines.Text())
		if m := api.FindStringSubmatch(lines.Text()); m != nil {
			apiURL = m[1]
		}
		if m := ctl.FindStringSubmatch(lines.Text()); m != nil {
			ctlAddr = m[1]
		}
	}
	go io.Copy(io.Discard, stderr)
	if apiURL == "" || ctlAddr == "" || !strings.Contains(strings.Join(seen, "\n"), "running until Ctrl-C") {
		t.Fatalf("the log did not say where it listens:\n%s", strings.Join(seen, "\n"))
	}
	r, err := http.Get(apiURL + "/health")
	if err != nil || r.StatusCode != 200 {
		t.Fatalf("%s/health: %v", apiURL, err)
	}
	r.Body.Close()
	c, err := net.Dial("tcp", ctlAddr)
	if err != nil {
		t.Fatalf("control socket at %s: %v", ctlAddr, err)
	}
	c.Close()
}
