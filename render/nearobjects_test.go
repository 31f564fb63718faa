package render

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"simgui/plugins"
)

// What inView drops, the frame's later tests drop too: no part of it is queued, and it casts
// no floor shadow the frame takes (setupDynShadows keeps no caster of it). Cameras, suns (down
// to 3° above the horizon, where a shadow is twenty times longer than its caster is high) and
// robots, some of them flying and tilted, are placed at random; of a fleet spread around, it
// drops most.
func TestInViewDropsOnlyWhatTheFrameDrops(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 2))
	var meshes []*Mesh
	for _, spec := range []VehicleSpec{{Shape: "ks0223", Color: "#2060c8"}, {Shape: "car", Color: "#c02020"}, {Shape: "box", Color: "#808080"}} {
		m, err := NewVehicleMesh(spec)
		if err != nil {
			t.Fatal(err)
		}
		meshes = append(meshes, m)
	}
	layout := &plugins.Layout{Floor: plugins.Floor{X: 0, Y: 0, Length: 60, Width: 60, Color: "#a08060"}}
	dropped, kept := 0, 0
	for sun := range 6 {
		env := RealisticEnvironment()
		env.Shadows = true
		el := (3 + 15*float64(sun)) * math.Pi / 180
		az := rng.Float64() * 2 * math.Pi
		env.LightDir = mgl64.Vec3{math.Cos(el) * math.Cos(az), math.Cos(el) * math.Sin(az), math.Sin(el)}
		st := mustStatic(t, layout, &env)
		sc := st.realPart()
		if !sc.hasShadow || sc.sunUp <= 0.02 {
			t.Fatalf("sun %d (%.0f° up) casts no shadows: the test would not check them", sun, el*180/math.Pi)
		}
		r := NewRenderer(Options{Workers: 1})
		for range 40 {
			cam := Camera{Pose: Pose{X: 8 * (rng.Float64() - 0.5), Y: 8 * (rng.Float64() - 0.5), Z: 0.05 + rng.Float64(),
				Yaw: rng.Float64() * 2 * math.Pi, Pitch: 0.6 * (rng.Float64() - 0.5)},
				FovYDeg: 40 + 60*rng.Float64(), Near: 0.02, Far: 5 + 40*rng.Float64(), Width: 84, Height: 84}
			r.fs.view = newView(&cam)
			r.fs.real.scene = sc
			rot := cam.Rotation()
			tan := math.Tan(cam.FovYDeg * math.Pi / 360)
			for k := range 50 {
				o := Object{Mesh: meshes[rng.IntN(len(meshes))], Pose: Pose{
					X: cam.X + 30*(rng.Float64()-0.5), Y: cam.Y + 30*(rng.Float64()-0.5), Yaw: rng.Float64() * 2 * math.Pi}}
				if k%2 == 0 {
					// Near an edge of the view, where a sphere too small would drop what shows.
					side, across := tan*float64(2*rng.IntN(2)-1), tan*(2*rng.Float64()-1)
					dir := mgl64.Vec3{1, side, across}
					if rng.IntN(2) == 0 {
						dir = mgl64.Vec3{1, across, side}
					}
					p := cam.Pos().Add(rot.Mul3x1(dir.Mul(0.3 + 10*rng.Float64())))
					o.X, o.Y = p[0]+0.6*(rng.Float64()-0.5), p[1]+0.6*(rng.Float64()-0.5)
				}
				if rng.IntN(4) == 0 { // flying, tilted
					o.Z, o.Pitch, o.Roll = 3*rng.Float64(), 0.4*(rng.Float64()-0.5), 0.4*(rng.Float64()-0.5)
				}
				if !o.far(&r.fs.view, true, 1/-sc.shadow.ld[2]) {
					kept++
					continue
				}
				dropped++
				r.eachVisibleObjectPart(&o, st, func([]cvert, int32, int32, mgl64.Mat3, mgl64.Vec3, mgl64.Vec3) {
					t.Fatalf("inView drops %+v, a part of which the camera %+v may see", o.Pose, cam.Pose)
				})
				r.setupDynShadows([]Object{o}, sc)
				if len(r.casters) != 0 {
					t.Fatalf("inView drops %+v, whose floor shadow (sun %.0f° up) the camera %+v may see", o.Pose, el*180/math.Pi, cam.Pose)
				}
			}
		}
		r.Close()
	}
	if dropped < 6*40*50/4 || kept == 0 {
		t.Fatalf("dropped %d robots and kept %d: want a quarter dropped at least (half are placed at random), and some kept", dropped, kept)
	}
}

// The frame's objects after inView: dyn itself when it drops none, else those it keeps, in
// dyn's order.
func TestInViewKeepsTheOrder(t *testing.T) {
	m, err := NewVehicleMesh(VehicleSpec{Shape: "box", Color: "#808080"})
	if err != nil {
		t.Fatal(err)
	}
	r := NewRenderer(Options{Workers: 1})
	defer r.Close()
	cam := Camera{Pose: Pose{Z: 0.3}, FovYDeg: 60, Near: 0.05, Far: 50, Width: 32, Height: 32} // looking along +x
	r.fs.view = newView(&cam)
	ahead := func(x float64) Object { return Object{Mesh: m, Pose: Pose{X: x}} }
	behind := func(x float64) Object { return Object{Mesh: m, Pose: Pose{X: -x}} }
	all := []Object{ahead(2), ahead(3), {}, ahead(4)}
	if got := r.inView(all, nil); &got[0] != &all[0] || len(got) != len(all) {
		t.Fatal("nothing to drop, and inView did not return dyn itself")
	}
	got := r.inView([]Object{behind(5), ahead(2), behind(6), {}, ahead(3)}, nil)
	want := []Object{ahead(2), {}, ahead(3)}
	if len(got) != len(want) {
		t.Fatalf("kept %d objects, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].Pose != want[i].Pose || got[i].Mesh != want[i].Mesh {
			t.Errorf("object %d: %+v, want %+v", i, got[i].Pose, want[i].Pose)
		}
	}
}
