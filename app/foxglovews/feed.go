package foxglovews

import (
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	"simgui/app"
	"simgui/app/foxview"
	"simgui/app/transport"
	"simgui/app/transport/msgs"
)

// feedQueue is how many messages a feed's bus subscription holds: a live view wants the
// latest, so a slow feed drops the oldest.
const feedQueue = 4

// sceneCheck is how often a scene feed looks whether robots came or went.
const sceneCheck = time.Second

// channel is an advertised channel. Its fields are guarded by Server.mu.
type channel struct {
	id   uint32
	spec spec
	adv  advertised
	// subs maps each subscribed client to its subscription ID.
	subs map[*client]uint32
	// stop is closed to stop the running feed (nil when none runs).
	stop chan struct{}
	// latched is the last scene sent, for clients that subscribe later.
	latched []byte
}

// subscribe adds client c as subscription id, starting the feed for the first, and sends it
// the latched scene. Server.mu is held.
func (ch *channel) subscribe(s *Server, c *client, id uint32) {
	ch.subs[c] = id
	if ch.latched != nil {
		c.sendData(id, uint64(time.Now().UnixNano()), ch.latched)
	}
	ch.startFeed(s)
}

// unsubscribe removes client c. The feed goes on until its next message, where it retires if
// nobody has subscribed again (wanted): stopping it here, and starting another at the next
// subscribe, let a client that subscribed and unsubscribed in a loop start feeds faster than
// the stopped ones could leave the world's bus, 50,000 of them on one topic, which slowed
// every publication of the world. Server.mu is held.
func (ch *channel) unsubscribe(c *client) {
	delete(ch.subs, c)
}

// startFeed starts the channel's feed from the server's world when someone is subscribed
// and none runs (one that nobody has wanted since its last message counts: it serves the
// newcomer). Server.mu is held.
func (ch *channel) startFeed(s *Server) {
	if ch.stop != nil || len(ch.subs) == 0 || s.world == nil || s.closed {
		return
	}
	stop := make(chan struct{})
	ch.stop = stop
	// The feed takes the spec and the world as they are now: a world change replaces both
	// under the lock while a stopped feed may still be finishing.
	sp, a := ch.spec, s.world
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		if sp.kind == scene {
			s.feedScene(ch, sp, a, stop)
		} else {
			s.feed(ch, sp, a, stop)
		}
	}()
}

// wanted reports whether the feed that stop belongs to goes on: it is still the channel's and
// someone subscribes to it. A feed nobody subscribes to retires here, so that its topic's
// publisher, which may publish only while someone listens (a camera draws only for someone),
// stops.
func (s *Server) wanted(ch *channel, stop chan struct{}) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch.stop != stop {
		return false
	}
	if len(ch.subs) == 0 {
		ch.stop = nil // the feed returns: nobody else waits on stop
		ch.latched = nil
		return false
	}
	return true
}

// stopFeed stops the running feed, if any, without waiting for it. Server.mu is held.
func (ch *channel) stopFeed() {
	if ch.stop != nil {
		close(ch.stop)
		ch.stop = nil
	}
}

// feed sends the channel's messages from world a's bus, as they are or viewed, until stop.
// It runs on its own goroutine: it reads the world's bus, never the world.
func (s *Server) feed(ch *channel, sp spec, a *app.Sim, stop chan struct{}) {
	sub := a.Bus.Subscribe(sp.source, transport.WithQueueLen(feedQueue))
	defer sub.Close()
	v := foxview.Viewer{World: a.Loop.Snapshot}
	var buf []byte
	for {
		var m transport.Message
		var ok bool
		select {
		case <-stop:
			return
		case m, ok = <-sub.C():
			if !ok {
				return
			}
		}
		if !s.wanted(ch, stop) {
			return
		}
		now := uint64(time.Now().UnixNano())
		msg := m.Msg
		switch sp.kind {
		case view:
			v.SetStamp(now)
			var err error
			if msg, _, err = v.View(m); err != nil || msg == nil {
				continue // a message of another kind, or sizes that do not match its data
			}
		case calibration:
			v.SetStamp(now)
			if msg, _ = v.Calibration(m); msg == nil {
				continue // not a camera's frame, or a camera the world no longer has
			}
		}
		var err error
		if buf, err = (proto.MarshalOptions{}).MarshalAppend(buf[:0], msg); err != nil {
			s.log.Warn("live view cannot encode a message", "topic", sp.topic, "err", err)
			continue
		}
		s.deliver(ch, stop, now, buf, false)
	}
}

// feedScene sends world a's scene at once and again when the robots (or pushable boxes) in its
// pose list are others, looked at once every sceneCheck, until stop. The last one sent is
// latched for later subscribers.
func (s *Server) feedScene(ch *channel, sp spec, a *app.Sim, stop chan struct{}) {
	sub := a.Bus.Subscribe(sp.source, transport.WithQueueLen(1))
	defer sub.Close()
	var robots map[string]bool
	warned := false
	send := func() {
		snap := a.Loop.Snapshot()
		if snap == nil {
			return
		}
		sc, err := foxview.Scene(snap)
		if err != nil {
			if !warned {
				warned = true
				s.log.Warn("live view without the world's scene", "world", a.ID, "err", err)
			}
			return
		}
		robots = foxview.SceneRobots(sc)
		now := uint64(time.Now().UnixNano())
		foxview.StampScene(sc, timestamppb.New(time.Unix(0, int64(now))))
		data, err := proto.Marshal(sc)
		if err != nil {
			s.log.Warn("live view cannot encode the scene", "err", err)
			return
		}
		s.deliver(ch, stop, now, data, true)
	}
	send()
	var last time.Time
	for {
		var m transport.Message
		var ok bool
		select {
		case <-stop:
			return
		case m, ok = <-sub.C():
			if !ok {
				return
			}
		}
		if !s.wanted(ch, stop) {
			return
		}
		if time.Since(last) < sceneCheck {
			continue
		}
		last = time.Now()
		if list, ok := m.Msg.(*msgs.Pose_V); ok && !foxview.SameRobots(robots, list) {
			send()
		}
	}
}

// deliver sends a message of ch to each of its subscribers, unless the feed that made it has
// been stopped (another took its place). latch keeps it for later subscribers. The subscribers
// share one copy of the payload, made before the lock is taken.
func (s *Server) deliver(ch *channel, stop chan struct{}, ns uint64, payload []byte, latch bool) {
	shared := append([]byte(nil), payload...)
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch.stop != stop {
		return
	}
	if latch {
		ch.latched = shared
	}
	for c, id := range ch.subs {
		c.sendData(id, ns, shared)
	}
}
