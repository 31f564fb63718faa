package starttrack

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// DefaultTimeout is how long a world waits for its plugins, as CLOiSim's Main.
const DefaultTimeout = 30 * time.Second

// Progress is the tracker's state after a change.
type Progress struct {
	// Started, Failed and Total count the expected plugins.
	Started, Failed, Total int
	// Name is the plugin whose report caused this update ("" after Bind).
	Name string
}

// Done reports whether every expected plugin has reported.
func (p Progress) Done() bool { return p.Started+p.Failed == p.Total }

func (p Progress) String() string {
	s := fmt.Sprintf("starting plugins... (%d/%d)", p.Started, p.Total)
	if p.Failed > 0 {
		s += fmt.Sprintf(", %d failed", p.Failed)
	}
	return s
}

// Tracker follows the start of a set of named plugins.
type Tracker struct {
	onProgress func(Progress)

	notifyMu sync.Mutex // serialises onProgress calls
	mu       sync.Mutex
	expected []string
	started  map[string]bool
	failed   map[string]error
	done     chan struct{}
	closed   bool
}

// New returns a tracker expecting nothing yet. onProgress (may be nil) is called after Bind and
// after every report that changes the count of an expected plugin.
func New(onProgress func(Progress)) *Tracker {
	return &Tracker{onProgress: onProgress, started: map[string]bool{}, failed: map[string]error{}, done: make(chan struct{})}
}

// Bind sets the plugins to expect, replacing an earlier set. Reports already received count.
// Names must be non-empty and distinct.
func (t *Tracker) Bind(names ...string) error {
	seen := map[string]bool{}
	for _, n := range names {
		if n == "" {
			return fmt.Errorf("start tracker: empty plugin name")
		}
		if seen[n] {
			return fmt.Errorf("start tracker: plugin %q listed twice", n)
		}
		seen[n] = true
	}
	t.notifyMu.Lock()
	defer t.notifyMu.Unlock()
	t.mu.Lock()
	t.expected = slices.Clone(names)
	if t.closed {
		t.done, t.closed = make(chan struct{}), false
	}
	p := t.progressLocked("")
	t.mu.Unlock()
	t.notify(p)
	return nil
}

// Clear forgets the expected set and every report.
func (t *Tracker) Clear() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.expected = nil
	t.started, t.failed = map[string]bool{}, map[string]error{}
	if t.closed {
		t.done, t.closed = make(chan struct{}), false
	}
}

// Started reports that the plugin called name has started. Repeated reports are ignored.
func (t *Tracker) Started(name string) { t.report(name, nil) }

// Failed reports that the plugin called name could not start.
func (t *Tracker) Failed(name string, err error) {
	if err == nil {
		err = fmt.Errorf("failed to start")
	}
	t.report(name, err)
}

func (t *Tracker) report(name string, err error) {
	t.notifyMu.Lock()
	defer t.notifyMu.Unlock()
	t.mu.Lock()
	if t.started[name] || t.failed[name] != nil {
		t.mu.Unlock()
		return
	}
	if err != nil {
		t.failed[name] = err
	} else {
		t.started[name] = true
	}
	if !slices.Contains(t.expected, name) {
		t.mu.Unlock()
		return
	}
	p := t.progressLocked(name)
	t.mu.Unlock()
	t.notify(p)
}

// progressLocked computes the progress and closes done once everything reported.
func (t *Tracker) progressLocked(name string) Progress {
	p := Progress{Total: len(t.expected), Name: name}
	for _, n := range t.expected {
		if t.started[n] {
			p.Started++
		} else if t.failed[n] != nil {
			p.Failed++
		}
	}
	if p.Done() && !t.closed {
		close(t.done)
		t.closed = true
	}
	return p
}

func (t *Tracker) notify(p Progress) {
	if t.onProgress != nil {
		t.onProgress(p)
	}
}

// Progress returns the current state.
func (t *Tracker) Progress() Progress {
	t.mu.Lock()
	defer t.mu.Unlock()
	p := Progress{Total: len(t.expected)}
	for _, n := range t.expected {
		if t.started[n] {
			p.Started++
		} else if t.failed[n] != nil {
			p.Failed++
		}
	}
	return p
}

// AllStarted reports whether every expected plugin has started (true when none are expected).
func (t *Tracker) AllStarted() bool {
	p := t.Progress()
	return p.Started == p.Total
}

// Done returns a channel closed once every expected plugin has reported, started or failed.
// Bind and Clear replace it.
func (t *Tracker) Done() <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.done
}

// Missing returns the expected plugins that have not reported, in Bind order.
func (t *Tracker) Missing() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for _, n := range t.expected {
		if !t.started[n] && t.failed[n] == nil {
			out = append(out, n)
		}
	}
	return out
}

// StartError says which plugins did not start.
type StartError struct {
	Started, Total int
	// Missing never reported within Timeout; Failed reported an error.
	Missing []string
	Failed  map[string]error
	Timeout time.Duration
}

func (e *StartError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d plugins started", e.Started, e.Total)
	if len(e.Missing) > 0 {
		fmt.Fprintf(&b, "; not started after %v: %s", e.Timeout, strings.Join(e.Missing, ", "))
	}
	if len(e.Failed) > 0 {
		names := make([]string, 0, len(e.Failed))
		for n := range e.Failed {
			names = append(names, n)
		}
		slices.Sort(names)
		b.WriteString("; failed:")
		for i, n := range names {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, " %s (%v)", n, e.Failed[n])
		}
	}
	return b.String()
}

// Wait blocks until every expected plugin has reported, timeout has passed (0 means
// DefaultTimeout) or ctx ends. It returns nil when all started, a *StartError naming the
// plugins that failed or did not start in time, or ctx.Err().
func (t *Tracker) Wait(ctx context.Context, timeout time.Duration) error {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-t.Done():
	case <-timer.C:
	case <-ctx.Done():
		return ctx.Err()
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	e := &StartError{Total: len(t.expected), Timeout: timeout}
	for _, n := range t.expected {
		switch {
		case t.started[n]:
			e.Started++
		case t.failed[n] != nil:
			if e.Failed == nil {
				e.Failed = map[string]error{}
			}
			e.Failed[n] = t.failed[n]
		default:
			e.Missing = append(e.Missing, n)
		}
	}
	if e.Started == e.Total {
		return nil
	}
	return e
}
