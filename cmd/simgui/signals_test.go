package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
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
}
