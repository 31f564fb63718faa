package main

import (
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"simgui/app/window/xtest"
)

// errorLine runs simgui and returns its one stderr line, failing unless it exits 1 with
// exactly one line "error: ...".
func errorLine(t *testing.T, env []string, args ...string) string {
	t.Helper()
	out, errOut, code := simgui(t, env, args...)
	lines := strings.Split(strings.TrimRight(errOut, "\n"), "\n")
	if code != 1 || len(lines) != 1 || !strings.HasPrefix(lines[0], "error: ") {
		t.Fatalf("simgui %s: exit %d, stdout %q, stderr %q; want one line error: ...", strings.Join(args, " "), code, out, errOut)
	}
	return lines[0]
}

// A value a flag cannot parse is named by the flag and the kind of value it takes, whatever
// the command, never with strconv's words.
func TestFlagValueErrorsAreInUserTerms(t *testing.T) {
	for _, tc := range []struct{ args, want string }{
		{"run --headless --steps -5", `error: --steps: "-5" is not a whole number ≥ 0`},
		{"run --headless --seed abc", `error: --seed: "abc" is not a whole number`},
		{"run --headless --seed 99999999999999999999", `error: --seed: "99999999999999999999" is outside the range -9223372036854775808..9223372036854775807`},
		{"run --headless --duration soon", `error: --duration: "soon" is not a number`},
		{"run --headless --time-scale fast", `error: --time-scale: "fast" is not a number`},
		{"run --headless --api-port http", `error: --api-port: "http" is not a whole number`},
		{"run --headless=maybe", `error: --headless: "maybe" is not true or false`},
		{"--control-port x", `error: --control-port: "x" is not a whole number`},
		{"bench --time forever", `error: --time: "forever" is not a duration such as 500ms, 90s or 2m`},
	} {
		if got := errorLine(t, nil, strings.Fields(tc.args)...); got != tc.want {
			t.Errorf("simgui %s:\n got %s\nwant %s", tc.args, got, tc.want)
		}
	}
}

// --steps and --duration: each value is checked before the two are weighed against each
// other, and 0 (as --help says) runs until interrupted.
func TestStepsAndDuration(t *testing.T) {
	for _, tc := range []struct{ args, want string }{
		{"--duration -1 --steps 100", "error: --duration -1 is not a number of seconds from 0 to 1e+09"},
		{"--steps 100 --duration NaN", "error: --duration NaN is not a number of seconds from 0 to 1e+09"},
		{"--duration 0 --steps 100", "error: give --steps or --duration, not both"},
		{"--steps 1 --duration 1", "error: give --steps or --duration, not both"},
	} {
		if got := errorLine(t, nil, append([]string{"run", "--headless"}, strings.Fields(tc.args)...)...); got != tc.want {
			t.Errorf("run --headless %s:\n got %s\nwant %s", tc.args, got, tc.want)
		}
	}
	help, _, _ := simgui(t, nil, "run", "--help")
	for _, flag := range []string{"--steps", "--duration"} {
		if !strings.Contains(help, "0 = run until interrupted") || !strings.Contains(help, flag) {
			t.Errorf("run --help does not say what %s 0 does:\n%s", flag, help)
		}
	}
	for _, zero := range []string{"--steps=0", "--duration=0"} {
		port := freePort(t)
		cmd := exec.Command(bin, "run", "--headless", zero, "--json", "--no-api", "--control-port", port, "--no-bridge")
		var out xtest.LockedBuffer
		cmd.Stdout, cmd.Stderr = &out, io.Discard
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		// The control socket answers once the run handles Ctrl-C: a SIGINT sent a fixed time
		// after the start, on a loaded machine, came before that and killed it.
		if err := untilNoError(func() error { return stepOnce(port) }); err != nil {
			t.Fatalf("%s: control socket: %v", zero, err)
		}
		select {
		case err := <-done:
			t.Fatalf("%s ended by itself (%v), stdout %q", zero, err, out.String())
		case <-time.After(time.Second):
		}
		cmd.Process.Signal(os.Interrupt)
		if err := <-done; err != nil || !strings.Contains(out.String(), `"steps"`) {
			t.Errorf("%s, interrupted: %v, stdout %q", zero, err, out.String())
		}
	}
}

// A port another process holds is named with the flags that get round it, one clause, for
// each face that listens.
func TestPortInUseNamesTheFlags(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.Addr().String()
	_, port, _ := net.SplitHostPort(addr)
	run := []string{"run", "--headless", "--steps", "10", "--no-bridge"}
	if got, want := errorLine(t, nil, append(run, "--no-control", "--api-port", port)...),
		"error: training API: "+addr+" is already in use (another simgui?); choose another with --api-port or turn it off with --no-api"; got != want {
		t.Errorf("api port in use:\n got %s\nwant %s", got, want)
	}
	if got, want := errorLine(t, nil, append(run, "--no-api", "--control-port", port)...),
		"error: control service: "+addr+" is already in use (another simgui?); choose another with --control-port or turn it off with --no-control"; got != want {
		t.Errorf("control port in use:\n got %s\nwant %s", got, want)
	}
	// A port asked for by its environment variable is not given up either.
	if got, want := errorLine(t, []string{"UAVSIM_API_PORT=" + port}, append(run, "--no-control")...),
		"error: training API: "+addr+" is already in use (another simgui?); choose another with --api-port or turn it off with --no-api"; got != want {
		t.Errorf("UAVSIM_API_PORT in use:\n got %s\nwant %s", got, want)
	}
	if got, want := errorLine(t, []string{"CLOISIM_SERVICE_PORT=" + port}, append(run, "--no-api")...),
		"error: control service: "+addr+" is already in use (another simgui?); choose another with --control-port or turn it off with --no-control"; got != want {
		t.Errorf("CLOISIM_SERVICE_PORT in use:\n got %s\nwant %s", got, want)
	}
	if got, want := errorLine(t, nil, "run", "--headless", "--steps", "10", "--no-api", "--no-control", "--bridge-ip", "192.0.2.1"),
		"error: device bridge: 192.0.2.1 is not an address of this machine; bind another address with --bridge-ip or turn it off with --no-bridge"; got != want {
		t.Errorf("bridge ip:\n got %s\nwant %s", got, want)
	}
	// A range too small for the devices is named as such, not as ports others hold.
	one := freePort(t)
	if got, want := errorLine(t, nil, "run", "--headless", "--steps", "10", "--no-api", "--no-control", "--bridge-ports", one+"-"+one),
		"error: device bridge: too few ports in "+one+"-"+one+" on 127.0.0.1 for the devices; widen the range with --bridge-ports or turn it off with --no-bridge"; got != want {
		t.Errorf("one-port bridge range:\n got %s\nwant %s", got, want)
	}
	if got, want := errorLine(t, nil, append(run, "--no-api", "--control-ip", "192.0.2.1")...),
		"error: control service: 192.0.2.1:8080 is not an address of this machine; bind another address with --control-ip (it follows --bridge-ip) or turn it off with --no-control"; got != want {
		t.Errorf("control ip:\n got %s\nwant %s", got, want)
	}
	if got, want := errorLine(t, nil, append(run, "--no-api", "--control-ip", "localhost")...),
		`error: --control-ip "localhost" is not an IP address (127.0.0.1: this machine only, 0.0.0.0: every interface)`; got != want {
		t.Errorf("control ip not an address:\n got %s\nwant %s", got, want)
	}

	// The fast path's socket, held by another process.
	sock := filepath.Join(t.TempDir(), "fp.sock")
	uln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer uln.Close()
	go func() {
		for {
			c, err := uln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	if got, want := errorLine(t, nil, append(run, "--no-api", "--no-control", "--fast-path", sock)...),
		"error: training fast path: "+sock+" is already in use (another simgui?); choose another with --fast-path or leave --fast-path out"; got != want {
		t.Errorf("fast path socket in use:\n got %s\nwant %s", got, want)
	}
}

// A second simgui on the first one's training API port is told so.
func TestSecondSimguiOnTheSamePort(t *testing.T) {
	port := freePort(t)
	first := exec.Command(bin, "run", "--headless", "--no-control", "--no-bridge", "--api-port", port)
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { first.Process.Signal(os.Interrupt); first.Wait() }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.Dial("tcp", "127.0.0.1:"+port)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the first simgui did not listen")
		}
		time.Sleep(50 * time.Millisecond)
	}
	got := errorLine(t, nil, "run", "--headless", "--steps", "10", "--no-control", "--no-bridge", "--api-port", port)
	if want := "error: training API: 127.0.0.1:" + port + " is already in use (another simgui?); choose another with --api-port or turn it off with --no-api"; got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

// validate names what it was given: a path that is neither a file, a folder nor a plugin id;
// and a plugin with problems by the path as typed, then its id when it has one.
func TestValidateNamesTheArgument(t *testing.T) {
	home, work := filepath.Join(t.TempDir(), "rusim"), t.TempDir()
	env := []string{"RUSIM_HOME=" + home}
	if got, want := errorLine(t, env, "plugin", "validate", "nonexistent"), "error: no such file or folder, and not a plugin id: nonexistent"; got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	if got, want := errorLine(t, env, "plugin", "validate", "vehicle.acme.nope.v1"), "error: no such file or folder, and no plugin vehicle.acme.nope.v1 is built in or installed"; got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	if out, _ := pluginCLI(t, home, "plugin", "validate", "vehicle.ks0223.v1"); !strings.HasPrefix(out, "vehicle.ks0223.v1: valid vehicle") {
		t.Errorf("validate a built-in by id: %q", out)
	}

	const id = "vehicle.acme.rover.v1"
	pluginCLI(t, home, "plugin", "new", "--type", "vehicle", id, "--output-dir", work)
	badMass, badJSON := filepath.Join(work, "broken"), filepath.Join(work, "broken-json")
	for _, dir := range []string{badMass, badJSON} {
		if err := os.CopyFS(dir, os.DirFS(filepath.Join(work, id))); err != nil {
			t.Fatal(err)
		}
	}
	editJSON(t, filepath.Join(badMass, "descriptor.json"), func(m map[string]any) {
		m["body"].(map[string]any)["mass"] = -5
	})
	if err := os.WriteFile(filepath.Join(badJSON, "descriptor.json"), []byte("{bad json"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ arg, want string }{
		{badMass, "error: " + badMass + " (" + id + "): 1 problem"},
		{badJSON, "error: " + badJSON + ": 1 problem"},
	} {
		if got := errorLine(t, env, "plugin", "validate", tc.arg); got != tc.want {
			t.Errorf("got %s\nwant %s", got, tc.want)
		}
	}
}

// `completion` with a shell it does not know fails in one line and writes nothing to stdout;
// it printed its help there and exited 0, so `simgui completion tcsh > file` made a
// "completion script" of help text.
func TestCompletionOfAnUnknownShellFails(t *testing.T) {
	out, errOut, code := simgui(t, nil, "completion", "tcsh")
	if code != 1 || out != "" || !strings.Contains(errOut, `unknown command "tcsh" for "simgui completion"`) {
		t.Errorf("completion tcsh: exit %d, stdout %.80q, stderr %q", code, out, errOut)
	}
	if out, _, code := simgui(t, nil, "completion", "bash"); code != 0 || !strings.Contains(out, "bash completion") {
		t.Errorf("completion bash: exit %d, stdout %.80q", code, out)
	}
	if out, _, code := simgui(t, nil, "completion"); code != 0 || !strings.Contains(out, "Usage:") {
		t.Errorf("completion: exit %d, stdout %.80q", code, out)
	}
}

// --screenshot-dir is checked when the window would open, as --record-dir is, not at the first
// F12; a headless run, which takes no screenshots, refuses it as the window refuses the
// headless flags.
func TestScreenshotDirIsChecked(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	noDisplay := []string{"DISPLAY=", "WAYLAND_DISPLAY="} // the check comes before the display's
	if got, want := errorLine(t, noDisplay, "--screenshot-dir", file),
		"error: --screenshot-dir "+file+": mkdir "+file+": not a directory"; got != want {
		t.Errorf("a file as the folder:\n got %s\nwant %s", got, want)
	}
	if got, want := errorLine(t, nil, "run", "--headless", "--steps", "1", "--no-api", "--no-control", "--no-bridge", "--screenshot-dir", dir),
		"error: --screenshot-dir works in the window (without --headless); a headless run takes no screenshots"; got != want {
		t.Errorf("headless:\n got %s\nwant %s", got, want)
	}
	// The headless command the missing display suggests leaves the flag out.
	made := filepath.Join(dir, "shots", "new")
	for _, args := range [][]string{{"--screenshot-dir", made}, {"--screenshot-dir=" + made}} {
		_, errOut, _ := simgui(t, noDisplay, append(args, "--no-api", "--no-control", "--no-bridge")...)
		if want := "run headless instead: " + bin + " run --headless --no-api --no-control --no-bridge --duration 10\n"; !strings.HasSuffix(errOut, want) {
			t.Errorf("%v without a display: %q; want it to end %q", args, errOut, want)
		}
	}
	if fi, err := os.Stat(made); err != nil || !fi.IsDir() {
		t.Errorf("the new folder was not made: %v", err)
	}
}

// A token no client can send is refused at start, named by where it came from: the run
// served its faces with every client locked out.
func TestUnsendableTokenIsRefused(t *testing.T) {
	run := []string{"run", "--headless", "--steps", "1", "--no-bridge", "--api-port", "0", "--control-port", "0"}
	if got, want := errorLine(t, nil, append(run, "--token", "a\nb")...),
		"error: --token: the token holds a control character or is not UTF-8; clients cannot send it in a header"; got != want {
		t.Errorf("--token:\n got %s\nwant %s", got, want)
	}
	if got, want := errorLine(t, []string{"SIMGUI_TOKEN=s3cret "}, run...),
		"error: $SIMGUI_TOKEN: the token starts or ends with a space; clients cannot send it in a header"; got != want {
		t.Errorf("$SIMGUI_TOKEN:\n got %s\nwant %s", got, want)
	}
}
