//go:build unix

package sensors_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"simgui/app/record/recordtest"
	"simgui/app/sensors"
	"simgui/app/sensors/sensortest"
	"simgui/app/world"
	"simgui/plugins"
)

// A dump of a fleet writes a JSON-lines file per scalar sensor without holding them open:
// 5,000 KS0223s have 25,000, and a dump that kept each open failed with "too many open files"
// (said only when the run had ended) past the process's limit. Here 120 sensors dump under a
// limit that leaves room for 40 more open files, and every file gets every line.
func TestDumpOfMoreSensorsThanOpenFiles(t *testing.T) {
	const n, steps = 120, 30
	var agents []world.AgentSpec
	for i := range n {
		v := sensortest.KS0223(t, speedometer(200))
		agents = append(agents, world.AgentSpec{Name: fmt.Sprintf("r%d", i), Vehicle: v,
			Spawn: &world.Pose{X: float64(i%12) - 5.5, Y: float64(i/12) - 4.5}})
	}
	layout := &plugins.Layout{Floor: plugins.Floor{Length: 20, Width: 20, Texture: "plywood"}}
	env := sensortest.New(t, layout, agents, sensors.Options{})
	dir := t.TempDir()

	open, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd:", err)
	}
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &old); err != nil {
		t.Fatal(err)
	}
	low := old
	low.Cur = uint64(len(open) + 40)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
		t.Skip("cannot lower the open-file limit:", err)
	}
	t.Cleanup(func() { syscall.Setrlimit(syscall.RLIMIT_NOFILE, &old) })

	if err := env.System.StartDump(dir); err != nil {
		t.Fatal(err)
	}
	env.Step(steps)
	sum, err := env.System.StopDump()
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &old); err != nil {
		t.Fatal(err)
	}
	if err != nil {
		t.Fatalf("dump of %d sensors under an open-file limit of %d: %v", n, low.Cur, err)
	}
	if len(sum.Sensors) != n {
		t.Fatalf("summary lists %d sensors, want %d", len(sum.Sensors), n)
	}
	for _, s := range sum.Sensors {
		f, err := os.Open(filepath.Join(dir, s.Model+"__speed.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		lines := 0
		for sc := bufio.NewScanner(f); sc.Scan(); {
			lines++
		}
		f.Close()
		if lines != steps || s.Lines != steps {
			t.Fatalf("%s: %d lines in the file, %d in the summary; want %d", s.Model, lines, s.Lines, steps)
		}
	}
}

// A dump that cannot write its frames (here a file-size limit; a full disk alike) says so
// through DumpFailed as the first frame fails, so that a run can stop rather than go on for
// its whole duration writing nothing, and leaves no half-written .tmp file behind: a full
// disk kept one per failed frame (436 in a 3 s run on a 300 KiB tmpfs).
func TestDumpThatCannotWriteFailsAndLeavesNoTemporaryFiles(t *testing.T) {
	if !recordtest.InChild(t) {
		return
	}
	v := sensortest.KS0223(t)
	for i := range v.Contract.Sensors {
		if v.Contract.Sensors[i].ID == "camera.front.rgb" {
			v.Contract.Sensors[i].Shape = []int{48, 64, 3}
		}
	}
	env := sensortest.Default(t, v, sensors.Options{})
	dir := t.TempDir()
	if env.System.DumpFailed() != nil {
		t.Fatal("DumpFailed is not nil without a dump")
	}
	if err := env.System.StartDump(dir); err != nil {
		t.Fatal(err)
	}
	failed := env.System.DumpFailed()
	select {
	case <-failed:
		t.Fatal("DumpFailed closed before anything was written")
	default:
	}

	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Fatal(err)
	}
	low := old
	low.Cur = 64 // bytes: less than any PNG frame; the JSON lines wait in memory below 16 KiB
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &low); err != nil {
		t.Skip("cannot lower the file-size limit:", err)
	}
	t.Cleanup(func() { syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old) })
	env.Step(40)
	_, err := env.System.StopDump()
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Fatal(err)
	}
	if err == nil {
		t.Fatal("StopDump: no error from frames that could not be written")
	}
	select {
	case <-failed:
	default:
		t.Fatalf("DumpFailed not closed after %v", err)
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(tmp) > 0 {
		t.Errorf("%d temporary files left behind, such as %s", len(tmp), filepath.Base(tmp[0]))
	}
}
