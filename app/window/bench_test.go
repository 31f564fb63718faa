package window

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// BenchmarkDraw100Robots4Cameras runs the window (in a process of its own, under the display
// make test provides) on 100 KS0223s driving in the basic arena, the selected one with four
// camera panels (two RGB, two depth, 640×480 at 15 Hz each), and measures the CPU time of
// each Draw on its thread for four seconds after two of warm-up. ns/op is the mean Draw CPU
// time per frame; also reported: its 95th percentile, Update's mean CPU time per tick, and
// the ticks and frames per second Ebiten achieved. It cannot join `simgui bench`, which runs
// without a display.
func BenchmarkDraw100Robots4Cameras(b *testing.B) {
	if os.Getenv("DISPLAY") == "" {
		b.Skip("needs an X display: run under xvfb-run")
	}
	dir := b.TempDir()
	result := filepath.Join(dir, "draw.json")
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), childEnv+"=bench", envResult+"="+result, envSeconds+"=6", envShots+"="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("bench child: %v\n%s", err, out)
	}
	data, err := os.ReadFile(result)
	if err != nil {
		b.Fatal(err)
	}
	var m drawMetrics
	if err := json.Unmarshal(data, &m); err != nil {
		b.Fatal(err)
	}
	if m.Frames == 0 {
		b.Fatalf("no frames measured: %+v", m)
	}
	b.ReportMetric(m.DrawMeanNs, "ns/op")
	b.ReportMetric(m.DrawP95Ns, "p95-ns/frame")
	b.ReportMetric(m.UpdateMeanNs, "update-ns/tick")
	b.ReportMetric(m.TPSMean, "tps")
	b.ReportMetric(m.TPSMin, "tps-min")
	b.ReportMetric(m.FPSMean, "fps")
	b.ReportMetric(float64(m.Frames), "frames")
	b.ReportMetric(m.ProcessCPUPerFrameNs, "process-cpu-ns/frame")
	if shots, _ := filepath.Glob(filepath.Join(dir, "simgui-*.png")); len(shots) > 0 {
		if data, err := os.ReadFile(shots[0]); err == nil && os.MkdirAll(previewDir, 0o755) == nil {
			os.WriteFile(filepath.Join(previewDir, "bench-100-robots-4-cameras.png"), data, 0o644)
		}
	}
}
