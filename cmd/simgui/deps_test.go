package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// testingImporters lists the packages importing "testing" outside their _test.go files, from
// go list with args.
func testingImporters(t *testing.T, args ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list", "-f", `{{.ImportPath}} {{join .Imports " "}}`}, args...)...).Output()
	if err != nil {
		t.Fatalf("go list %v: %v", args, err)
	}
	var pkgs []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) > 1 && slices.Contains(f[1:], "testing") {
			pkgs = append(pkgs, f[0])
		}
	}
	return pkgs
}

// TestNoProductionPackageImportsTesting: test code does not ship. No simgui package imports
// testing outside its tests (test helpers and benchmark packages included), and neither build
// of the binary links it (third_party/mcap is Foxglove's MCAP library without the test helpers
// upstream keeps in a non-test file).
func TestNoProductionPackageImportsTesting(t *testing.T) {
	if pkgs := testingImporters(t, "simgui/..."); len(pkgs) > 0 {
		t.Errorf("simgui packages importing testing: %v", pkgs)
	}
	for _, tags := range []string{"", "headless"} {
		if pkgs := testingImporters(t, "-deps", "-tags="+tags, "simgui/cmd/simgui"); len(pkgs) > 0 {
			t.Errorf("simgui (tags %q) links testing through %v", tags, pkgs)
		}
	}
}
