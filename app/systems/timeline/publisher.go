package timeline

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"sort"
	"time"

	"simgui/app/events"
	"simgui/app/systems"
	"simgui/app/transport"
	"simgui/app/world"
)

// ID is the registry name; Aliases are the names Gazebo snippets use.
const ID = "systems.timeline_publisher"

// Aliases resolve to ID: the seed's plugin name and file name, and the fully qualified class
// name Gazebo worlds often give.
var Aliases = []string{"systems::TimelinePublisher", "gz-sim-timeline-publisher-system", "gz::sim::systems::TimelinePublisher"}

func init() {
	systems.Register(systems.Module{
		ID: ID, Aliases: Aliases,
		New: func() any { return &Publisher{} },
		Doc: "publishes messages and calls services at keyframes on sim time, optionally looping",
	})
}

// Publisher is the systems.timeline_publisher system (Gazebo's TimelinePublisher): it
// publishes messages and calls services at keyframes on simulation time. Its parameters are
// Config's, from YAML or a pasted <plugin> element. See the package doc for when keyframes
// fire.
//
// Init, Step, Reset, AttachModel, ConfigureXML and Validate run on the loop goroutine (or
// before the world exists); service calls run on the Publisher's worker goroutine; Stats may be
// called from any goroutine.
type Publisher struct {
	Config `yaml:",inline"`

	model string // attached model, "" = the world
	plan  *plan
	bus   *transport.Bus
	log   *slog.Logger
	work  *worker // nil without services
	n     counters

	// Playing state, loop goroutine only.
	running bool          // the timeline has started (and not restarted since)
	origin  time.Duration // sim time at which the current run started
	lastEnd time.Duration // end of the step interval seen last
	seen    *world.Model  // the attached model the run belongs to
	done    bool          // a timeline without loop has fired its last keyframe
	base    int64         // cycle number of this run's cycle 0
	maxTag  int64         // highest cycle number used so far
}

// AttachModel ties the timeline to a model: it starts on the first step on which the model
// exists, and starts over when a model of that name appears again.
func (p *Publisher) AttachModel(name string) error {
	if name == "" {
		return errors.New("attach: empty model name")
	}
	p.model = name
	return nil
}

// Model returns the attached model's name, "" when the timeline belongs to the world.
func (p *Publisher) Model() string { return p.model }

// Validate compiles the configuration: parses every message, sorts the keyframes and fixes
// the period. Errors name the keyframe.
func (p *Publisher) Validate() error {
	pl, err := p.Config.compile()
	if err != nil {
		return err
	}
	p.plan = pl
	return nil
}

// Period returns the effective cycle length (after defaulting and extension); Validate first.
func (p *Publisher) Period() time.Duration {
	if p.plan == nil {
		return 0
	}
	return p.plan.period
}

// Init readies the timeline on w. It fails without a transport bus, or when an output's
// topic is already declared with another type. The timeline itself starts on the next step.
func (p *Publisher) Init(w *world.World) error {
	if p.plan == nil {
		if err := p.Validate(); err != nil {
			return err
		}
	}
	p.log = w.Logger()
	p.running = false
	p.bus = w.Bus()
	if p.plan.outs+p.plan.calls == 0 {
		return nil
	}
	if p.bus == nil {
		return errors.New("the world has no transport bus to publish and call services on: give it one (world.Config.Bus)")
	}
	types := map[string]string{}
	for _, t := range p.bus.Topics() {
		types[t.Name] = t.Type
	}
	for _, f := range p.plan.frames {
		for _, o := range f.outs {
			if have := types[o.topic]; have != "" && have != o.typ {
				return fmt.Errorf("%s: the topic carries %s, not %s", o.label, have, o.typ)
			}
		}
	}
	if p.plan.calls > 0 && p.work == nil {
		p.work = startWorker(p.bus, p.log, &p.n)
	}
	return nil
}

// Step plays the part of the timeline that this call covers: the dt sim seconds up to the end
// of this step, which with a system frequency is every step since the last call (see the
// package doc).
func (p *Publisher) Step(w *world.World, dt float64) {
	p.reportCalls(w)
	stepNs := time.Duration(math.Round(w.StepSize() * 1e9))
	end := w.SimTime() + stepNs
	start := max(end-time.Duration(math.Round(dt*1e9)), 0)
	origin := start
	if p.model != "" {
		m := w.Model(p.model)
		if m != p.seen {
			p.seen, p.running = m, false
		}
		if m == nil {
			p.lastEnd = end
			return
		}
		// A model spawned inside the interval starts its timeline when it appeared.
		origin = max(origin, time.Duration(m.SpawnStep)*stepNs)
	}
	if p.running && start < p.lastEnd {
		p.running = false // sim time went back
	}
	lo := p.lastEnd - p.origin // fire keyframes in (lo, hi]
	if !p.running {
		p.running, p.done, p.origin = true, false, origin
		p.base = p.maxTag + 1
		lo = -1 // the first step covers time 0 itself
	}
	hi := end - p.origin
	p.lastEnd = end
	if p.done {
		return
	}
	if !p.plan.loop {
		p.fire(w, p.base, lo, hi, end)
		p.done = hi >= p.plan.last
		return
	}
	P := p.plan.period
	last := hi / P // the cycle hi is in (a cycle's end is the next one's start)
	first := max(lo, 0) / P
	if hi-lo > P {
		first = last // the step covers more than one cycle: only the latest fires
	}
	if last > 0 && last*P > lo && p.work != nil {
		// A cycle started in this step: calls from before the previous cycle are stale.
		p.dropped(w, p.work.dropBefore(p.base+int64(last)-1), "a new cycle started")
	}
	for c := first; c <= last; c++ {
		p.fire(w, p.base+int64(c), lo-c*P, hi-c*P, end)
	}
}

// reportCalls emits ACTION_COMPLETED for the service calls the worker made since the last
// step: events are emitted on the loop goroutine only.
func (p *Publisher) reportCalls(w *world.World) {
	if p.work == nil {
		return
	}
	for _, f := range p.work.takeFinished() {
		w.EndAction(f.action, f.err)
	}
}

// dropped completes the actions of calls dropped before they were made.
func (p *Publisher) dropped(w *world.World, calls []pending, why string) {
	for _, c := range calls {
		w.EndAction(c.action, fmt.Errorf("dropped before it was made: %s", why))
	}
}

// fire publishes the outputs and queues the calls of the keyframes at times in (lo, hi] of a
// cycle, in order; each queued call is an action (ACTION_STARTED now). stamp is the sim time
// at the end of the step.
func (p *Publisher) fire(w *world.World, cycle int64, lo, hi, stamp time.Duration) {
	fr := p.plan.frames
	i := sort.Search(len(fr), func(i int) bool { return fr[i].at > lo })
	for ; i < len(fr) && fr[i].at <= hi; i++ {
		f := &fr[i]
		for j := range f.outs {
			p.publish(&f.outs[j], stamp)
		}
		for j := range f.calls {
			if p.work != nil { // nil only once the system was shut down
				c := &f.calls[j]
				a := w.BeginAction(events.ActionServiceCall, c.name, ID)
				p.work.enqueue(pending{c: c, cycle: cycle, action: a})
			}
		}
		p.maxTag = max(p.maxTag, cycle)
	}
}

func (p *Publisher) publish(o *output, stamp time.Duration) {
	if err := p.bus.Publish(o.topic, o.msg, stamp); err != nil {
		p.n.publishErrors.Add(1)
		if !o.warned {
			o.warned = true
			p.log.Warn("timeline: publish failed (logged once per output)", "output", o.label, "err", err)
		}
		return
	}
	p.n.published.Add(1)
}

// Reset starts the timeline over on the next step and drops the calls still waiting.
func (p *Publisher) Reset(w *world.World) {
	p.running = false
	if p.work != nil {
		p.reportCalls(w)
		p.dropped(w, p.work.dropAll(), "the world was reset")
	}
}

// Shutdown drops the calls still waiting and waits for the call in progress, at most its
// timeout.
func (p *Publisher) Shutdown() error {
	if p.work != nil {
		p.work.stop()
		p.work = nil
	}
	return nil
}

// Stats returns the counters; safe from any goroutine.
func (p *Publisher) Stats() Stats {
	return Stats{
		Published: p.n.published.Load(), PublishErrors: p.n.publishErrors.Load(),
		Calls: p.n.calls.Load(), CallErrors: p.n.callErrors.Load(), Dropped: p.n.dropped.Load(),
	}
}

var (
	_ world.Initer          = (*Publisher)(nil)
	_ world.Stepper         = (*Publisher)(nil)
	_ world.Resetter        = (*Publisher)(nil)
	_ world.Shutdowner      = (*Publisher)(nil)
	_ world.ModelAttacher   = (*Publisher)(nil)
	_ systems.Validator     = (*Publisher)(nil)
	_ systems.XMLConfigurer = (*Publisher)(nil)
)
