package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"simgui/app/window/xtest"
	"testing"
	"time"
)

// TestGUIEditorIsTheWindowsSecondScreen starts the real window (under the Xvfb that `make
// test-gui` provides) and presses F2 with a real key event: the plugin editor comes up, and F2
// again goes back to the simulation, which kept running behind it.
func TestGUIEditorIsTheWindowsSecondScreen(t *testing.T) {
	xtest.NeedDisplay(t)
	dir := t.TempDir()
	stateFile := filepath.Join(dir, "state.json")
	cmd := exec.Command(bin, "--state-file", stateFile, "--no-bridge", "--no-api", "--no-control")
	cmd.Env = append(os.Environ(), "RUSIM_HOME="+filepath.Join(dir, "rusim"))
	win := xtest.Start(t, "simgui", cmd, 20*time.Second)

	read := func() (st struct {
		Screen  string  `json:"screen"`
		SimTime float64 `json:"simTime"`
	}) {
		data, err := os.ReadFile(stateFile)
		if err == nil {
			json.Unmarshal(data, &st)
		}
		return st
	}
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if ok() {
				return
			}
		}
		t.Fatalf("timed out waiting for %s (state %+v)", what, read())
	}
	waitFor("the first state", func() bool { return read().Screen != "" })
	first := read().Screen
	key := func(k string) { win.Xdo("key", "--window", win.Win, k) }
	key("F2")
	waitFor("the editor screen", func() bool { return read().Screen == "editor" })
	before := read().SimTime
	waitFor("sim time to advance behind the editor", func() bool { return read().SimTime > before+0.2 })
	key("F2")
	waitFor("the simulation screen again", func() bool { return read().Screen == first })
}
