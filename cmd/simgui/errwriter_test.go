package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Text printed to a stdout that cannot take it (a full disk, here /dev/full) fails the command
// as JSON did: `simgui run ... > summary.txt`, version and plugin list exited 0 with nothing
// written. Help and completion text (printed by cobra, which drops its write errors) too.
func TestTextToAFullDiskFails(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full:", err)
	}
	defer full.Close()
	home := t.TempDir()
	for _, args := range [][]string{
		{"run", "--headless", "--steps", "10", "--no-api", "--no-bridge", "--no-control"},
		{"run", "--headless", "--steps", "10", "--no-api", "--no-bridge", "--no-control", "--json"},
		{"version"},
		{"plugin", "list"},
		{"plugin", "validate", "vehicle.ks0223.v1"},
		{"run", "--help"},
		{"--help"},
		{"completion", "bash"},
	} {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "RUSIM_HOME="+home)
		var errb strings.Builder
		cmd.Stdout, cmd.Stderr = full, &errb
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(errb.String(), "no space left on device") {
			t.Errorf("simgui %s > /dev/full: %v, stderr %q", strings.Join(args, " "), err, errb.String())
		}
	}
}
