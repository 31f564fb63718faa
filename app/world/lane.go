package world

import (
	"math"

	"simgui/plugins"
)

// maxLaneSteps bounds the places placer.lane tries on each side of the spawn point.
const maxLaneSteps = 500

// lane is where a vehicle whose turned footprint fits no grid cell stands lengthwise: a long
// car in a corridor narrower than its diagonal. It tries the spawn point, then places behind
// and ahead of it along its heading, a body length and placeGap apart, each with the body's
// outline (a capsule inside its box, as World.SpotFree takes it) clear of the track and of
// the vehicles placed, on the floor, and reached from the spawn point in a straight line. The
// place is reserved. ok is false when there is none, or the track has no spawn point to give
// the heading.
func (p *placer) lane(v *plugins.VehicleDescriptor) (Pose, bool) {
	if p.spread || v == nil || v.Body == nil || v.Body.Shape == "circle" {
		return Pose{}, false // a circle's outline is its circle: the grid has tried it
	}
	rad, half := laneWidth(v)/2, max(0, v.Body.Length-v.Body.Width)/2
	top := math.Max(p.top, bodyHeight(v))
	step := v.Body.Length + placeGap
	for i := range 2*maxLaneSteps + 1 {
		k := (i + 1) / 2 // 0, 1, -1, 2, -2, ...: behind the spawn point first, as the grid's rows
		if i%2 == 0 {
			k = -k
		}
		back := float64(k) * step
		x, y := p.ax-back*p.fx, p.ay-back*p.fy
		x0, y0, x1, y1 := x-half*p.fx, y-half*p.fy, x+half*p.fx, y+half*p.fy
		if !p.onFloor(x0, y0, rad) || !p.onFloor(x1, y1, rad) {
			continue
		}
		// The vehicles standing in a running world are bodies of the space, with their own
		// outlines (others has only circles round them); the vehicles a build places are not.
		stands := onTrack
		if p.vehiclesInSpace {
			stands = nil
		}
		if !p.space.Clear(x0, y0, rad, 0, top, stands) || !p.space.Clear(x1, y1, rad, 0, top, stands) ||
			half > 0 && !p.space.SweepClear(x0, y0, x1, y1, rad, 0, top, stands) ||
			k != 0 && !p.space.SweepClear(p.ax, p.ay, x, y, rad, 0, top, onTrack) {
			continue
		}
		discs := capsuleDiscs(x0, y0, x1, y1, rad)
		if !p.inSolid(discs) && (p.vehiclesInSpace || p.clearOfOthers(discs)) {
			for _, d := range discs {
				p.others.add(d)
			}
			return Pose{X: x, Y: y, Yaw: p.yaw}, true
		}
	}
	return Pose{}, false
}

// laneWidth is how wide a lane a vehicle standing in it, its length along the lane, needs,
// metres.
func laneWidth(v *plugins.VehicleDescriptor) float64 {
	if v == nil || v.Body == nil || v.Body.Shape == "circle" {
		return 2 * footprintRadius(v)
	}
	return v.Body.Width + 2*placeClearance
}

// onFloor reports whether a disc of radius r at (x, y) lies on the floor.
func (p *placer) onFloor(x, y, r float64) bool {
	return x-r >= p.floor[0] && x+r <= p.floor[2] && y-r >= p.floor[1] && y+r <= p.floor[3]
}

// capsuleDiscs covers the capsule of radius r around the segment (x0, y0)-(x1, y1) with discs
// of radius r half a radius apart, for the disc index of placed vehicles.
func capsuleDiscs(x0, y0, x1, y1, r float64) []disc {
	n := 1 + int(math.Ceil(math.Hypot(x1-x0, y1-y0)/(r/2)))
	out := make([]disc, 0, n+1)
	for i := range n + 1 {
		t := float64(i) / float64(n)
		out = append(out, disc{x0 + t*(x1-x0), y0 + t*(y1-y0), r - placeClearance})
	}
	return out
}

// inSolid reports whether a disc's centre lies inside a solid polygon of the track.
func (p *placer) inSolid(discs []disc) bool {
	for _, d := range discs {
		for _, poly := range p.solids {
			if plugins.InPolygon(d.x, d.y, poly) {
				return true
			}
		}
	}
	return false
}

// clearOfOthers reports whether every disc keeps placeGap from the vehicles placed.
func (p *placer) clearOfOthers(discs []disc) bool {
	for _, d := range discs {
		if !p.others.clear(d.x, d.y, d.r, 0.999*placeGap) {
			return false
		}
	}
	return true
}
