package timeline

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"simgui/app/transport"
	"simgui/app/transport/msgs"
)

// DefaultTimeout is a service call's timeout when Service.Timeout is 0, and MaxTimeout the
// longest one may be, in milliseconds: one hour (larger ones overflowed into no timeout at
// all, and removing the system waits for a call's timeout).
const (
	DefaultTimeout = 1000
	MaxTimeout     = 3_600_000
)

// Config is the timeline as written in a scenario (YAML) or in a Gazebo <plugin> element (XML,
// see Publisher.ConfigureXML). Parameters:
//
//   - loop (bool, default false): start over after period seconds.
//   - period (seconds, default 0 = the time of the last keyframe): the length of one cycle. A
//     period shorter than the last keyframe is extended to it. With the default, the last
//     keyframe and the next cycle's first fire on the same step. Looping needs a period of at least 1 ns.
//   - keyframes (list, at least one): points on the timeline, in any order; keyframes with the
//     same time fire in the order listed.
type Config struct {
	Loop      bool       `yaml:"loop"`
	Period    float64    `yaml:"period"`
	Keyframes []Keyframe `yaml:"keyframes"`
}

// Keyframe is a point on the timeline:
//
//   - time (seconds ≥ 0, required in XML, default 0 in YAML): since the start of the cycle.
//   - outputs: messages published, in order, on the step the keyframe fires.
//   - services: calls queued, in order, to the service worker on that step.
type Keyframe struct {
	Time     float64   `yaml:"time"`
	Outputs  []Output  `yaml:"outputs"`
	Services []Service `yaml:"services"`
}

// Output is a message to publish:
//
//   - topic (required): the topic, e.g. /model/ego/cmd_vel.
//   - type (required): the full message type, e.g. gz.msgs.Twist (ignition.msgs.X reads as gz.msgs.X).
//   - content (default empty = all fields zero): the message in protobuf text format,
//     e.g. "linear { x: 0.5 }".
type Output struct {
	Topic   string `yaml:"topic"`
	Type    string `yaml:"type"`
	Content string `yaml:"content"`
}

// Service is a service call:
//
//   - name (required): the service, e.g. /world/default/control.
//   - reqType, repType (required): full request and response message types.
//   - timeout (milliseconds, default 0 = DefaultTimeout, 1000; at most MaxTimeout, an hour):
//     how long the worker waits.
//   - reqMsg (default empty = all fields zero): the request in protobuf text format. In XML the
//     element's content may hold it instead of the attribute.
type Service struct {
	Name    string `yaml:"name"`
	ReqType string `yaml:"reqType"`
	RepType string `yaml:"repType"`
	Timeout int    `yaml:"timeout"`
	ReqMsg  string `yaml:"reqMsg"`
}

// plan is a Config compiled for playing: keyframes stably sorted by time, messages parsed.
type plan struct {
	loop   bool
	period time.Duration // > 0 when loop; ≥ the last keyframe's time
	frames []frame       // sorted by at, ties in listed order
	last   time.Duration // time of the last keyframe
	outs   int           // outputs in all keyframes
	calls  int           // service calls in all keyframes
}

type frame struct {
	at    time.Duration
	label string // "keyframe 2 (time 4 s)", for messages
	outs  []output
	calls []call
}

type output struct {
	topic, typ string
	msg        proto.Message
	label      string // "keyframe 2 (time 4 s) output 1 on /topic"
	warned     bool   // a publish failure was logged already
}

type call struct {
	name             string
	reqType, repType string // canonical full names
	timeout          time.Duration
	req              proto.Message
	label            string
}

// compile checks c and builds its plan. Errors name the keyframe, counted from 1 in the order
// listed, and say what to change.
func (c *Config) compile() (*plan, error) {
	if len(c.Keyframes) == 0 {
		return nil, errors.New("the timeline has no keyframes: add at least one keyframe")
	}
	if !inRange(c.Period) {
		return nil, fmt.Errorf("period %g s must be a number from 0 to %g", c.Period, maxSeconds)
	}
	p := &plan{loop: c.Loop, frames: make([]frame, 0, len(c.Keyframes))}
	for i, k := range c.Keyframes {
		label := fmt.Sprintf("keyframe %d (time %g s)", i+1, k.Time)
		if !inRange(k.Time) {
			return nil, fmt.Errorf("%s: time must be a number from 0 to %g s", label, maxSeconds)
		}
		f := frame{at: seconds(k.Time), label: label}
		for j, o := range k.Outputs {
			ol := fmt.Sprintf("%s output %d", label, j+1)
			if strings.TrimSpace(o.Topic) == "" {
				return nil, fmt.Errorf("%s: the output needs a topic", ol)
			}
			ol += " on " + o.Topic
			m, typ, err := parse(o.Type, o.Content)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", ol, err)
			}
			if have, ok := transport.BuiltinType(o.Topic); ok && have != typ {
				return nil, fmt.Errorf("%s: the simulator's topic carries %s, not %s", ol, have, typ)
			}
			f.outs = append(f.outs, output{topic: o.Topic, typ: typ, msg: m, label: ol})
		}
		for j, s := range k.Services {
			sl := fmt.Sprintf("%s service %d", label, j+1)
			if strings.TrimSpace(s.Name) == "" {
				return nil, fmt.Errorf("%s: the service needs a name", sl)
			}
			sl += " " + s.Name
			req, reqType, err := parse(s.ReqType, s.ReqMsg)
			if err != nil {
				return nil, fmt.Errorf("%s: request: %w", sl, err)
			}
			rep, err := msgs.Lookup(s.RepType)
			if err != nil {
				return nil, fmt.Errorf("%s: response: repType: %w", sl, err)
			}
			if s.Timeout < 0 || s.Timeout > MaxTimeout {
				return nil, fmt.Errorf("%s: timeout %d ms is outside 0..%d (0 means %d ms)", sl, s.Timeout, MaxTimeout, DefaultTimeout)
			}
			ms := s.Timeout
			if ms == 0 {
				ms = DefaultTimeout
			}
			f.calls = append(f.calls, call{
				name: s.Name, reqType: reqType, repType: string(rep.Descriptor().FullName()),
				timeout: time.Duration(ms) * time.Millisecond, req: req, label: sl,
			})
		}
		p.outs += len(f.outs)
		p.calls += len(f.calls)
		p.frames = append(p.frames, f)
	}
	slices.SortStableFunc(p.frames, func(a, b frame) int { return cmp.Compare(a.at, b.at) })
	p.last = p.frames[len(p.frames)-1].at
	p.period = max(seconds(c.Period), p.last)
	if p.loop && p.period <= 0 {
		// Times are kept to the nanosecond: a period that rounds to 0 ns (1e-300) is none.
		return nil, errors.New("looping needs a period of at least 1 ns: set period, or put a keyframe after time 0")
	}
	return p, nil
}

// parse makes a message of the full type typ from protobuf text; it returns the canonical name.
func parse(typ, text string) (proto.Message, string, error) {
	if strings.TrimSpace(typ) == "" {
		return nil, "", errors.New("the message type is missing (a full name such as gz.msgs.Double)")
	}
	m, err := msgs.New(strings.TrimSpace(typ))
	if err != nil {
		return nil, "", err
	}
	if err := prototext.Unmarshal([]byte(text), m); err != nil {
		return nil, "", fmt.Errorf("%s in protobuf text format: %w", typ, err)
	}
	if field := nonFinite(m.ProtoReflect()); field != "" {
		// The text format reads nan and inf; every receiver refuses them (a cmd_vel with one
		// was dropped without a word), so they are refused here, when the file loads.
		return nil, "", fmt.Errorf("%s: %s is not a finite number", typ, field)
	}
	return m, string(m.ProtoReflect().Descriptor().FullName()), nil
}

// nonFinite returns the path of the first float or double field of m holding NaN or ±Inf,
// or "".
func nonFinite(m protoreflect.Message) string {
	found := ""
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		check := func(v protoreflect.Value, at string) bool {
			switch fd.Kind() {
			case protoreflect.FloatKind, protoreflect.DoubleKind:
				if f := v.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
					found = at
				}
			case protoreflect.MessageKind, protoreflect.GroupKind:
				if sub := nonFinite(v.Message()); sub != "" {
					found = at + "." + sub
				}
			}
			return found == ""
		}
		name := string(fd.Name())
		switch {
		case fd.IsList():
			l := v.List()
			for i := range l.Len() {
				if !check(l.Get(i), fmt.Sprintf("%s[%d]", name, i)) {
					return false
				}
			}
			return true
		case fd.IsMap():
			return true // no gz message carries floats in a map
		}
		return check(v, name)
	})
	return found
}

// seconds converts seconds to a duration rounded to the nanosecond.
func seconds(s float64) time.Duration { return time.Duration(math.Round(s * 1e9)) }

// maxSeconds bounds times and periods so that they fit in a time.Duration with room to spare.
const maxSeconds = 1e9

func inRange(s float64) bool { return s >= 0 && s <= maxSeconds } // false for NaN
