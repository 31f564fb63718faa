package renderbench

import (
	"fmt"
	"maps"
	"math"
	"runtime"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"simgui/app/bench"
	"simgui/plugins"
	"simgui/plugins/trackgen"
	"simgui/render"
)

// The realistic look's speed claims, each against the flat look of the same scene and size
// (render/real/<size>/flat) in the same run: materials alone, then with shadows, with lens
// distortion, with the film, with motion blur, and with every realism feature on; and, against
// the last, with a fleet of KS0223s in view. The scene is the built-in cardboard corridor with
// two KS0223s, seen from the first one's camera at its spawn point. Besides frames/s the cases
// report frames/cpu-s, frames per second of the thread's own CPU time, which other processes
// on a shared machine do not inflate.
//
// The case bodies use only the exported API and benchB (what simgui/app/bench's B offers), so
// that they can move to a package of their own.
func init() {
	for _, s := range [][2]int{{84, 84}, {640, 480}} {
		w, h := s[0], s[1]
		flat := fmt.Sprintf("render/real/%dx%d/flat", w, h)
		bench.Register(bench.Case{Name: flat, Baseline: fmt.Sprintf("render/rgb/%dx%d/serial", w, h),
			F:   func(b bench.B) { benchRealism(b, w, h, realismCase{flat: true}) },
			Doc: fmt.Sprintf("one %dx%d frame of the built-in corridor on one core, the flat look (the baseline of render/real)", w, h)})
		for _, c := range realismCases {
			base := flat
			if c.fleet || c.crowd {
				base = fmt.Sprintf("render/real/%dx%d/all", w, h)
			}
			bench.Register(bench.Case{
				Name: fmt.Sprintf("render/real/%dx%d/%s", w, h, c.name), Baseline: base,
				F:   func(b bench.B) { benchRealism(b, w, h, c) },
				Doc: fmt.Sprintf("one %dx%d frame of the built-in corridor on one core, realistic: %s", w, h, c.doc),
			})
		}
	}
}

// benchB is the part of a benchmark's B the realism cases use (testing.B and
// simgui/app/bench's B have it).
type benchB interface {
	Fatal(args ...any)
	Loop() bool
	ReportAllocs()
	ReportMetric(n float64, unit string)
	Elapsed() time.Duration
}

type realismCase struct {
	name, doc                       string
	flat, shadows, lens, film, blur bool
	mount                           bool // the look and film of the camera's mount with realistic: 1
	fleet                           bool // fleetSize more KS0223s ahead
	crowd                           bool // crowdSize more KS0223s around, most out of view
}

var realismCases = []realismCase{
	{name: "materials", doc: "materials and sun, no shadows"},
	{name: "shadows", doc: "materials, shadows and contact shadows", shadows: true},
	{name: "distortion", doc: "materials and plumb_bob lens distortion", lens: true},
	{name: "film", doc: "materials and the film: exposure, white balance, vignetting, read and shot noise", film: true},
	{name: "blur", doc: "materials and motion blur over a 1/60 s shutter", blur: true},
	{name: "all", doc: "every realism feature but the optional motion blur: shadows, contact shadows, distortion, film",
		shadows: true, lens: true, film: true},
	{name: "mount", doc: "the KS0223 camera with realistic: 1 and its other parameters' defaults (shadows, contact shadows, film with vignetting and noise; no distortion or blur)",
		mount: true},
	{name: "all+blur", doc: "every realism feature with motion blur over a 1/60 s shutter", shadows: true, lens: true, film: true, blur: true},
	{name: "fleet", doc: "as all, with 24 more KS0223s 0.8 to 3.6 m ahead (against all: what a fleet in view costs, its far robots at coarser levels of detail)",
		shadows: true, lens: true, film: true, fleet: true},
	{name: "crowd", doc: "as all, with 10,000 more KS0223s 5 to 155 m around, most out of view (against all: what a large training world's robots cost a camera that sees few of them)",
		shadows: true, lens: true, film: true, crowd: true},
}

// crowdSize is how many more KS0223s the crowd cases put around the camera.
const crowdSize = 10000

// fleetSize is how many more KS0223s the fleet cases put ahead of the camera.
const fleetSize = 24

// benchLens is a USB webcam lens of the KS0223 kind: mild barrel distortion.
var benchLens = render.Lens{Model: render.PlumbBob, K1: -0.12, K2: 0.02, P1: 0.001, P2: -0.0008}

// benchFilm is a noisy, vignetted film.
var benchFilm = render.Film{Exposure: 1.1, WhiteBalance: [3]float64{1.04, 1, 0.94}, Vignette: 0.35, ReadNoise: 1.2, ShotNoise: 3}

// benchShutter is the motion blur cases' exposure time, a USB camera's indoors.
const benchShutter = 1.0 / 60

// realismScene is the built-in corridor (2 m long, 0.6 m wide), the KS0223 at the spawn
// point and a second one ahead, and the first one's camera (its mount from the descriptor).
// With mount, the look and film are the mount's (realistic: 1, its other parameters' defaults)
// rather than env and none.
func realismScene(w, h int, env *render.Environment, mount bool) (*render.Static, []render.Object, render.Camera, error) {
	t, err := plugins.Builtin().Track("track.cardboard_corridor.v1")
	if err != nil {
		return nil, nil, render.Camera{}, err
	}
	l, err := trackgen.Build(t, map[string]any{"length": 2.0, "width": 0.6}, 1)
	if err != nil {
		return nil, nil, render.Camera{}, err
	}
	v, err := plugins.Builtin().Vehicle("vehicle.ks0223.v1")
	if err != nil {
		return nil, nil, render.Camera{}, err
	}
	sp := l.SpawnPoints[0]
	yaw := sp.YawDeg * math.Pi / 180
	body := render.Pose{X: sp.X, Y: sp.Y, Yaw: yaw}
	var cam render.Camera
	for _, m := range v.Sensors {
		if m.Kind == plugins.SensorCamera {
			var look render.Environment
			params := maps.Clone(m.Params)
			if mount {
				if params == nil {
					params = map[string]float64{}
				}
				params["realistic"] = 1
			}
			if cam, look, err = render.MountCamera(params, w, h, nil); err != nil {
				return nil, nil, render.Camera{}, err
			}
			if mount {
				env = &look
			} else {
				cam.Film = nil
			}
			cam.Pose = body.Compose(render.PoseFromPose3(m.Pose))
		}
	}
	st, err := render.NewStatic(l, env)
	if err != nil {
		return nil, nil, render.Camera{}, err
	}
	own, err := render.NewVehicleMesh(render.VehicleSpecFor(v))
	if err != nil {
		return nil, nil, render.Camera{}, err
	}
	other, err := render.NewVehicleMesh(render.VehicleSpec{Shape: "ks0223", Color: "#2060c8", Accent: "#f0f0f0"})
	if err != nil {
		return nil, nil, render.Camera{}, err
	}
	ahead := render.Pose{X: sp.X + 0.5*math.Cos(yaw), Y: sp.Y + 0.5*math.Sin(yaw), Yaw: yaw + 0.5}
	return st, []render.Object{{Mesh: own, Pose: body}, {Mesh: other, Pose: ahead}}, cam, nil
}

func benchRealism(b benchB, w, h int, c realismCase) {
	env := render.RealisticEnvironment()
	env.Shadows = c.shadows
	if !c.shadows {
		env.ContactShadow = 0
	}
	if c.flat {
		env = render.DefaultEnvironment()
	}
	st, dyn, cam, err := realismScene(w, h, &env, c.mount)
	if err != nil {
		b.Fatal(err)
	}
	if c.fleet {
		// Spread over the corridor's long leg and a little to each side, turned every way.
		own := dyn[0].Pose
		for i := range fleetSize {
			a := float64(i) * 0.7
			d, side := 0.8+0.12*float64(i), 0.3*math.Sin(a)
			dyn = append(dyn, render.Object{Mesh: dyn[1].Mesh, Pose: render.Pose{
				X: own.X + d*math.Cos(cam.Yaw+side), Y: own.Y + d*math.Sin(cam.Yaw+side), Yaw: a}})
		}
	}
	if c.crowd {
		// Rings 5 to 155 m out, every way: a camera sees a few of them.
		own := dyn[0].Pose
		for i := range crowdSize {
			a, d := float64(i)*0.7, 5+float64(i%100)*1.5
			dyn = append(dyn, render.Object{Mesh: dyn[1].Mesh, Pose: render.Pose{
				X: own.X + d*math.Cos(a), Y: own.Y + d*math.Sin(a), Yaw: a}})
		}
	}
	r := render.NewRenderer(render.Options{Workers: 1})
	defer r.Close()
	f := render.NewFrame(w, h, true, false)
	if c.lens {
		cam.Lens = benchLens
	}
	if !c.flat && !c.mount {
		fl := render.Film{}
		if c.film {
			fl = benchFilm
		}
		if c.blur {
			fl.ShutterS = benchShutter
			// The KS0223 at full speed (0.73 m/s) while turning at 1 rad/s.
			s, co := math.Sincos(cam.Yaw)
			cam.Motion = render.Motion{Linear: mgl64.Vec3{0.73 * co, 0.73 * s, 0}, Angular: mgl64.Vec3{0, 0, 1}}
		}
		cam.Film = &fl
	}
	// The first frame builds what later frames reuse (the lens's map, the vignette).
	if err := r.Render(f, cam, st, dyn); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0 := threadCPU()
	ops := 0
	for b.Loop() {
		ops++
		cam.Seed = uint64(ops)
		if err := r.Render(f, cam, st, dyn); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(ops)/b.Elapsed().Seconds(), "frames/s")
	if cpu := threadCPU() - c0; cpu > 0 {
		b.ReportMetric(float64(ops)/cpu.Seconds(), "frames/cpu-s")
	}
}
