package render

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"sync"

	"simgui/plugins"
)

// Statics shared across worlds: a training run resets into new worlds of the same track again
// and again, and a realistic Static takes tens of milliseconds to build (its shadow map and
// the floor's light), so SharedStatic keeps the last few by what they are built from.
var shared struct {
	sync.Mutex
	order []sharedKey // oldest first
	m     map[sharedKey]*Static
}

type sharedKey struct {
	layout uint64 // hash of the layout's content
	env    Environment
}

// maxShared bounds the Statics kept: one per track and camera look in use, in practice.
const maxShared = 16

// SharedStatic returns a Static of layout in env (nil: DefaultEnvironment) as NewStatic builds
// it, reusing one built before from a layout with the same content and the same environment.
// The Static is shared: it must not be changed (AddMesh).
func SharedStatic(layout *plugins.Layout, env *Environment) (*Static, error) {
	e := DefaultEnvironment()
	if env != nil {
		e = *env
	}
	h, err := layoutHash(layout)
	if err != nil {
		return NewStatic(layout, &e)
	}
	k := sharedKey{layout: h, env: e}
	if e.Realistic { // the realistic look draws its environment normalized (a seed that picks nothing is 0)
		k.env = e.normalized()
	}
	shared.Lock()
	s := shared.m[k]
	shared.Unlock()
	if s != nil {
		return s, nil
	}
	s, err = NewStatic(layout, &e)
	if err != nil {
		return nil, err
	}
	shared.Lock()
	defer shared.Unlock()
	if shared.m == nil {
		shared.m = map[sharedKey]*Static{}
	}
	if _, ok := shared.m[k]; !ok {
		if len(shared.order) >= maxShared {
			delete(shared.m, shared.order[0])
			shared.order = shared.order[1:]
		}
		shared.order = append(shared.order, k)
	}
	shared.m[k] = s
	return s, nil
}

// layoutHash hashes what a Static is built from: the layout's JSON and the identity of its
// materials' images (shared, never modified, bytes).
func layoutHash(l *plugins.Layout) (uint64, error) {
	h := fnv.New64a()
	if l == nil {
		return 0, nil
	}
	if err := json.NewEncoder(h).Encode(l); err != nil {
		return 0, err
	}
	for _, m := range l.Materials {
		for _, img := range m.Images {
			if len(img) > 0 {
				fmt.Fprintf(h, "%p/%d;", &img[0], len(img))
			}
		}
	}
	return h.Sum64(), nil
}
