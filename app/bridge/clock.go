package bridge

import (
	"time"

	"simgui/app/transport"
	"simgui/app/transport/msgs"
)

// World clock names: hashKey "WorldSimulationWorldClock", as CLOiSim's SimulationWorld.
const (
	worldModel = "World"
	worldParts = "SimulationWorld"
)

// openClock opens the world clock: a PUB port sending gz.msgs.WorldStatistics (cloisim's
// WorldStatistics numbers) from /world/<name>/stats.
func (b *Bridge) openClock() (*node, error) {
	n, err := b.openNode(DeviceWorld, worldModel, worldParts, channel{key: "Clock", kind: kindPub})
	if err != nil {
		return nil, err
	}
	s := n.socks["Clock"]
	n.run(func() { b.runClock(n, s) })
	return n, nil
}

// runClock sends the newest world statistics ClockRate times per second of wall time while a
// client subscribes, skipping ticks on which sim time has not changed (paused, lockstep). A
// client that subscribes gets the current time at the next tick even if it is not moving.
// The stats topic is read only while someone subscribes, so the world does not build
// statistics nobody reads.
func (b *Bridge) runClock(n *node, s *socket) {
	period := time.Duration(float64(time.Second) / b.opts.ClockRate)
	var (
		sub      *transport.Subscription
		ticker   *time.Ticker
		tick     <-chan time.Time
		latest   *msgs.WorldStatistics
		sent     time.Duration
		haveSent bool
	)
	stop := func() {
		if sub != nil {
			sub.Close()
			ticker.Stop()
		}
		sub, ticker, tick, latest = nil, nil, nil, nil
	}
	defer stop()
	for {
		var in <-chan transport.Message
		if sub != nil {
			in = sub.C()
		}
		follow := func() {
			switch want := s.Subscribed(); {
			case want && sub == nil:
				t := b.target.Load()
				sub = t.bus.Subscribe(transport.StatsTopic(t.src.Snapshot().World), transport.WithQueueLen(4))
				ticker = time.NewTicker(period)
				tick = ticker.C
				haveSent = false
			case !want && sub != nil:
				stop()
			}
		}
		select {
		case <-n.done:
			return
		case <-b.retarget:
			// Another world: its own clock from the next tick, even if its time equals the
			// last one sent.
			stop()
			follow()
		case <-s.Demand():
			follow()
		case m, ok := <-in:
			if !ok { // the bus closed
				stop()
				continue
			}
			if ws, ok := m.Msg.(*msgs.WorldStatistics); ok {
				latest = ws
			}
		case <-tick:
			if latest == nil {
				continue
			}
			t := latest.GetSimTime().AsDuration()
			if haveSent && t == sent {
				continue
			}
			frame, err := s.frameOf(latest)
			if err != nil {
				b.log.Debug("bridge: marshal clock", "err", err)
				continue
			}
			s.Publish(frame)
			sent, haveSent = t, true
		}
	}
}
