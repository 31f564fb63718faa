package window

import (
	"bufio"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fastPathClient is a training client on the fast path: it opens a vector env of three envs,
// drives env 1 ahead while the others stand, says "driven" and holds the session until its
// stdin closes.
const fastPathClient = `
import sys, numpy as np, simgui
envs = simgui.make_vec("simgui/KS0223Corridor-v0", num_envs=3, simgui=sys.argv[1], randomize=False)
envs.reset(seed=1)
for _ in range(10):
    envs.step(np.array([[0, 0], [0.8, 0], [0, 0]]))
print("driven", flush=True)
sys.stdin.read()
envs.close()
`

// TestWindowWatchesFastPathEnvs: with the window open, a fast path client's envs are worlds of
// the host: the window shows env 0 while the session runs, ] shows env 1 with its robot where
// the client drove it, and when the client goes the scenario's world is on show again.
func TestWindowWatchesFastPathEnvs(t *testing.T) {
	needDisplay(t)
	const py = "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import numpy").Run(); err != nil {
		t.Skip("no /usr/bin/python3 with numpy")
	}
	sock := filepath.Join(t.TempDir(), "fp.sock")
	g := startGUI(t, buildSimgui(t), []string{"--fast-path", sock, "--no-bridge", "--no-control", "--no-api"})
	cmd := exec.Command(py, "-c", fastPathClient, sock)
	cmd.Env = append(os.Environ(), "PYTHONPATH="+filepath.Join("..", "..", "python"))
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); cmd.Wait() }()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "driven\n" {
		t.Fatalf("client: %q %v\n%s", line, err, stderr.String())
	}
	s := g.waitState("env 0 on show", 20*time.Second, func(s State) bool {
		return s.World == "train-1/env-0" && s.Worlds == 4 && s.Selected == "ego"
	})
	spawn := s.Pose
	g.shot("fastpath-env0.png")
	g.key("bracketright")
	s = g.waitState("env 1 on show, driven ahead", 10*time.Second, func(s State) bool {
		return s.World == "train-1/env-1" && s.Selected == "ego" && s.Pose[1]-spawn[1] > 0.3 && math.Abs(s.Pose[0]-spawn[0]) < 0.1
	})
	g.shot("fastpath-env1.png")
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("client: %v\n%s", err, stderr.String())
	}
	g.waitState("the scenario's world again", 20*time.Second, func(s State) bool { return s.World == "scenario" && s.Worlds == 1 })
}
