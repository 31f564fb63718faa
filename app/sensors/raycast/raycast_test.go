package raycast_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"simgui/app/sensors/raycast"
	"simgui/physics"
	"simgui/plugins"
)

// randomScene lays out walls, static boxes, cylinders, polygons and pushable boxes at random
// heights, plus vehicles (boxes and circles, some flying), in a physics space and as raycast
// shapes.
func randomScene(t *testing.T, r *rand.Rand, n int) (*physics.Space, *raycast.Caster, []*physics.Body) {
	t.Helper()
	layout := &plugins.Layout{}
	u := func(a, b float64) float64 { return a + (b-a)*r.Float64() }
	for i := range n {
		e := plugins.Element{Name: fmt.Sprint("e", i), X: u(-8, 8), Y: u(-8, 8), Z: u(0, 0.3), Height: u(0.05, 1)}
		switch r.IntN(5) {
		case 0:
			e.Kind, e.Length, e.Width, e.YawDeg = plugins.ElementWall, u(0.2, 5), u(0.01, 0.1), u(-180, 180)
		case 1:
			e.Kind, e.Length, e.Width, e.YawDeg = plugins.ElementBox, u(0.1, 1), u(0.1, 1), u(-180, 180)
		case 2:
			e.Kind, e.Radius = plugins.ElementCylinder, u(0.05, 0.8)
		case 3:
			e.Kind = plugins.ElementPolygon
			for range 3 + r.IntN(4) {
				e.Points = append(e.Points, [2]float64{e.X + u(-1.5, 1.5), e.Y + u(-1.5, 1.5)})
			}
		case 4:
			e.Kind, e.Length, e.Width, e.YawDeg, e.Movable = plugins.ElementBox, u(0.1, 0.6), u(0.1, 0.6), u(-180, 180), true
		}
		layout.Elements = append(layout.Elements, e)
	}
	sp := physics.NewSpace(physics.Options{VehicleCollisions: true})
	var dyn []raycast.Shape
	var bodies []*physics.Body
	for _, e := range layout.Elements {
		b, err := sp.AddElement(e)
		if err != nil {
			t.Fatal(err)
		}
		if b != nil && b.Kind == physics.KindBox {
			p := b.Pose()
			dyn = append(dyn, raycast.Shape{Kind: raycast.Box, X: p.X, Y: p.Y, Yaw: p.Yaw, HalfL: e.Length / 2,
				HalfW: e.Width / 2, ZMin: b.Base, ZMax: b.Top(), ID: b.ID})
		}
	}
	for i := range n / 2 {
		body := plugins.Body{Shape: "box", Length: u(0.2, 0.6), Width: u(0.1, 0.4), Height: u(0.1, 0.3), Mass: 1}
		if i%3 == 0 {
			body = plugins.Body{Shape: "circle", Radius: u(0.1, 0.3), Height: 0.1, Mass: 1}
		}
		b, err := sp.AddVehicle(physics.VehicleSpec{Name: fmt.Sprint("v", i), Body: body,
			Pose: physics.Pose{X: u(-8, 8), Y: u(-8, 8), Yaw: u(-10, 10)}, Base: u(0, 0.5), Flying: i%4 == 0})
		if err != nil {
			t.Fatal(err)
		}
		bodies = append(bodies, b)
		p := b.Pose()
		s := raycast.Shape{Kind: raycast.Box, X: p.X, Y: p.Y, Yaw: p.Yaw, HalfL: body.Length / 2, HalfW: body.Width / 2,
			ZMin: b.Base, ZMax: b.Top(), ID: b.ID}
		if body.Shape == "circle" {
			s = raycast.Shape{Kind: raycast.Circle, X: p.X, Y: p.Y, Radius: body.Radius, ZMin: b.Base, ZMax: b.Top(), ID: b.ID}
		}
		dyn = append(dyn, s)
	}
	shapes, err := raycast.LayoutShapes(layout)
	if err != nil {
		t.Fatal(err)
	}
	c := raycast.NewCaster(raycast.NewStatic(shapes))
	c.SetDynamic(dyn)
	return sp, c, bodies
}

// The caster agrees with physics.Space.RayCast (cp's segment query) on random scenes: same
// hit or miss, same distance.
func TestAgreesWithPhysics(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	rays, hits := 0, 0
	for scene := range 40 {
		sp, c, bodies := randomScene(t, r, 5+scene*3)
		for range 400 {
			x, y, z := -9+18*r.Float64(), -9+18*r.Float64(), 1.2*r.Float64()
			a, maxDist := 2*math.Pi*r.Float64(), 0.5+12*r.Float64()
			var ignore *physics.Body
			var ignoreID uint32
			if len(bodies) > 0 && r.IntN(2) == 0 {
				ignore = bodies[r.IntN(len(bodies))]
				ignoreID = ignore.ID
			}
			got := c.Cast(x, y, z, a, maxDist, ignoreID)
			h, ok := sp.RayCast(x, y, x+maxDist*math.Cos(a), y+maxDist*math.Sin(a), z, ignore)
			rays++
			switch {
			case !ok && !math.IsInf(got, 1):
				t.Fatalf("scene %d ray (%.3f,%.3f,%.3f) at %.4f rad: physics misses, caster hits at %.6f", scene, x, y, z, a, got)
			case ok && math.Abs(got-h.Distance) > 1e-7:
				t.Fatalf("scene %d ray (%.3f,%.3f,%.3f) at %.4f rad, max %.3f: physics hits %q at %.6f, caster %.6f",
					scene, x, y, z, a, maxDist, h.Body.Name, h.Distance, got)
			}
			if ok {
				hits++
			}
		}
	}
	if hits < rays/4 || hits == rays {
		t.Fatalf("%d of %d rays hit: the scenes do not exercise both outcomes", hits, rays)
	}
	t.Logf("%d rays, %d hits, all agree", rays, hits)
}

// A fan scan gives, ray for ray, what Cast gives, on random scenes large and small (grid and
// all-shapes paths), from random origins, fans of any extent and range.
func TestScanFanAgreesWithCast(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	rays, hits := 0, 0
	for scene := range 30 {
		_, c, bodies := randomScene(t, r, 5+scene*6)
		for range 20 {
			x, y, z := -9+18*r.Float64(), -9+18*r.Float64(), 1.2*r.Float64()
			n := 1 + r.IntN(720)
			span := 2 * math.Pi * r.Float64()
			if r.IntN(3) == 0 {
				span = 2 * math.Pi * float64(n-1) / float64(n)
			}
			step := 0.0
			if n > 1 {
				step = span / float64(n-1)
			}
			fan := raycast.NewFan(-math.Pi+2*math.Pi*r.Float64(), step, n)
			yaw, maxDist := 20*r.Float64()-10, 0.5+12*r.Float64()
			var ignore uint32
			if len(bodies) > 0 && r.IntN(2) == 0 {
				ignore = bodies[r.IntN(len(bodies))].ID
			}
			out := make([]float64, n)
			c.ScanFan(x, y, z, yaw, fan, maxDist, ignore, out)
			for i, got := range out {
				want := c.Cast(x, y, z, yaw+fan.Min+float64(i)*fan.Step, maxDist, ignore)
				if got != want && math.Abs(got-want) > 1e-9 {
					t.Fatalf("scene %d, fan of %d from %.3f step %.5f, yaw %.3f: ray %d scans %.9f, casts %.9f",
						scene, n, fan.Min, fan.Step, yaw, i, got, want)
				}
				rays++
				if !math.IsInf(got, 1) {
					hits++
				}
			}
		}
	}
	if hits < rays/10 || hits == rays {
		t.Fatalf("%d of %d rays hit: the scenes do not exercise both outcomes", hits, rays)
	}
	t.Logf("%d rays, %d hits, all agree", rays, hits)
}

// A scan of a square room from its centre reads the distance to the walls.
func TestScanSquareRoom(t *testing.T) {
	shapes, err := raycast.LayoutShapes(&plugins.Layout{Elements: []plugins.Element{
		{Kind: plugins.ElementWall, X: 2.05, Length: 0.1, Width: 6, Height: 0.3},
		{Kind: plugins.ElementWall, X: -2.05, Length: 0.1, Width: 6, Height: 0.3},
		{Kind: plugins.ElementWall, Y: 2.05, Length: 6, Width: 0.1, Height: 0.3},
		{Kind: plugins.ElementWall, Y: -2.05, Length: 6, Width: 0.1, Height: 0.3},
	}})
	if err != nil {
		t.Fatal(err)
	}
	c := raycast.NewCaster(raycast.NewStatic(shapes))
	const n = 360
	fan := raycast.NewFan(0, 2*math.Pi/n, n)
	out := make([]float64, n)
	c.ScanFan(0, 0, 0.1, 0.3, fan, 10, 0, out)
	for i, d := range out {
		a := 0.3 + float64(i)*2*math.Pi/n
		want := 2 / math.Max(math.Abs(math.Cos(a)), math.Abs(math.Sin(a)))
		if math.Abs(d-want) > 1e-9 {
			t.Fatalf("ray %d at %.3f rad: %.9f m, want %.9f", i, a, d, want)
		}
	}
	// Above the walls, nothing.
	c.ScanFan(0, 0, 0.31, 0, fan, 10, 0, out)
	for i, d := range out {
		if !math.IsInf(d, 1) {
			t.Fatalf("ray %d above the walls hit at %g m", i, d)
		}
	}
	// Shorter range than the walls: misses.
	if d := c.Cast(0, 0, 0.1, 0, 1.99, 0); !math.IsInf(d, 1) {
		t.Fatalf("range 1.99 m reached the wall at %g m", d)
	}
	if d := c.Cast(0, 0, 0.1, 0, 2, 0); math.Abs(d-2) > 1e-12 {
		t.Fatalf("range 2 m: %g m, want the wall at 2 (a hit at the range counts)", d)
	}
}
