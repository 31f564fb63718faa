package sensors

import (
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/protobuf/proto"

	"simgui/app/transport"
	"simgui/app/transport/msgs"
)

// Topic returns the topic a sensor publishes on: /model/<model>/sensor/<sensorID>/<kind>, kind
// being a topic kind (TopicImage, TopicScan, ...).
func Topic(model, sensorID, kind string) string {
	return "/model/" + model + "/sensor/" + sensorID + "/" + kind
}

// Header returns a message header stamped with sim time.
func Header(stamp time.Duration) *msgs.Header { return &msgs.Header{Stamp: msgs.NewTime(stamp)} }

// floatsMsg is a Float_V with its header, stamp and up to floatsInline values in one
// allocation, where four made each reading: scalar sensors emit one at every step of every
// world, and their garbage was most of a training step's.
type floatsMsg struct {
	msg  msgs.Float_V
	hdr  msgs.Header
	time msgs.Time
	data [floatsInline]float32
}

const floatsInline = 4

// Floats returns a Float_V of vals (as float32) whose header is stamped with sim time.
func Floats(stamp time.Duration, vals ...float64) *msgs.Float_V {
	f := new(floatsMsg)
	f.time.SetDuration(stamp)
	f.hdr.Stamp = &f.time
	f.msg.Header = &f.hdr
	data := f.data[:0]
	if len(vals) > floatsInline {
		data = make([]float32, 0, len(vals))
	}
	for _, v := range vals {
		data = append(data, float32(v))
	}
	f.msg.Data = data
	return &f.msg
}

// Reading is one output of a sensor: the message published on its topic, with the step and the
// sim time it was taken at. Msg is shared with subscribers and must not be modified.
type Reading struct {
	Step  uint64
	Stamp time.Duration
	Msg   proto.Message
}

// Output is where a sensor's readings go: its topic on the bus (when someone subscribes), the
// sensor dump (when one is running) and the latest-reading slot (Latest). Its methods are safe
// for concurrent use, so image sensors emit from their worker goroutines.
type Output struct {
	// Model, Sensor and Kind (the topic kind) name the output; Topic is the full topic.
	Model, Sensor, Kind, Topic string
	// Episode counts the world resets before the sensor was built (dump file names).
	Episode int
	// DepthRange is the [near, far] range in metres a depth image is false-coloured over in
	// dumps; set by depth sensors.
	DepthRange [2]float64

	sys     *System
	mu      sync.Mutex
	latest  Reading
	count   atomic.Uint64
	dropped atomic.Uint64
}

// Wanted reports whether a reading would go anywhere but the latest slot: a subscriber to the
// topic or a running dump. Image sensors skip rendering when it is false.
func (o *Output) Wanted() bool {
	s := o.sys
	return s.dump.Load() != nil || s.opts.Bus != nil && s.opts.Bus.HasSubscribers(o.Topic)
}

// Emit delivers a reading: it becomes the latest, is published when the topic has subscribers
// and written when a dump runs. Readings of one sensor must be emitted in order.
func (o *Output) Emit(r Reading) {
	o.mu.Lock()
	o.latest = r
	o.mu.Unlock()
	o.count.Add(1)
	s := o.sys
	if b := s.opts.Bus; b != nil && b.HasSubscribers(o.Topic) {
		if g := s.gate.Load(); g != nil {
			// One reading at a time through the gate: readings that all passed it at once
			// (a fleet's cameras' workers) would overrun what it waited for.
			s.gateMu.Lock()
			(*g)()
			o.publish(b, r)
			s.gateMu.Unlock()
		} else {
			o.publish(b, r)
		}
	}
	if d := s.dump.Load(); d != nil {
		d.write(o, r)
	}
}

func (o *Output) publish(b *transport.Bus, r Reading) {
	if err := b.Publish(o.Topic, r.Msg, r.Stamp); err != nil {
		o.sys.warnOnce(o.Topic, "sensor reading not published", err)
	}
}

// Latest returns the most recent reading, if any.
func (o *Output) Latest() (Reading, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.latest, o.latest.Msg != nil
}

// Count returns how many readings were emitted.
func (o *Output) Count() uint64 { return o.count.Load() }

// Dropped returns how many readings were dropped because their consumer fell behind.
func (o *Output) Dropped() uint64 { return o.dropped.Load() }

// noteDrop counts a reading dropped because the sensor's worker fell behind. The first drop
// of a topic is logged: a ROS client or a recording otherwise just sees a lower rate than the
// sensor's, without a word as to why.
func (o *Output) noteDrop() {
	o.dropped.Add(1)
	if o.sys != nil {
		o.sys.warnOnceWith("dropped "+o.Topic, "sensor readings dropped: its frames take longer to draw than its rate allows (a headless run's summary counts them)",
			"topic", o.Topic)
	}
}
