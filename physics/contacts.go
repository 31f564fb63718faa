package physics

import "github.com/jakecoffman/cp/v2"

// Contact is a pair of bodies that started or stopped touching, A.ID < B.ID.
type Contact struct {
	A, B *Body
}

// contactLog turns cp's begin/separate callbacks into per-step lists. Body pairs touching
// through several shapes (a polygon's outline segments) count once: a pair starts when its
// first arbiter begins and ends when its last one separates.
type contactLog struct {
	live    map[*cp.Arbiter]pairKey // accepted arbiters
	touches map[pairKey]int
	started []Contact
	ended   []Contact
	space   *Space
}

type pairKey struct{ a, b uint32 }

func (l *contactLog) install(s *Space) {
	l.space = s
	l.live = map[*cp.Arbiter]pairKey{}
	l.touches = map[pairKey]int{}
	h := s.cp.NewCollisionHandler(0, 0)
	h.BeginFunc = l.begin
	h.PreSolveFunc = preSolve
	h.SeparateFunc = l.separate
}

func bodiesOf(arb *cp.Arbiter) (*Body, *Body) {
	sa, sb := arb.Shapes()
	a, _ := sa.UserData.(*Body)
	b, _ := sb.UserData.(*Body)
	return a, b
}

// collides reports whether two bodies interact: a flying body only meets what reaches up to
// its altitude.
func collides(a, b *Body) bool {
	if a == nil || b == nil {
		return true
	}
	if a.Flying || b.Flying {
		return overlapsZ(a, b)
	}
	return true
}

func (l *contactLog) begin(arb *cp.Arbiter, _ *cp.Space, _ any) bool {
	a, b := bodiesOf(arb)
	if !collides(a, b) {
		return false
	}
	if a == nil || b == nil {
		return true
	}
	if a.ID > b.ID {
		a, b = b, a
	}
	k := pairKey{a.ID, b.ID}
	l.live[arb] = k
	l.touches[k]++
	if l.touches[k] == 1 {
		l.started = append(l.started, Contact{A: a, B: b})
	}
	return true
}

func preSolve(arb *cp.Arbiter, _ *cp.Space, _ any) bool {
	return collides(bodiesOf(arb))
}

func (l *contactLog) separate(arb *cp.Arbiter, _ *cp.Space, _ any) {
	k, ok := l.live[arb]
	if !ok {
		return
	}
	delete(l.live, arb)
	l.touches[k]--
	if l.touches[k] > 0 {
		return
	}
	delete(l.touches, k)
	a, b := bodiesOf(arb)
	if a.ID > b.ID {
		a, b = b, a
	}
	l.ended = append(l.ended, Contact{A: a, B: b})
}

// Contacts returns the contacts that started and ended since the previous call, in the order
// the solver found them, and clears the lists. The slices are reused: copy what you keep.
func (s *Space) Contacts() (started, ended []Contact) {
	if k := s.kin; k != nil {
		started, ended = k.started, k.ended
		k.started, k.ended = k.started[:0], k.ended[:0]
		return started, ended
	}
	started, ended = s.contacts.started, s.contacts.ended
	s.contacts.started = s.contacts.started[:0]
	s.contacts.ended = s.contacts.ended[:0]
	return started, ended
}

// Touching reports whether two bodies are in contact now.
func (s *Space) Touching(a, b *Body) bool {
	if s.kin != nil {
		return s.kin.touching(a, b)
	}
	if a.ID > b.ID {
		a, b = b, a
	}
	return s.contacts.touches[pairKey{a.ID, b.ID}] > 0
}

// TouchingPairs returns how many pairs of bodies are in contact now.
func (s *Space) TouchingPairs() int {
	if s.kin != nil {
		return len(s.kin.touch)
	}
	return len(s.contacts.touches)
}
