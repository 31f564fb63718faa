package main

import (
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"simgui/app/foxview"
	"simgui/app/record"
)

// --record records the run from its first step to its end, Foxglove's views included, and
// the summary says what the file holds.
func TestRunRecords(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "sub", "run1") // .mcap added, the folder made
	s := runJSON(t, "--steps", "400", "--record", name, "--no-api", "--no-control", "--no-bridge")
	if s.Recording == nil || s.Recording.Path != name+".mcap" {
		t.Fatalf("summary's recording %+v, want the path %s.mcap", s.Recording, name)
	}
	rec, err := record.ReadFile(name + ".mcap")
	if err != nil || !rec.Complete {
		t.Fatalf("read back: %v, complete %v", err, rec != nil && rec.Complete)
	}
	counts := rec.Counts()
	if len(rec.Messages) != int(s.Recording.Messages) || len(counts) != s.Recording.Topics || s.Recording.Dropped != 0 {
		t.Errorf("the file holds %d messages on %d topics; the summary says %+v", len(rec.Messages), len(counts), s.Recording)
	}
	// Every step's clock, the first one's included.
	if counts["/clock"] != 400 {
		t.Errorf("/clock: %d messages, want one a step (400)", counts["/clock"])
	}
	image := "/model/ego/sensor/camera.front.rgb/image"
	// The camera's 15 Hz over 2 s, the last frames (taken as the run ended) included: 0.005,
	// 0.07, ..., 2.0 s.
	if counts[image] != 31 || counts[image+foxview.ViewSuffix] != 31 {
		t.Errorf("camera: %d frames and %d views, want 31 each", counts[image], counts[image+foxview.ViewSuffix])
	}
}

func TestRunRecordRefusals(t *testing.T) {
	dir := t.TempDir()
	taken := filepath.Join(dir, "taken.mcap")
	if err := os.WriteFile(taken, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	off := filepath.Join(dir, "off.yaml")
	if err := os.WriteFile(off, []byte("world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\nfaces: {record: false}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, want string }{
		{filepath.Join(dir, "taken"), "--record: record " + taken + ": the file exists; choose another name or remove it"},
		{dir, "--record " + dir + " is a folder: want a file's name in it (" + filepath.Join(dir, "run1") + ")"},
		{dir + "/", `--record "` + dir + `/": want a file's name, not starting with a dot (run1 records into run1.mcap)`},
		{filepath.Join(dir, ".mcap"), `--record "` + filepath.Join(dir, ".mcap") + `": want a file's name, not starting with a dot (run1 records into run1.mcap)`},
		{filepath.Join(dir, "x") + " --scenario " + off, "--record: the scenario turns the recorder off (faces: {record: false})"},
	} {
		args := append([]string{"run", "--headless", "--steps", "10", "--no-api", "--no-control", "--no-bridge", "--record"}, strings.Fields(tc.name)...)
		_, errOut, code := simgui(t, nil, args...)
		if code != 1 || strings.TrimSpace(errOut) != "error: "+tc.want {
			t.Errorf("--record %s: exit %d, stderr %q; want %q", tc.name, code, errOut, tc.want)
		}
	}
	if b, _ := os.ReadFile(taken); string(b) != "keep me" {
		t.Errorf("the file in the way now holds %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.mcap")); err == nil {
		t.Error("a refused --record left its file")
	}
}

// faces: {record: {foxglove: false}} records the topics alone.
func TestRunRecordsWithoutViews(t *testing.T) {
	dir := t.TempDir()
	sc := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(sc, []byte("world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\nfaces: {record: {foxglove: false}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "plain.mcap")
	s := runJSON(t, "--steps", "100", "--scenario", sc, "--record", path, "--no-api", "--no-control", "--no-bridge")
	rec, err := record.ReadFile(path)
	if err != nil || s.Recording == nil || len(rec.Messages) != int(s.Recording.Messages) {
		t.Fatalf("read back: %v; summary %+v", err, s.Recording)
	}
	counts := rec.Counts()
	for topic := range counts {
		if strings.HasSuffix(topic, foxview.ViewSuffix) {
			t.Errorf("%s recorded with foxglove: false", topic)
		}
	}
	if counts["/model/ego/sensor/camera.front.rgb/image"] == 0 {
		t.Errorf("no camera frames: %v", counts)
	}
}

// A run as fast as possible waits for the recording's writer rather than have it drop
// messages: 60 s of the default scenario, its camera's JPEG views encoded on the writer, ran
// at about 60 times real time and lost a fifth of its messages past 30 s or so.
func TestRunRecordsEveryMessage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "long.mcap")
	s := runJSON(t, "--duration", "60", "--cmd", "throttle=0.4,steer=0.3", "--record", path, "--no-api", "--no-control", "--no-bridge")
	if s.Recording == nil || s.Recording.Dropped != 0 {
		t.Fatalf("recording %+v, want nothing dropped", s.Recording)
	}
	rec, err := record.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	counts := rec.Counts()
	image := "/model/ego/sensor/camera.front.rgb/image"
	if counts["/clock"] != 12000 || counts[image] != 901 || counts[image+foxview.ViewSuffix] != 901 {
		t.Errorf("%d clocks, %d frames, %d views; want 12000, 901, 901", counts["/clock"], counts[image], counts[image+foxview.ViewSuffix])
	}
}

// A recording its disk fills ends the run at once with its error (as a sensor dump does),
// and the file reads up to its last whole chunk. The run has no end of its own: one that
// went on stepping, recording nothing, as it did, is not waited for past the test's timeout.
func TestRunRecordEndsOnAFullDisk(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the file-size limit stands for a full disk on Linux")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "full.mcap")
	// 10,000 blocks of 512 bytes: about 5 MB, a few seconds of the default scenario.
	cmd := exec.Command("sh", "-c", `ulimit -f 10000; exec "$0" "$@"`, bin, "run", "--headless", "--time-scale", "0",
		"--record", path, "--no-api", "--no-control", "--no-bridge")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(string(out), "error: record "+path+": write: file too large; the file ends after its last whole chunk") {
		t.Fatalf("exit %v, output:\n%s", err, out)
	}
	rec, err := record.ReadFile(path)
	if err != nil {
		t.Fatalf("the file: %v", err)
	}
	if len(rec.Messages) == 0 || rec.Truncated {
		t.Fatalf("the file: %d messages, truncated %v", len(rec.Messages), rec.Truncated)
	}
}

// A run that does not start (its port taken) leaves neither its recording nor its sensor dump,
// nor the folders made for them: they held its first steps, and the same command, given again
// once the port was free, refused both ("the file exists", "give an empty or new folder").
func TestRunThatDoesNotStartLeavesNoOutput(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	dir := t.TempDir()
	rec, dump := filepath.Join(dir, "new", "rec", "run1"), filepath.Join(dir, "dumps", "run1")
	args := []string{"run", "--headless", "--steps", "400", "--no-control", "--no-bridge", "--record", rec, "--dump-sensors", dump}
	_, errOut, code := simgui(t, nil, append(args, "--api-port", port)...)
	if code != 1 || !strings.Contains(errOut, "is already in use") {
		t.Fatalf("a run on a taken port: exit %d, stderr %q", code, errOut)
	}
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
		names := []string{}
		filepath.WalkDir(dir, func(p string, _ os.DirEntry, _ error) error { names = append(names, p); return nil })
		t.Fatalf("the run that did not start left %v (%v)", names, err)
	}
	// The same command runs once the port is free.
	if _, errOut, code := simgui(t, nil, append(args, "--no-api")...); code != 0 {
		t.Fatalf("the same run again: exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(rec + ".mcap"); err != nil {
		t.Errorf("the run's recording: %v", err)
	}
	if entries, err := os.ReadDir(dump); err != nil || len(entries) == 0 {
		t.Errorf("the run's dump: %d files (%v)", len(entries), err)
	}
}

// Refused before the run starts, --record leaves no sensor dump folder behind.
func TestRecordRefusalLeavesNoDumpFolder(t *testing.T) {
	dir := t.TempDir()
	taken := filepath.Join(dir, "taken.mcap")
	if err := os.WriteFile(taken, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	dump := filepath.Join(dir, "dumps", "run1")
	_, errOut, code := simgui(t, nil, "run", "--headless", "--steps", "10", "--no-api", "--no-control", "--no-bridge",
		"--dump-sensors", dump, "--record", taken)
	if code != 1 || !strings.Contains(errOut, "the file exists") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "dumps")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the dump's folder is left: %v", err)
	}
}
