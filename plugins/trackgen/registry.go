package trackgen

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"simgui/plugins"
)

// Generator builds a track's layout. It must not modify t, and must return the same Layout for
// the same t, params and seed. The layout holds t's elements as well as the generator's own,
// so that a user's addition to a generated track is in its world.
type Generator interface {
	Generate(t *plugins.TrackDescriptor, p Params, seed int64) (*plugins.Layout, error)
}

// withOwn returns a generator's elements followed by copies of the descriptor's own: a
// generated track's elements (a box, a sign, a marker) are laid on top of the generator's
// walls, where the descriptor puts them.
func withOwn(generated []plugins.Element, t *plugins.TrackDescriptor) []plugins.Element {
	if t == nil || len(t.Elements) == 0 {
		return generated
	}
	return append(generated, t.Clone().Elements...)
}

// Func adapts a function to Generator.
type Func func(t *plugins.TrackDescriptor, p Params, seed int64) (*plugins.Layout, error)

// Generate calls f.
func (f Func) Generate(t *plugins.TrackDescriptor, p Params, seed int64) (*plugins.Layout, error) {
	return f(t, p, seed)
}

var registry = struct {
	sync.RWMutex
	m map[string]Generator
}{m: map[string]Generator{}}

// Register adds a generator under name and declares the name, and how much of a
// descriptor's floor it takes, to plugins' validation. It panics on an empty name, a nil
// generator or a duplicate: all programming errors found at init.
func Register(name string, g Generator, floor plugins.FloorUse) {
	if name == "" || g == nil {
		panic("trackgen: Register needs a name and a generator")
	}
	registry.Lock()
	defer registry.Unlock()
	if _, dup := registry.m[name]; dup {
		panic("trackgen: duplicate generator " + name)
	}
	registry.m[name] = g
	plugins.DeclareGenerator(name, floor)
}

// Lookup returns the generator registered under name, or an error listing the known names.
func Lookup(name string) (Generator, error) {
	registry.RLock()
	g, ok := registry.m[name]
	registry.RUnlock()
	if !ok {
		return nil, fmt.Errorf("unknown track generator %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	return g, nil
}

// Names returns the registered generator names, sorted.
func Names() []string {
	registry.RLock()
	defer registry.RUnlock()
	out := make([]string, 0, len(registry.m))
	for n := range registry.m {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}
