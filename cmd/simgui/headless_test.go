package main

import (
	"debug/elf"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// TestHeadlessBuild builds simgui as `make build-headless` does and runs what a server or a
// container uses: the binary is static, its commands and faces work, its JPEG encoder is Go's
// (said by version), and the window commands say in one line that there is no window.
func TestHeadlessBuild(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "simgui-headless")
	build := exec.Command("go", "build", "-tags", "headless", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	libs, _ := f.ImportedLibraries()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Errorf("the headless binary has a %v program header (libraries %v): not static", p.Type, libs)
		}
	}
	f.Close()

	home := t.TempDir()
	run := func(args ...string) (string, string, int) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "RUSIM_HOME="+home, "DISPLAY=:0")
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			return out.String(), errb.String(), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), errb.String(), 0
	}

	out, errOut, code := run("version", "--json")
	var v versionInfo
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil || !strings.HasPrefix(v.Build, "headless") || v.JPEGEncoder != "image/jpeg" {
		t.Errorf("version: exit %d %q %s", code, out, errOut)
	}
	if out, _, _ := run("version"); !strings.Contains(out, "jpeg encoder: image/jpeg (a static build cannot load libturbojpeg)") {
		t.Errorf("version does not say why the encoder is Go's:\n%s", out)
	}

	out, errOut, code = run("run", "--headless", "--steps", "400", "--seed", "7", "--cmd", "throttle=0.5", "--json", "--no-bridge", "--no-control", "--no-api")
	var s runSummary
	if code != 0 || json.Unmarshal([]byte(out), &s) != nil || s.Steps != 400 || len(s.Models) == 0 || s.StateHash == "" {
		t.Errorf("run --headless: exit %d %q %s", code, out, errOut)
	}
	// The same scenario and seed give the same state as the window build's headless run.
	if want := runJSON(t, "--steps", "400", "--seed", "7", "--cmd", "throttle=0.5", "--no-bridge", "--no-control", "--no-api"); s.StateHash != want.StateHash {
		t.Errorf("state hash %s, the window build's %s", s.StateHash, want.StateHash)
	}

	// A scenario written for the window build, with window settings, runs here too, even one
	// that turns the window on: --headless wins, as in the window build.
	scen := filepath.Join(t.TempDir(), "windowed.yaml")
	body := "scenarioId: windowed\nworld:\n  trackId: track.maze.v1\nvehicle:\n  vehicleId: vehicle.ks0223.v1\nfaces:\n  window: {enabled: true, width: 900, height: 600}\n"
	if err := os.WriteFile(scen, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := run("run", "--headless", "--scenario", scen, "--steps", "10", "--json", "--no-bridge", "--no-control", "--no-api"); code != 0 || !strings.Contains(out, `"windowed"`) {
		t.Errorf("a scenario with window settings, headless: exit %d %q %s", code, out, errOut)
	}
	if want := runJSON(t, "--scenario", scen, "--steps", "10", "--no-bridge", "--no-control", "--no-api"); want.Steps != 10 {
		t.Errorf("the window build's headless run of a scenario turning the window on: %+v", want)
	}

	// The faces: the training API, /control and the fast path answer from the static binary.
	port := func() string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	}
	apiPort, controlPort := port(), port()
	sock := filepath.Join(shortDir(t), "fast.sock")
	serve := exec.Command(bin, "run", "--headless", "--time-scale", "1", "--no-bridge", "--api-port", apiPort, "--control-port", controlPort,
		"--fast-path", sock)
	serve.Env = append(os.Environ(), "RUSIM_HOME="+home)
	var serveErr strings.Builder
	serve.Stderr = &serveErr
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	var health *http.Response
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if health, err = http.Get("http://127.0.0.1:" + apiPort + "/health"); err == nil || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		t.Errorf("no training API from the headless binary: %v; stderr %s", err, serveErr.String())
	} else {
		health.Body.Close()
		if health.StatusCode != http.StatusOK {
			t.Errorf("/health: %d", health.StatusCode)
		}
		c, _, err := websocket.DefaultDialer.Dial("ws://127.0.0.1:"+controlPort+"/control", nil)
		if err != nil {
			t.Errorf("/control: %v", err)
		} else {
			var answer map[string]any
			if err := c.WriteMessage(websocket.TextMessage, []byte(`{"command":"device_list","filter":""}`)); err != nil || c.ReadJSON(&answer) != nil || len(answer) == 0 {
				t.Errorf("/control device_list: %v %v", err, answer)
			}
			c.Close()
		}
		if err := openFastPath(sock); err != nil {
			t.Errorf("fast path from the headless binary: %v", err)
		}
	}
	serve.Process.Signal(syscall.SIGINT)
	if err := serve.Wait(); err != nil {
		t.Errorf("headless serve after Ctrl-C: %v; stderr %s", err, serveErr.String())
	}

	if out, errOut, code := run("plugin", "list", "--json"); code != 0 || !strings.Contains(out, `"vehicle.ks0223.v1"`) {
		t.Errorf("plugin list: exit %d %q %s", code, out, errOut)
	}

	out, errOut, code = run("bench", "--time", "1ns", "--filter", `^(jpeg/|transport/publish/1sub$)`)
	if code != 0 || !strings.Contains(out, "jpeg/turbo/84x84") || !strings.Contains(out, "skipped: libturbojpeg cannot be loaded by this build") {
		t.Errorf("bench: exit %d\n%s\n%s", code, out, errOut)
	}
	if list, _, _ := run("bench", "--list"); strings.Contains(list, "editor/") || !strings.Contains(list, "bridge/8-cameras-30hz") {
		t.Errorf("bench --list: the editor's cases need the window build, the rest are here:\n%s", list)
	}

	for _, args := range [][]string{nil, {"run"}, {"--scenario", "x.yaml"}, {"edit"}, {"edit", "--track", "some.plugin"}} {
		_, errOut, code := run(args...)
		if code != 1 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "headless build") ||
			!(strings.Contains(errOut, bin+" run --headless "+strings.Join(append(slices.DeleteFunc(slices.Clone(args), func(a string) bool { return a == "run" }), "--duration 10"), " ")) ||
				strings.Contains(errOut, "simgui plugin new")) {
			t.Errorf("simgui %v: exit %d, stderr %q", args, code, errOut)
		}
	}
}

// shortDir is a temporary folder whose socket paths fit sun_path (t.TempDir's may not).
func shortDir(t *testing.T) string {
	d, err := os.MkdirTemp("", "sg")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

// openFastPath opens a one-env fast path session on sock, as the Python client does (the
// protocol is app/fastpath's doc), and checks the reply carries the shared memory's
// descriptor.
func openFastPath(sock string) error {
	c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: sock, Net: "unix"})
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	body := []byte(`{"protocol":1,"envs":1,"frameWidth":32,"frameHeight":32}`)
	msg := append([]byte{'S', 'G', 0x01, 0}, binary.LittleEndian.AppendUint32(nil, uint32(len(body)))...)
	if _, err := c.Write(append(msg, body...)); err != nil {
		return err
	}
	head, oob := make([]byte, 8), make([]byte, syscall.CmsgSpace(4))
	n, oobn, _, _, err := c.ReadMsgUnix(head, oob)
	if err != nil {
		return err
	}
	if _, err := io.ReadFull(c, head[n:]); err != nil {
		return err
	}
	reply := make([]byte, binary.LittleEndian.Uint32(head[4:]))
	if _, err := io.ReadFull(c, reply); err != nil {
		return err
	}
	if head[2] != 0x81 {
		return fmt.Errorf("reply type 0x%02x: %s", head[2], reply)
	}
	msgs, err := syscall.ParseSocketControlMessage(oob[:oobn])
	if err != nil || len(msgs) != 1 {
		return fmt.Errorf("no shared memory descriptor with the reply (%v)", err)
	}
	fds, err := syscall.ParseUnixRights(&msgs[0])
	if err != nil || len(fds) != 1 {
		return fmt.Errorf("no shared memory descriptor with the reply (%v)", err)
	}
	defer syscall.Close(fds[0])
	var open struct {
		Envs   int `json:"envs"`
		Memory struct {
			Size int `json:"size"`
		} `json:"memory"`
	}
	var st syscall.Stat_t
	if err := json.Unmarshal(reply, &open); err != nil || syscall.Fstat(fds[0], &st) != nil {
		return fmt.Errorf("open reply %s: %v", reply, err)
	}
	if open.Envs != 1 || open.Memory.Size < 32*32*3 || st.Size != int64(open.Memory.Size) {
		return fmt.Errorf("open reply %s with %d bytes of shared memory", reply, st.Size)
	}
	return nil
}
