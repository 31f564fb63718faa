package main

import (
	"bytes"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// --dump-sensors writes the default KS0223's camera frames as PNG and its other sensors as
// JSON lines, says so, and the same seed writes the same bytes.
func TestDumpSensors(t *testing.T) {
	a, b := t.TempDir(), filepath.Join(t.TempDir(), "new", "dir")
	s := runJSON(t, "--steps", "200", "--seed", "3", "--no-control", "--cmd", "throttle=0.5", "--dump-sensors", a)
	if s.SensorDump == nil || s.SensorDump.Dir != a {
		t.Fatalf("summary has no sensor dump: %+v", s.SensorDump)
	}
	// A dump takes every frame (the loop waits for the renders): 16 readings, none dropped.
	var cam *sensorSummary
	for i, ss := range s.Sensors {
		if ss.Sensor == "camera.front.rgb" {
			cam = &s.Sensors[i]
		}
	}
	if cam == nil || cam.Readings != 16 || cam.Dropped != 0 || cam.RateHz != 15 || cam.Topic != "/model/ego/sensor/camera.front.rgb/image" {
		t.Fatalf("summary's camera: %+v (of %+v)", cam, s.Sensors)
	}
	out, errOut, code := simgui(t, nil, "run", "--headless", "--steps", "200", "--seed", "3", "--no-control",
		"--cmd", "throttle=0.5", "--dump-sensors", b)
	if code != 0 || !strings.Contains(out, "sensor dump in "+b+": 16 PNG frames") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	frames, _ := filepath.Glob(filepath.Join(a, "ego__camera.front.rgb__step*.png"))
	if len(frames) != 16 { // 15 Hz over 1 s: k = 0 … 15
		t.Fatalf("%d camera frames, want 16", len(frames))
	}
	for _, f := range frames {
		da, _ := os.ReadFile(f)
		db, err := os.ReadFile(filepath.Join(b, filepath.Base(f)))
		if err != nil || !bytes.Equal(da, db) {
			t.Fatalf("%s differs between two runs with seed 3", filepath.Base(f))
		}
		img, err := png.Decode(bytes.NewReader(da))
		if err != nil || img.Bounds().Dx() != 640 || img.Bounds().Dy() != 480 {
			t.Fatalf("%s: %v", f, err)
		}
	}
	for _, id := range []string{"speedometer", "ultrasonic.front", "line_tracker.front", "powertrain.estimate", "odometry.wheel"} {
		data, err := os.ReadFile(filepath.Join(a, "ego__"+id+".jsonl"))
		if err != nil || bytes.Count(data, []byte("\n")) < 10 {
			t.Fatalf("%s: %v, %d lines", id, err, bytes.Count(data, []byte("\n")))
		}
	}
	if _, errOut, code := simgui(t, nil, "run", "--dump-sensors", a); code == 0 || !strings.Contains(errOut, "--headless") {
		t.Fatalf("--dump-sensors without --headless: exit %d, %q", code, errOut)
	}
}

// A dump that cannot write (a file-size limit here, as a full disk) ends the run at once with
// exit 1 and the write's error, and leaves no temporary files: a run for --duration 1e6 went
// on to its end writing nothing, and a full disk kept a .tmp file per failed frame.
func TestDumpThatCannotWriteEndsTheRun(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("/bin/sh", "-c", `ulimit -f 4; exec "$0" "$@"`, bin, "run", "--headless",
		"--duration", "1000000", "--json", "--no-api", "--no-bridge", "--no-control", "--dump-sensors", dir)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(2 * time.Minute): // the run itself would take hours
		cmd.Process.Kill()
		<-done
		t.Fatalf("the run went on after its dump failed; stderr %s", errb.String())
	}
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(errb.String(), "error: sensor dump: write") ||
		!strings.Contains(errb.String(), "file too large") {
		t.Errorf("exit %v, stderr %s", err, errb.String())
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(tmp) > 0 {
		t.Errorf("%d temporary files left behind, such as %s", len(tmp), filepath.Base(tmp[0]))
	}
}

// A dump into an empty folder that cannot be written (sysfs's, which refuses new files even to
// root) is refused before the run starts, as an unwritable --record-dir is; it started and
// failed at its first frame.
func TestDumpIntoAnUnwritableFolderIsRefusedAtStart(t *testing.T) {
	dir := ""
	for _, d := range []string{"/sys/kernel/software_nodes", "/sys/kernel/iommu_groups", "/sys/fs/pstore"} {
		if entries, err := os.ReadDir(d); err == nil && len(entries) == 0 {
			dir = d
			break
		}
	}
	if dir == "" {
		t.Skip("no empty sysfs folder here")
	}
	out, errOut, code := simgui(t, nil, "run", "--headless", "--steps", "10", "--no-api", "--no-bridge", "--no-control", "--dump-sensors", dir)
	if want := "error: sensor dump: files cannot be written in " + dir + ": "; code != 1 || out != "" || !strings.HasPrefix(errOut, want) || strings.Count(errOut, "\n") != 1 {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and one line %q...", code, out, errOut, want)
	}
}
