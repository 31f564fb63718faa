package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestGUIEditorIsTheWindowsSecondScreen starts the real window (under the Xvfb that `make
// test-gui` provides) and presses F2 with a real key event: the plugin editor comes up, and F2
// again goes back to the simulation, which kept running behind it.
func TestGUIEditorIsTheWindowsSecondScreen(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		t.Skip("needs a display: make test-gui runs it under xvfb-run")
	}
	if _, err := exec.LookPath("xdotool"); err != nil {
		t.Fatal("xdotool not found; build/setup.sh installs it")
	}
	dir := t.TempDir()
	stateFile := filepath.Join(dir, "state.json")
	cmd := exec.Command(bin, "--state-file", stateFile, "--no-bridge", "--no-api", "--no-control")
	cmd.Env = append(os.Environ(), "RUSIM_HOME="+filepath.Join(dir, "rusim"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()

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
	out, err := exec.Command("xdotool", "search", "--sync", "--onlyvisible", "--pid", strconv.Itoa(cmd.Process.Pid)).Output()
	if err != nil {
		t.Fatalf("finding the window: %v", err)
	}
	win := strings.Fields(string(out))[0]
	key := func(k string) {
		if err := exec.Command("xdotool", "key", "--window", win, k).Run(); err != nil {
			t.Fatal(err)
		}
	}
	key("F2")
	waitFor("the editor screen", func() bool { return read().Screen == "editor" })
	before := read().SimTime
	waitFor("sim time to advance behind the editor", func() bool { return read().SimTime > before+0.2 })
	key("F2")
	waitFor("the simulation screen again", func() bool { return read().Screen == first })
}
