package window

import "simgui/app/world"

// modelFinder finds robots of one snapshot by name for a frame's text markers that follow
// them. Snapshot.Model scans the fleet, which is cheapest for a few look-ups; a fleet's
// labels (a text per robot, up to markers.MaxMarkers) made that a scan per label: 4,096
// labels on 5,000 robots spent 2.3 s of a 2.9 s profile of the window's drawing in it. So
// the first scanLookups look-ups of a snapshot scan, and the next one indexes it once.
type modelFinder struct {
	snap  *world.Snapshot
	looks int            // look-ups in snap so far
	at    map[string]int // index of snap's models by name, once made (kept between frames)
	made  bool           // at is snap's
}

// scanLookups is how many look-ups scan the snapshot before it is indexed: about where
// indexing a fleet of robots costs what that many scans of it do.
const scanLookups = 32

// use makes the finder look in snap.
func (f *modelFinder) use(snap *world.Snapshot) {
	if f.snap != snap {
		f.snap, f.looks, f.made = snap, 0, false
	}
}

// find returns the robot named name in the snapshot, the first of that name, as
// Snapshot.Model does.
func (f *modelFinder) find(name string) (world.ModelState, bool) {
	if f.snap == nil {
		return world.ModelState{}, false
	}
	if !f.made {
		if f.looks < scanLookups {
			f.looks++
			return f.snap.Model(name)
		}
		if f.at == nil {
			f.at = make(map[string]int, len(f.snap.Models))
		}
		clear(f.at)
		for i := range f.snap.Models {
			if _, dup := f.at[f.snap.Models[i].Name]; !dup {
				f.at[f.snap.Models[i].Name] = i
			}
		}
		f.made = true
	}
	if i, ok := f.at[name]; ok {
		return f.snap.Models[i], true
	}
	return world.ModelState{}, false
}
