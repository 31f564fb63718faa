package bridge

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"

	"simgui/app/transport"
	"simgui/app/transport/msgs"
)

// World device names: hashKeys "WorldSimulationWorldClock" and "WorldSimulationWorldControl",
// as CLOiSim's SimulationWorld registers them.
const (
	worldModel = "World"
	worldParts = "SimulationWorld"
)

// openClock opens the world device: Clock, a PUB port sending gz.msgs.WorldStatistics
// (cloisim's WorldStatistics numbers) from /world/<name>/stats, and Control, the simulator's
// REQ side of the reset handshake.
func (b *Bridge) openClock() (*node, error) {
	n, err := b.openNode(DeviceWorld, worldModel, worldParts,
		channel{key: "Clock", kind: kindPub}, channel{key: "Control", kind: kindReq})
	if err != nil {
		return nil, err
	}
	b.control.Store(n.socks["Control"])
	n.run(func() { b.runClock(n, n.socks["Clock"]) })
	n.run(func() { b.runControl(n, n.socks["Control"]) })
	return n, nil
}

// runClock sends the newest world statistics ClockRate times per second of wall time while a
// client subscribes, skipping ticks on which sim time has not changed. While sim time stands
// still (paused, or a lockstep world nobody steps) it repeats the last statistics every
// KeepAlive, with real time advanced and paused as the world is, so clients that end after a
// few seconds of silence stay up. The stats topic is read only while someone subscribes, so the
// world does not build statistics nobody reads; a new world (Retarget) is followed at once.
func (b *Bridge) runClock(n *node, s *socket) {
	period := time.Duration(float64(time.Second) / b.opts.ClockRate)
	var (
		sub      *transport.Subscription
		ticker   *time.Ticker
		tick     <-chan time.Time
		latest   *msgs.WorldStatistics
		sent     time.Duration
		sentAt   time.Time
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
	for {
		var in <-chan transport.Message
		if sub != nil {
			in = sub.C()
		}
		select {
		case <-n.done:
			return
		case <-b.retargeted():
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
		case now := <-tick:
			if latest == nil {
				latest = b.statsNow()
			}
			t := latest.GetSimTime().AsDuration()
			out := latest
			if haveSent && t == sent {
				if now.Sub(sentAt) < b.opts.KeepAlive {
					continue
				}
				out = b.keepAliveStats(latest, now.Sub(sentAt))
				latest = out
			}
			frame, err := s.frameOf(out)
			if err != nil {
				b.log.Debug("bridge: marshal clock", "err", err)
				continue
			}
			s.Publish(frame)
			sent, sentAt, haveSent = t, now, true
		}
	}
}

// statsNow builds the world statistics from the served world's snapshot, for a client that
// subscribes while the world stands still (no step publishes any).
func (b *Bridge) statsNow() *msgs.WorldStatistics {
	snap := b.source().Snapshot()
	return &msgs.WorldStatistics{
		SimTime: msgs.NewTime(snap.SimTime), RealTime: msgs.NewTime(snap.RealTime), Paused: snap.Paused,
		Iterations: snap.Step, ModelCount: int32(len(snap.Models)), Stepping: snap.Lockstep,
		StepSize: msgs.NewTime(time.Duration(snap.StepSize * 1e9)),
	}
}

// keepAliveStats repeats last with real time advanced by elapsed and paused as the world is
// now.
func (b *Bridge) keepAliveStats(last *msgs.WorldStatistics, elapsed time.Duration) *msgs.WorldStatistics {
	out := proto.Clone(last).(*msgs.WorldStatistics)
	out.RealTime = msgs.NewTime(last.GetRealTime().AsDuration() + elapsed)
	out.Paused = b.source().Snapshot().Paused
	return out
}

// runControl announces the resets of the served world to the clients connected to the
// Control port, as CLOiSim does: REQ Param{reset_simulation: true}, then each client's answer
// (its "result" string, or TIMEOUT after ResetTimeout) is logged. A reset AnnounceReset
// announced before it happened is not announced again; the others (the window's, the training
// API's) are announced as they happen.
func (b *Bridge) runControl(n *node, s *socket) {
	var sub *transport.Subscription
	follow := func() {
		if sub != nil {
			sub.Close()
		}
		t := b.target.Load()
		sub = t.bus.Subscribe(transport.ResetTopic(t.src.Snapshot().World), transport.WithQueueLen(4))
	}
	follow()
	defer func() { sub.Close() }()
	for {
		select {
		case <-n.done:
			return
		case <-b.retargeted():
			follow()
		case _, ok := <-sub.C():
			if !ok { // the bus closed: wait for the next world
				select {
				case <-n.done:
					return
				case <-b.retargeted():
					follow()
				}
				continue
			}
			if b.takeAnnounced() || s.peerCount() == 0 {
				continue // told before it happened, or nobody to tell (a training run resets often)
			}
			b.announceReset(s, n.done)
		}
	}
}

// takeAnnounced consumes one reset announced ahead, if any.
func (b *Bridge) takeAnnounced() bool {
	for {
		n := b.announced.Load()
		if n <= 0 {
			return false
		}
		if b.announced.CompareAndSwap(n, n-1) {
			return true
		}
	}
}

// ControlClients returns how many clients are connected to the world Control port.
func (b *Bridge) ControlClients() int {
	s := b.control.Load()
	if s == nil {
		return 0
	}
	return s.peerCount()
}

// AnnounceReset tells the world Control clients of a reset about to happen, as CLOiSim does
// before it resets its devices, and returns their answers (see announceReset). The reset that
// follows is then not announced again, unless ResetFailed says it did not happen.
func (b *Bridge) AnnounceReset() string {
	s := b.control.Load()
	if s == nil || s.peerCount() == 0 {
		return "no client"
	}
	b.announced.Add(1)
	return b.announceReset(s, b.done)
}

// AnnounceMove tells the world Control clients, as of a reset, that the bridge is about to
// serve another world, whose clock starts elsewhere; it waits for their answers, or until
// abort closes. The bridge face calls it before each Retarget.
func (b *Bridge) AnnounceMove(abort <-chan struct{}) {
	if s := b.control.Load(); s != nil && s.peerCount() > 0 {
		b.announceReset(s, abort)
	}
}

// ResetFailed withdraws the announcement of a reset that did not happen, so that the next
// reset is announced.
func (b *Bridge) ResetFailed() { b.takeAnnounced() }

// announceReset sends the reset request to every client of s and returns their answers,
// joined: their result strings, TIMEOUT for those that did not answer, or "no client". It
// stops waiting when abort closes.
func (b *Bridge) announceReset(s *socket, abort <-chan struct{}) string {
	req, _ := proto.Marshal(&msgs.Param{Params: map[string]*msgs.Any{
		"reset_simulation": {Type: msgs.Any_BOOLEAN, Value: &msgs.Any_BoolValue{BoolValue: true}},
	}})
	results := s.Request(req, b.opts.ResetTimeout, abort)
	var parts []string
	failed := false
	for _, r := range results {
		if r.Err != nil {
			parts = append(parts, r.Err.Error())
			failed = true
			continue
		}
		var rep msgs.Param
		if err := proto.Unmarshal(r.Payload, &rep); err != nil {
			parts = append(parts, "unreadable answer")
			continue
		}
		res := rep.GetParams()["result"].GetStringValue()
		if res == "" {
			res = "answered"
		}
		parts = append(parts, res)
	}
	summary := "no client"
	if len(parts) > 0 {
		summary = strings.Join(parts, "; ")
	}
	// Info when a client did not answer; a training run with cloisim_ros connected announces
	// several resets a second, answered, which are Debug.
	level := slog.LevelDebug
	if failed {
		level = slog.LevelInfo
	}
	b.log.Log(context.Background(), level, "bridge: world reset announced", "clients", len(results), "result", summary)
	return summary
}
