package control

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// python is Debian's interpreter, which sees python3-websockets (the pyenv one on PATH does not).
const python = "/usr/bin/python3"

// TestPythonClient drives the service with a real outside client: Python's websockets library
// asks device_list and port_list as cloisim_ros does and steps the world in lockstep.
func TestPythonClient(t *testing.T) {
	if out, err := exec.Command(python, "-c", "import websockets").CombinedOutput(); err != nil {
		t.Fatalf("%s cannot import websockets (%v: %s); build/setup.sh installs python3-websockets", python, err, strings.TrimSpace(string(out)))
	}
	e := start(t, Options{})
	cmd := exec.Command(python, "testdata/lockstep_client.py", e.addr, "25", "4")
	out, err := cmd.Output()
	if err != nil {
		stderr := ""
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("python client: %v\n%s", err, stderr)
	}
	var got struct {
		SimVersion string            `json:"sim_version"`
		DeviceList any               `json:"device_list"`
		PortList   map[string]uint16 `json:"port_list"`
		Steps      []stepResult      `json:"steps"`
		Bad        string            `json:"bad"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("client output %s: %v", out, err)
	}
	if got.SimVersion != DefaultSimVersion {
		t.Fatalf("sim_version %q", got.SimVersion)
	}
	if d, _ := json.Marshal(got.DeviceList); string(d) != mustJSON(t, e.bridge.GetDeviceMapList("")) {
		t.Fatalf("python saw device_list %s", d)
	}
	if mustJSON(t, got.PortList) != mustJSON(t, e.bridge.GetDevicePortList("")) || len(got.PortList) != 5 {
		t.Fatalf("python saw port_list %v", got.PortList)
	}
	if len(got.Steps) != 4 {
		t.Fatalf("python stepped %d times", len(got.Steps))
	}
	for i, s := range got.Steps {
		want := uint64(25 * (i + 1))
		if s.Steps != 25 || s.Iterations != want || abs(s.SimTime-float64(want)*0.005) > 1e-9 {
			t.Errorf("step %d answered %+v, want iterations %d", i, s, want)
		}
	}
	if s := e.loop.Snapshot(); s.Step != 100 {
		t.Fatalf("world at step %d after the client's 4 × 25", s.Step)
	}
	if !strings.HasPrefix(got.Bad, "invalid json: ") {
		t.Fatalf("malformed request answered %q", got.Bad)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
