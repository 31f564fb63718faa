package api

import (
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"simgui/app/scenario"
)

// TestPythonExample runs examples/python/random_policy.py (Debian's python3 with requests,
// numpy and PIL) against a live service: it must report its rate and leave 84×84 PNGs.
func TestPythonExample(t *testing.T) {
	const py = "/usr/bin/python3"
	if _, err := os.Stat(py); err != nil {
		t.Skip("no /usr/bin/python3")
	}
	if err := exec.Command(py, "-c", "import requests, numpy, PIL").Run(); err != nil {
		t.Skip("python3-requests, python3-numpy or python3-pil missing")
	}
	sc, err := scenario.Load(filepath.Join("..", "..", "examples", "python", "training.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s := startServer(t, Options{Scenario: sc})
	out := t.TempDir()
	cmd := exec.Command(py, filepath.Join("..", "..", "examples", "python", "random_policy.py"),
		"--url", s.base, "--steps", "150", "--episode-steps", "60", "--save", "3", "--out", out)
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if !regexp.MustCompile(`^150 steps in [0-9.]+ s: [0-9.]+ steps/s \(3 episodes`).Match(b) {
		t.Errorf("output:\n%s", b)
	}
	files, _ := filepath.Glob(filepath.Join(out, "obs_*.png"))
	if len(files) != 3 || strings.Count(string(b), "saved ") != 3 {
		t.Fatalf("PNGs %v, output:\n%s", files, b)
	}
	for _, f := range files {
		r, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(r)
		r.Close()
		if err != nil || img.Bounds().Dx() != 84 || img.Bounds().Dy() != 84 {
			t.Errorf("%s: %v %v", f, err, img.Bounds())
		}
	}
	ep := s.svc.Current()
	if ep == nil || ep.Seed != 2 {
		t.Fatalf("after 150 steps of 60-step episodes the seed should be 2: %+v", ep)
	}
	// The scenario's randomization applies: the vehicle is not the catalog's.
	w := s.svc.opts.Host.World(ep.Agents[0].World)
	if w == nil {
		t.Fatalf("the episode's world %q is not in the host", ep.Agents[0].World)
	}
	if m := w.Plan.Agents[0].Vehicle.Body.Mass; m == 1 || m < 0.8 || m > 1.2 {
		t.Errorf("randomized mass %g", m)
	}
}
