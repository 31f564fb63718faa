package render

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"simgui/app/bench"
)

// The realistic look's speed claims, each against the flat look of the same scene and size
// (render/real/<size>/flat, which is render/rgb/<size>/serial measured the same way) in the
// same run: materials alone, then with shadows, with lens distortion, and with every realism
// feature on (materials, shadows, contact shadows, distortion, exposure and white balance,
// vignetting, read and shot noise, motion blur of a KS0223 driving at full speed and turning).
// Besides frames/s they report frames/cpu-s, frames per second of the thread's own CPU time,
// which other processes on a shared machine do not inflate.
func init() {
	for _, s := range [][2]int{{84, 84}, {640, 480}} {
		w, h := s[0], s[1]
		flat := fmt.Sprintf("render/real/%dx%d/flat", w, h)
		bench.Register(bench.Case{Name: flat, Baseline: fmt.Sprintf("render/rgb/%dx%d/serial", w, h),
			F:   benchFlatCPU(w, h),
			Doc: fmt.Sprintf("one %dx%d RGB frame of the corridor scene on one core, the flat look (the baseline of render/real)", w, h)})
		for _, c := range realismCases {
			bench.Register(bench.Case{
				Name: fmt.Sprintf("render/real/%dx%d/%s", w, h, c.name), Baseline: flat,
				F:   benchRealism(w, h, c.shadows, c.lens, c.film, c.blur),
				Doc: fmt.Sprintf("one %dx%d frame of the corridor scene on one core, realistic: %s", w, h, c.doc),
			})
		}
	}
}

var realismCases = []struct {
	name, doc                 string
	shadows, lens, film, blur bool
}{
	{"materials", "materials and sun, no shadows", false, false, false, false},
	{"shadows", "materials, shadows and contact shadows", true, false, false, false},
	{"distortion", "materials and plumb_bob lens distortion", false, true, false, false},
	{"film", "materials and the film: exposure, white balance, vignetting, read and shot noise", false, false, true, false},
	{"blur", "materials and motion blur over a 1/60 s shutter", false, false, false, true},
	{"all", "every realism feature: shadows, contact shadows, distortion, film, motion blur", true, true, true, true},
}

// benchLens is a USB webcam lens of the KS0223 kind: mild barrel distortion.
var benchLens = Lens{Model: PlumbBob, K1: -0.12, K2: 0.02, P1: 0.001, P2: -0.0008}

// benchFilm is a noisy, vignetted film.
var benchFilm = Film{Exposure: 1.1, WhiteBalance: [3]float64{1.04, 1, 0.94}, Vignette: 0.35, ReadNoise: 1.2, ShotNoise: 3}

// benchShutter is the motion blur cases' exposure time, a USB camera's indoors.
const benchShutter = 1.0 / 60

func benchRealism(w, h int, shadows, lens, film, blur bool) func(*testing.B) {
	return func(b *testing.B) {
		env := RealisticEnvironment()
		env.Shadows = shadows
		if !shadows {
			env.ContactShadow = 0
		}
		st, err := NewStatic(corridorLayout(), &env)
		if err != nil {
			b.Fatal(err)
		}
		sc, err := newBenchScene()
		if err != nil {
			b.Fatal(err)
		}
		r := NewRenderer(Options{Workers: 1})
		defer r.Close()
		f := NewFrame(w, h, true, false)
		cam := benchCamera(w, h)
		if lens {
			cam.Lens = benchLens
		}
		fl := Film{}
		if film {
			fl = benchFilm
		}
		if blur {
			fl.ShutterS = benchShutter
			// The KS0223 at full speed (0.73 m/s along +y) while turning at 1 rad/s.
			cam.Motion = Motion{Linear: mgl64.Vec3{0, 0.73, 0}, Angular: mgl64.Vec3{0, 0, 1}}
		}
		cam.Film = &fl
		// The first frame builds what later frames reuse (the lens's map, the vignette).
		if err := r.Render(f, cam, st, sc.dyn); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		seed := uint64(0)
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		c0 := threadCPU()
		for b.Loop() {
			seed++
			cam.Seed = seed
			if err := r.Render(f, cam, st, sc.dyn); err != nil {
				b.Fatal(err)
			}
		}
		reportRates(b, threadCPU()-c0)
	}
}

// benchFlatCPU is benchRender's serial RGB case with the CPU-time rate.
func benchFlatCPU(w, h int) func(*testing.B) {
	return func(b *testing.B) {
		sc, err := newBenchScene()
		if err != nil {
			b.Fatal(err)
		}
		r := NewRenderer(Options{Workers: 1})
		defer r.Close()
		f := NewFrame(w, h, true, false)
		cam := benchCamera(w, h)
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		c0 := threadCPU()
		for b.Loop() {
			if err := r.Render(f, cam, sc.static, sc.dyn); err != nil {
				b.Fatal(err)
			}
		}
		reportRates(b, threadCPU()-c0)
	}
}

func reportRates(b *testing.B, cpu time.Duration) {
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "frames/s")
	if cpu > 0 {
		b.ReportMetric(float64(b.N)/cpu.Seconds(), "frames/cpu-s")
	}
}
