// Package clock is the systems.world_clock system: it publishes a world's time on its
// transport bus, as gz-sim's world does, after every step that someone listens to and when the
// world pauses, resumes or resets:
//
//   - /clock (gz.msgs.Clock): sim time and the loop's real time;
//   - /world/<world>/stats (gz.msgs.WorldStatistics): sim and real time, paused, iterations,
//     model count, real-time factor, step size and whether the world runs in lockstep;
//   - /world/<world>/reset (gz.msgs.Int64): the seed, at every reset.
//
// Every world the app builds has it. It runs on the loop goroutine; it has no parameters.
package clock

import (
	"errors"
	"math"
	"time"

	"simgui/app/events"
	"simgui/app/systems"
	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/app/world"
)

// ID is the registry name.
const ID = "systems.world_clock"

func init() {
	systems.Register(systems.Module{
		ID:  ID,
		New: func() any { return &Clock{} },
		Doc: "publishes /clock and /world/<name>/stats on sim time",
	})
}

// Clock is the systems.world_clock system.
type Clock struct {
	bus     *transport.Bus
	events  *events.Bus
	handles []events.Handle
	// statsTopic is the world's statistics topic, named once per world name.
	statsWorld, statsTopic string
}

// Init finds the bus and follows pause, resume and reset.
func (c *Clock) Init(w *world.World) error {
	c.bus = w.Bus()
	if c.bus == nil {
		return errors.New("the world has no transport bus (world.Config.Bus)")
	}
	c.events = w.Events()
	// Declared, so that the bus lists them (a live view offers them) before anyone subscribes:
	// they are published only while someone does.
	c.bus.DeclareBuiltin(transport.ClockTopic, transport.StatsTopic(w.Name()), transport.ResetTopic(w.Name()))
	publish := func(events.Event) { c.publish(w) }
	for _, name := range []events.Name{events.Paused, events.Resumed} {
		c.handles = append(c.handles, c.events.On(name, publish, 0))
	}
	c.handles = append(c.handles, c.events.On(events.Reset, func(ev events.Event) {
		// The clock first: it going back is where a reader (a recording) starts the new
		// episode, and the reset notice belongs to that episode.
		c.publish(w)
		if topic := transport.ResetTopic(w.Name()); c.bus.HasSubscribers(topic) {
			seed := ev.Data.(events.ResetInfo).Seed
			c.bus.Publish(topic, &msgs.Int64{Data: seed}, w.SimTime())
		}
	}, 0))
	return nil
}

// PostStep publishes the time after the step.
func (c *Clock) PostStep(w *world.World) { c.publish(w) }

// Shutdown stops following the world's events.
func (c *Clock) Shutdown() error {
	for _, h := range c.handles {
		c.events.Off(h)
	}
	c.handles = nil
	return nil
}

func (c *Clock) publish(w *world.World) {
	clock := c.bus.HasSubscribers(transport.ClockTopic)
	if c.statsTopic == "" || c.statsWorld != w.Name() {
		c.statsWorld, c.statsTopic = w.Name(), transport.StatsTopic(w.Name())
	}
	stats := c.statsTopic
	withStats := c.bus.HasSubscribers(stats)
	if !clock && !withStats {
		return
	}
	var st world.Status
	if l := w.Loop(); l != nil {
		st = l.Status()
	}
	sim := w.SimTime()
	if clock {
		c.bus.Publish(transport.ClockTopic, &msgs.Clock{Sim: msgs.NewTime(sim), Real: msgs.NewTime(st.RealTime)}, sim)
	}
	if withStats {
		c.bus.Publish(stats, &msgs.WorldStatistics{
			SimTime:        msgs.NewTime(sim),
			RealTime:       msgs.NewTime(st.RealTime),
			Paused:         st.Paused,
			Iterations:     w.StepCount(),
			ModelCount:     int32(len(w.Models())),
			RealTimeFactor: st.RealTimeFactor,
			StepSize:       msgs.NewTime(time.Duration(math.Round(w.StepSize() * 1e9))),
			Stepping:       st.Lockstep,
		}, sim)
	}
}

var (
	_ world.Initer      = (*Clock)(nil)
	_ world.PostStepper = (*Clock)(nil)
	_ world.Shutdowner  = (*Clock)(nil)
)
