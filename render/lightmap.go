package render

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// floorLight is the floor's baked light: per texel over a rectangle of the plane z = 0, how
// much sky light reaches it (contact shadow next to whatever stands on the floor) and how much
// sun (the static scene's shadows, filtered), each in 16 levels packed into a byte:
// ao<<4 | vis. Frames turn it into light through a 256-entry table, so a floor pixel costs one
// more lookup.
type floorLight struct {
	x0, y0, texel float64
	w, h          int
	idx           []uint8
}

// Contact shadow shape: ao = 1 − strength·exp(−d/contactRange) at distance d from the foot of
// a solid (on the floor) or height d above the floor (on a wall).
const contactRange = 0.045

func contactAO(strength, d float64) float64 { return 1 - strength*math.Exp(-d/contactRange) }

// Light map size: texels of at least minLightTexel metres, at most maxLightSide a side.
const (
	minLightTexel = 0.005
	maxLightSide  = 2048
)

// bakeFloorLight bakes the light of the rectangle x0..x1, y0..y1 of the floor: solids are the
// static meshes standing on the floor (their footprints give the contact shadow), sm the static
// shadow map (nil: no shadows).
func bakeFloorLight(x0, y0, x1, y1 float64, solids []*Mesh, sm *shadowMap, env *Environment, sunUp float64) *floorLight {
	ext := math.Max(x1-x0, y1-y0)
	texel := math.Max(minLightTexel, ext/maxLightSide)
	fl := &floorLight{x0: x0, y0: y0, texel: texel}
	fl.w = max(1, min(maxLightSide, int(math.Ceil((x1-x0)/texel))))
	fl.h = max(1, min(maxLightSide, int(math.Ceil((y1-y0)/texel))))
	n := fl.w * fl.h
	fl.idx = make([]uint8, n)

	// Distance (texels) to the nearest footprint texel: footprints are 0, the rest start far.
	dist := make([]float32, n)
	for i := range dist {
		dist[i] = inf32
	}
	if env.ContactShadow > 0 {
		for _, m := range solids {
			for _, t := range m.tris {
				var q [3][3]float64
				for k, vi := range t.v {
					p := m.verts[vi]
					q[k] = [3]float64{(float64(p[0]) - x0) / texel, (float64(p[1]) - y0) / texel, 0}
				}
				drawLightTri(dist, fl.w, fl.h, q[0], q[1], q[2])
			}
		}
		chamfer(dist, fl.w, fl.h)
	}
	bias := 0.0
	if sm != nil {
		bias = slopeBias(sunUp, sm.texel)
	}
	for j := range fl.h {
		for i := range fl.w {
			k := j*fl.w + i
			ao := 1.0
			if env.ContactShadow > 0 {
				ao = contactAO(env.ContactShadow, float64(dist[k])*texel)
			}
			vis := 1.0
			if sm != nil && sunUp > 0 {
				vis = sm.visible(mgl64.Vec3{x0 + (float64(i)+0.5)*texel, y0 + (float64(j)+0.5)*texel, 0}, bias)
			}
			fl.idx[k] = uint8(math.Round(ao*15))<<4 | uint8(math.Round(vis*15))
		}
	}
	return fl
}

// chamfer turns d (0 on sources, +Inf elsewhere) into approximate Euclidean distances in
// texels with the two-pass 1, √2 chamfer transform (Borgefors 1986).
func chamfer(d []float32, w, h int) {
	const a, b = 1, math.Sqrt2
	at := func(x, y int) float32 {
		if x < 0 || y < 0 || x >= w || y >= h {
			return inf32
		}
		return d[y*w+x]
	}
	for y := range h {
		for x := range w {
			v := d[y*w+x]
			v = min(v, at(x-1, y)+a, at(x, y-1)+a, at(x-1, y-1)+b, at(x+1, y-1)+b)
			d[y*w+x] = v
		}
	}
	for y := h - 1; y >= 0; y-- {
		for x := w - 1; x >= 0; x-- {
			v := d[y*w+x]
			v = min(v, at(x+1, y)+a, at(x, y+1)+a, at(x+1, y+1)+b, at(x-1, y+1)+b)
			d[y*w+x] = v
		}
	}
}

// at returns the packed light of floor point (x, y); outside the map the floor is fully lit.
func (fl *floorLight) at(x, y float64) uint8 {
	i, j := int(math.Floor((x-fl.x0)/fl.texel)), int(math.Floor((y-fl.y0)/fl.texel))
	if i < 0 || j < 0 || i >= fl.w || j >= fl.h {
		return 0xff
	}
	return fl.idx[j*fl.w+i]
}
