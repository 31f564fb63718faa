package markers

import (
	"errors"
	"fmt"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"simgui/app/transport/msgs"
)

// Errors of the Store's commands, for errors.Is.
var (
	// ErrExists is returned by Add when a marker name is already taken.
	ErrExists = errors.New("marker already exists")
	// ErrNoMatch is returned by Modify and Remove when none of their names exist.
	ErrNoMatch = errors.New("no marker matched")
)

// Set is an immutable collection of markers sorted by name. The nil *Set is empty.
type Set struct {
	items []Marker
}

// Len returns the number of markers.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return len(s.items)
}

// All iterates over the markers in name order.
func (s *Set) All() iter.Seq[Marker] {
	return func(yield func(Marker) bool) {
		if s == nil {
			return
		}
		for _, m := range s.items {
			if !yield(m) {
				return
			}
		}
	}
}

// Get returns the marker called name.
func (s *Set) Get(name string) (Marker, bool) {
	if s == nil {
		return Marker{}, false
	}
	i, ok := slices.BinarySearchFunc(s.items, name, func(m Marker, n string) int { return strings.Compare(m.Name(), n) })
	if !ok {
		return Marker{}, false
	}
	return s.items[i], true
}

// Filter selects markers in List, by name as CLOiSim does: Group is a name prefix, ID (when 0 or
// more) must appear as "!%!id!%!", Kind is a name suffix. The zero Filter with ID -1 matches all;
// use NoFilter.
type Filter struct {
	Group string
	ID    int
	Kind  string
}

// NoFilter matches every marker.
var NoFilter = Filter{ID: -1}

// Match reports whether the marker called name passes f.
func (f Filter) Match(name string) bool {
	if f.Group != "" && !strings.HasPrefix(name, f.Group) {
		return false
	}
	if f.ID > -1 && !strings.Contains(name, Delimiter+strconv.Itoa(f.ID)+Delimiter) {
		return false
	}
	if f.Kind != "" && !strings.HasSuffix(name, f.Kind) {
		return false
	}
	return true
}

// Store holds the current markers. It is safe for concurrent use.
type Store struct {
	onChange func(*Set)

	// changeMu serialises changes and their callbacks, so callbacks see sets in change order;
	// mu guards the state and is never held during a callback.
	changeMu sync.Mutex
	mu       sync.Mutex
	byName   map[string]Marker
	set      *Set
}

// NewStore returns an empty store. onChange (may be nil) receives the new set after every
// successful Add, Modify or Remove.
func NewStore(onChange func(*Set)) *Store {
	return &Store{onChange: onChange, byName: map[string]Marker{}}
}

// Set returns the current markers.
func (s *Store) Set() *Set {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.set
}

// Add adds markers. It adds none of them if one is invalid, if any name exists already
// (ErrExists) or repeats within ms, or if the store would hold more than MaxMarkers
// (ErrTooMany).
func (s *Store) Add(ms []Marker) error {
	for _, m := range ms {
		if err := m.validate(); err != nil {
			return err
		}
	}
	return s.change(func() error {
		seen := map[string]bool{}
		for _, m := range ms {
			n := m.Name()
			if _, ok := s.byName[n]; ok || seen[n] {
				return fmt.Errorf("add %s: %w", n, ErrExists)
			}
			seen[n] = true
		}
		if n := len(s.byName) + len(ms); n > MaxMarkers {
			return fmt.Errorf("add: %w: %d markers would be over the limit of %d", ErrTooMany, n, MaxMarkers)
		}
		for _, m := range ms {
			s.byName[m.Name()] = m
		}
		return nil
	})
}

// Modify replaces the markers whose names exist and skips the others; it fails with ErrNoMatch
// only if none existed. Invalid markers fail the whole call.
func (s *Store) Modify(ms []Marker) (int, error) {
	for _, m := range ms {
		if err := m.validate(); err != nil {
			return 0, err
		}
	}
	n := 0
	err := s.change(func() error {
		for _, m := range ms {
			if _, ok := s.byName[m.Name()]; ok {
				s.byName[m.Name()] = m
				n++
			}
		}
		if n == 0 {
			return fmt.Errorf("modify: %w", ErrNoMatch)
		}
		return nil
	})
	return n, err
}

// Remove deletes the markers with the given names; it fails with ErrNoMatch only if none existed.
func (s *Store) Remove(names []string) (int, error) {
	n := 0
	err := s.change(func() error {
		for _, name := range names {
			if _, ok := s.byName[name]; ok {
				delete(s.byName, name)
				n++
			}
		}
		if n == 0 {
			return fmt.Errorf("remove: %w", ErrNoMatch)
		}
		return nil
	})
	return n, err
}

// List returns the markers passing f, in name order.
func (s *Store) List(f Filter) []Marker {
	var out []Marker
	for m := range s.Set().All() {
		if f.Match(m.Name()) {
			out = append(out, m)
		}
	}
	return out
}

// change runs fn under the locks; when it succeeds the set is rebuilt and onChange called.
func (s *Store) change(fn func() error) error {
	s.changeMu.Lock()
	defer s.changeMu.Unlock()
	s.mu.Lock()
	if err := fn(); err != nil {
		s.mu.Unlock()
		return err
	}
	items := make([]Marker, 0, len(s.byName))
	for _, m := range s.byName {
		items = append(items, m)
	}
	slices.SortFunc(items, func(a, b Marker) int { return strings.Compare(a.Name(), b.Name()) })
	set := &Set{items: items}
	s.set = set
	s.mu.Unlock()
	if s.onChange != nil {
		s.onChange(set)
	}
	return nil
}

// Proto converts the set to a gz.msgs.Marker_V stamped with sim time stamp: ns is the group,
// id the marker's ID, lines are LINE_LIST with two points and their width in scale.x, shapes
// sit at pose with scale = size, text carries its string and font size in scale.
func (s *Set) Proto(stamp time.Duration) *msgs.Marker_V {
	out := &msgs.Marker_V{Header: &msgs.Header{Stamp: msgs.NewTime(stamp)}}
	for m := range s.All() {
		k, err := LookupKind(m.Kind)
		if err != nil {
			continue // validated on the way in
		}
		c := &msgs.Color{R: m.RGBA.R, G: m.RGBA.G, B: m.RGBA.B, A: m.RGBA.A}
		pm := &msgs.Marker{
			Action:   msgs.Marker_ADD_MODIFY,
			Ns:       m.Group,
			Id:       uint64(m.ID),
			Type:     k.Proto,
			Material: &msgs.Material{Ambient: c, Diffuse: c},
			Scale:    &msgs.Vector3D{X: m.Size, Y: m.Size, Z: m.Size},
			Text:     m.Text,
			Parent:   m.Following,
		}
		if k.Proto == msgs.Marker_LINE_LIST {
			pm.Point = []*msgs.Vector3D{vec(m.Point), vec(m.End)}
		} else {
			pm.Pose = &msgs.Pose{Position: vec(m.Point), Orientation: &msgs.Quaternion{W: 1}}
		}
		out.Marker = append(out.Marker, pm)
	}
	return out
}

func vec(v Vec3) *msgs.Vector3D { return &msgs.Vector3D{X: v.X, Y: v.Y, Z: v.Z} }

// finite reports whether every value is a finite number.
func finite(vs ...float64) bool {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}
