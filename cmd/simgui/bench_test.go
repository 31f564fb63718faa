package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"simgui/app/bench"
	"simgui/render"
)

// The cases are registered once for the process (bench has no way to remove one), so that the
// tests run again under go test -count.
var selftestCases, profileCases sync.Once

func registerSelftest() {
	bench.Register(bench.Case{Name: "selftest/base", Doc: "a baseline", F: func(b bench.B) {
		for b.Loop() {
		}
	}})
	bench.Register(bench.Case{Name: "selftest/errors", Baseline: "selftest/base", F: func(b bench.B) {
		for b.Loop() {
		}
		b.Errorf("3 of 8 frames wrong")
	}})
	bench.Register(bench.Case{Name: "selftest/panics", F: func(b bench.B) {
		for b.Loop() {
			panic("boom")
		}
	}})
	bench.Register(bench.Case{Name: "selftest/skips", F: func(b bench.B) { b.Skip("no library") }})
}

// TestBenchReportsFailuresWithoutPanicking runs the bench command in this process on cases
// that fail in each way a case can: the table says so, the messages follow it, the command
// fails (exit 1 in main), and the process is still here.
func TestBenchReportsFailuresWithoutPanicking(t *testing.T) {
	selftestCases.Do(registerSelftest)
	var out, errOut bytes.Buffer
	cmd := newBenchCmd()
	cmd.SetArgs([]string{"--filter", "^selftest/", "--time", "1ms"})
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.Execute()
	if err == nil || err.Error() != "bench: 2 of 4 cases failed: selftest/errors, selftest/panics" {
		t.Fatalf("err = %v", err)
	}
	status := map[string]string{}
	for _, line := range strings.Split(out.String(), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && strings.HasPrefix(f[0], "selftest/") {
			if _, seen := status[f[0]]; !seen {
				status[f[0]] = f[1]
			}
		}
	}
	want := map[string]string{"selftest/base": "ok", "selftest/errors": "failed", "selftest/panics": "failed", "selftest/skips": "skipped"}
	for k, v := range want {
		if status[k] != v {
			t.Errorf("%s: status %q, want %q\n%s", k, status[k], v, out.String())
		}
	}
	for _, msg := range []string{"\nrender kernels: " + render.Kernels() + "\n", "selftest/errors failed: 3 of 8 frames wrong", "selftest/panics failed: panic: boom", "selftest/skips skipped: no library"} {
		if !strings.Contains(out.String(), msg) {
			t.Errorf("output lacks %q:\n%s", msg, out.String())
		}
	}
	if !strings.Contains(errOut.String(), "bench: selftest/panics\n") {
		t.Errorf("no progress on stderr: %q", errOut.String())
	}
}

// TestBenchRunsEveryCase runs every registered case of the real binary once (a target of 1ns
// is one op each): all pass here, the table lists each with its baseline, and the JSON says
// the same.
func TestBenchRunsEveryCase(t *testing.T) {
	list, errOut, code := simgui(t, nil, "bench", "--list")
	if code != 0 {
		t.Fatalf("bench --list: exit %d: %s", code, errOut)
	}
	names := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(list), "\n") {
		name, doc, _ := strings.Cut(line, "\t")
		if doc == "" {
			t.Errorf("case %s has no doc line", name)
		}
		names[name] = true
	}
	for _, n := range []string{"bridge/8-cameras-30hz", "world/step/ks0223/1000", "sensors/camera/84x84/rgb", "editor/check/ks0223"} {
		if !names[n] {
			t.Errorf("%s is not registered", n)
		}
	}
	// --filter names the cases listed, as those run.
	some, _, code := simgui(t, nil, "bench", "--list", "--filter", "^sensors/camera/")
	lines := strings.Split(strings.TrimSpace(some), "\n")
	if code != 0 || len(lines) == 0 || len(lines) >= len(names) {
		t.Errorf("bench --list --filter: exit %d, %d of %d cases", code, len(lines), len(names))
	}
	for _, line := range lines {
		if !strings.HasPrefix(line, "sensors/camera/") {
			t.Errorf("bench --list --filter ^sensors/camera/ lists %q", line)
		}
	}
	// A filter naming nothing is an error, as for a run; --json lists the cases as JSON.
	if _, errOut, code := simgui(t, nil, "bench", "--list", "--filter", "^nothing-is-called-this$"); code != 1 || !strings.Contains(errOut, "matches no case") {
		t.Errorf("bench --list with a filter naming nothing: exit %d, %q", code, errOut)
	}
	js, _, code := simgui(t, nil, "bench", "--list", "--json", "--filter", "^sensors/camera/")
	var listed struct {
		Cases []struct{ Name, Baseline, Doc string } `json:"cases"`
	}
	if err := json.Unmarshal([]byte(js), &listed); code != 0 || err != nil || len(listed.Cases) != len(lines) || listed.Cases[0].Doc == "" {
		t.Errorf("bench --list --json: exit %d, %d cases (%v), want %d", code, len(listed.Cases), err, len(lines))
	}
	out, errOut, code := simgui(t, nil, "bench", "--time", "1ns", "--json")
	if code != 0 {
		t.Fatalf("bench: exit %d: %s\n%s", code, errOut, out)
	}
	var rep struct {
		Results []bench.Result `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != len(names) {
		t.Errorf("%d results for %d cases", len(rep.Results), len(names))
	}
	ratios := 0
	for _, r := range rep.Results {
		if r.Status == bench.StatusFailed || (r.Status == bench.StatusOK && (r.N < 1 || r.NsPerOp <= 0)) {
			t.Errorf("%s: %+v", r.Name, r)
		}
		if r.Baseline != "" && r.Ratio > 0 {
			ratios++
		}
	}
	if ratios < len(rep.Results)/2 {
		t.Errorf("only %d ratios against a baseline", ratios)
	}
}

func TestBenchRejectsBadFlags(t *testing.T) {
	for _, args := range [][]string{{"--time", "0s"}, {"--time", "11m"}, {"--case-timeout", "-1s"}, {"--filter", "("}, {"--filter", "^nothing-matches$"}} {
		_, errOut, code := simgui(t, nil, append([]string{"bench"}, args...)...)
		if code != 1 || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "error: ") {
			t.Errorf("bench %v: exit %d, stderr %q", args, code, errOut)
		}
	}
}

// --cpuprofile writes a pprof CPU profile of the run, and a profile it cannot write fails the
// command without leaving a file behind.
func TestBenchWritesACPUProfile(t *testing.T) {
	profileCases.Do(func() {
		bench.Register(bench.Case{Name: "selftest-profile/spin", Doc: "busy work to profile", F: func(b bench.B) {
			x := 1.0
			for b.Loop() {
				for i := 0; i < 1000; i++ {
					x = x*1.0000001 + 1e-9
				}
			}
			if x == 0 {
				b.Errorf("impossible")
			}
		}})
	})
	dir := t.TempDir()
	run := func(path string) error {
		cmd := newBenchCmd()
		cmd.SetArgs([]string{"--filter", "^selftest-profile/", "--time", "50ms", "--cpuprofile", path})
		cmd.SetOut(io.Discard)
		cmd.SetErr(io.Discard)
		cmd.SilenceUsage, cmd.SilenceErrors = true, true
		return cmd.Execute()
	}
	path := filepath.Join(dir, "bench.pprof")
	if err := run(path); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f) // pprof's format: a gzipped protocol buffer
	if err != nil {
		t.Fatalf("the profile is not gzipped: %v", err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte("nanoseconds")) || !bytes.Contains(data, []byte("cpu")) {
		t.Fatalf("the profile (%d bytes) names no cpu samples", len(data))
	}
	missing := filepath.Join(dir, "no-such-folder", "bench.pprof")
	if err := run(missing); err == nil || !strings.Contains(err.Error(), "--cpuprofile") {
		t.Fatalf("a profile into a missing folder: err = %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("the folder holds %d entries after the failed run, want the first profile only", len(entries))
	}
}
