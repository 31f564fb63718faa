package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A simgui started with SIGINT ignored keeps ignoring it, as programs started in the
// background of a script (or under nohup-like launchers) are meant to: a training script's
// background jobs ignore the Ctrl-C that ends the script, and their simgui used to stop on
// it, so that their training failed with "simgui exited" and saved nothing. SIGTERM still
// ends it.
func TestIgnoredSIGINTStaysIgnored(t *testing.T) {
	sock := filepath.Join(shortDir(t), "fast.sock")
	// sh's `trap '' INT` sets SIGINT to SIG_IGN, which exec keeps.
	cmd := exec.Command("/bin/sh", "-c", `trap '' INT; exec "$0" "$@"`, bin,
		"run", "--headless", "--no-api", "--no-bridge", "--no-control", "--fast-path", sock)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	defer func() {
		cmd.Process.Kill()
		<-done
	}()
	if err := untilNoError(func() error { return openFastPath(sock) }); err != nil {
		t.Fatalf("fast path: %v; stderr %s", err, errb.String())
	}
	cmd.Process.Signal(syscall.SIGINT)
	select {
	case err := <-done:
		done <- err
		t.Fatalf("simgui started with SIGINT ignored ended on SIGINT (%v); stderr %s", err, errb.String())
	case <-time.After(time.Second):
	}
	if err := openFastPath(sock); err != nil {
		t.Errorf("fast path after the ignored SIGINT: %v", err)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-done:
		done <- err
		if err != nil {
			t.Errorf("SIGTERM: %v; stderr %s", err, errb.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("simgui did not end on SIGTERM")
	}
	// The start line says how this run ends: it once said "running until Ctrl-C" here, and a
	// user's Ctrl-C (or kill -INT) then did nothing.
	log := errb.String()
	if !strings.Contains(log, "running until SIGTERM") || strings.Contains(log, "running until Ctrl-C") {
		t.Errorf("the start line does not say that SIGTERM alone ends this run:\n%s", log)
	}
}

// The start line of a headless run says how it ends and whether it waits for a client.
func TestStartNote(t *testing.T) {
	for _, c := range []struct {
		name                    string
		maxSteps                uint64
		lockstep, sigintIgnored bool
		want, wantNot           []string
	}{
		{"free run to --steps", 100, false, false, nil, nil},
		{"until Ctrl-C", 0, false, false, []string{"running until Ctrl-C (or SIGTERM)"}, []string{"lockstep"}},
		{"SIGINT ignored", 0, false, true, []string{"running until SIGTERM", "SIGINT ignored"}, []string{"until Ctrl-C"}},
		{"lockstep to --steps", 10, true, false, []string{"runtime.lockstep", "/control's step", "after 10 steps"}, []string{"running until"}},
		{"lockstep until Ctrl-C", 0, true, false, []string{"running until Ctrl-C", "runtime.lockstep", "stands still"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := startNote(c.maxSteps, c.lockstep, c.sigintIgnored)
			if c.want == nil && got != "" {
				t.Errorf("startNote = %q, want none", got)
			}
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("startNote = %q, want %q in it", got, w)
				}
			}
			for _, w := range c.wantNot {
				if strings.Contains(got, w) {
					t.Errorf("startNote = %q, want no %q in it", got, w)
				}
			}
		})
	}
}

// A run to --steps that a signal stops short prints its summary and exits with the shell's
// status for that signal (128+n), saying so on stderr: it exited 0, so that a CI job whose
// runner sent SIGTERM (or a script's `timeout -s INT`) took the shortened run's state hash
// and dump for a finished run's.
func TestSignalCutsABoundedRunShort(t *testing.T) {
	for _, c := range []struct {
		sig  syscall.Signal
		name string
		code int
	}{{syscall.SIGTERM, "SIGTERM", 143}, {syscall.SIGINT, "SIGINT", 130}} {
		t.Run(c.name, func(t *testing.T) {
			port := freePort(t)
			cmd := exec.Command(bin, "run", "--headless", "--steps", "1000000000000", "--json",
				"--no-api", "--no-bridge", "--control-port", port)
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			if err := untilNoError(func() error { return stepOnce(port) }); err != nil {
				t.Fatalf("control socket: %v", err)
			}
			cmd.Process.Signal(c.sig)
			err := cmd.Wait()
			code := -1
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
			var s runSummary
			if jerr := json.Unmarshal(out.Bytes(), &s); jerr != nil || s.Steps == 0 || s.Steps >= 1000000000000 {
				t.Errorf("stdout is not the shortened run's summary (%v): %q", jerr, out.String())
			}
			if code != c.code || !strings.Contains(errb.String(), c.name+" stopped the run after") {
				t.Errorf("%s: exit %d (%v), want %d; stderr %s", c.name, code, err, c.code, errb.String())
			}
		})
	}
}

// SIGHUP (the terminal or ssh session that started simgui closed) ends a run cleanly, as
// SIGTERM does: it killed simgui at once, leaving its fast-path socket behind and its
// recordings without their MCAP footer. Under nohup (SIGHUP ignored) it is still ignored.
func TestSIGHUPEndsARunCleanlyUnlessIgnored(t *testing.T) {
	for _, nohup := range []bool{false, true} {
		t.Run(map[bool]string{false: "hangup", true: "nohup"}[nohup], func(t *testing.T) {
			sock := filepath.Join(shortDir(t), "fast.sock")
			trap := ":"
			if nohup {
				trap = `trap '' HUP` // as nohup does: SIG_IGN, which exec keeps
			}
			cmd := exec.Command("/bin/sh", "-c", trap+`; exec "$0" "$@"`, bin,
				"run", "--headless", "--no-api", "--no-bridge", "--no-control", "--fast-path", sock)
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			if err := untilNoError(func() error { return openFastPath(sock) }); err != nil {
				t.Fatalf("fast path: %v; stderr %s", err, errb.String())
			}
			cmd.Process.Signal(syscall.SIGHUP)
			if nohup {
				// Ignored, the hangup leaves simgui serving; SIGTERM then ends it. Had the
				// hangup ended it, the socket would be gone or the exit a signal's.
				if err := openFastPath(sock); err != nil {
					t.Errorf("fast path after an ignored SIGHUP: %v", err)
				}
				cmd.Process.Signal(syscall.SIGTERM)
			}
			if err := cmd.Wait(); err != nil || !strings.Contains(out.String(), "default scenario:") {
				t.Errorf("exit %v, stdout %q, stderr %s", err, out.String(), errb.String())
			}
			if _, err := os.Lstat(sock); err == nil {
				t.Errorf("the fast-path socket %s is left behind", sock)
			}
		})
	}
}

// A second stop signal while a run is ending exits at once with the signal's status, saying
// so: the ending here never finishes (the child holds it up), as one held up by a stuck
// client would. The child is this test binary, which signals itself.
func TestSecondSignalExitsAtOnce(t *testing.T) {
	if os.Getenv("SIMGUI_SECOND_SIGNAL_CHILD") == "1" {
		ctx, stop := notifyStop(context.Background())
		defer stop()
		syscall.Kill(os.Getpid(), syscall.SIGINT)
		<-ctx.Done() // the run starts ending, and does not finish
		time.Sleep(repeatWindow + 200*time.Millisecond)
		syscall.Kill(os.Getpid(), syscall.SIGINT)
		time.Sleep(time.Minute)
		os.Exit(3)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSecondSignalExitsAtOnce$")
	cmd.Env = append(os.Environ(), "SIMGUI_SECOND_SIGNAL_CHILD=1")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err := cmd.Run()
	code := -1
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	if code != 130 || !strings.Contains(errb.String(), "SIGINT again: exiting at once") {
		t.Errorf("exit %d (%v), want 130; stderr %s", code, err, errb.String())
	}
}

// One stop delivered twice at once — timeout(1) signals its command and then its own process
// group, which holds the command — is one stop, not a second: the run ends cleanly. simgui
// took the copy for a second signal (intermittently, whenever it read the first before the
// copy came) and exited at once with no summary on stdout and its recording without a footer.
// The child is this test binary: it signals itself twice as timeout does, the copy landing
// after the first was read, and exits 0 if the ending runs on.
func TestSignalDeliveredTwiceAtOnceIsOneStop(t *testing.T) {
	if os.Getenv("SIMGUI_TWICE_SIGNAL_CHILD") == "1" {
		ctx, stop := notifyStop(context.Background())
		syscall.Kill(os.Getpid(), syscall.SIGTERM)
		<-ctx.Done() // the first is read: the run starts ending
		syscall.Kill(os.Getpid(), syscall.SIGTERM)
		time.Sleep(repeatWindow / 2) // the ending takes a while
		stop()
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSignalDeliveredTwiceAtOnceIsOneStop$")
	cmd.Env = append(os.Environ(), "SIMGUI_TWICE_SIGNAL_CHILD=1")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil || strings.Contains(errb.String(), "again") {
		t.Errorf("a signal delivered twice at once: %v; stderr %s", err, errb.String())
	}
}
