//go:build unix

package sensors_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

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
