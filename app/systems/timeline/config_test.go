package timeline

import (
	"os"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"simgui/app/systems"
	"simgui/app/transport/msgs"
	"simgui/app/world"
)

func fromXMLFile(t *testing.T, name string) *Publisher {
	t.Helper()
	src, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	b, err := systems.Build(systems.Entry{XML: string(src)})
	if err != nil {
		t.Fatal(err)
	}
	return b.System.(*Publisher)
}

// The seed's example, pasted verbatim, compiles to the same plan as its YAML form and plays.
func TestSeedExampleXML(t *testing.T) {
	x := fromXMLFile(t, "seed_example.xml")
	y, err := fromYAML(`
loop: true
period: 4
keyframes:
  - {time: 0, outputs: [{topic: /model/arm/joint/j1/0/cmd_pos, type: gz.msgs.Double, content: "data: 1.0"}]}
  - {time: 2, outputs: [{topic: /model/arm/joint/j1/0/cmd_pos, type: gz.msgs.Double, content: "data: -1.0"}]}`)
	if err != nil {
		t.Fatal(err)
	}
	if !samePlan(x.plan, y.plan) {
		t.Fatalf("XML and YAML plans differ:\n%+v\n%+v", x.plan, y.plan)
	}
	w, bus := newWorld(t)
	rec := record(t, bus, "/model/arm/joint/j1/0/cmd_pos")
	if err := w.AddSystem(x, world.SystemOptions{Name: ID}); err != nil {
		t.Fatal(err)
	}
	until(w, 8*time.Second)
	same(t, "seed example", rec.take(), "5:1", "2000:-1", "4000:1", "6000:-1", "8000:1")
}

func samePlan(a, b *plan) bool {
	if a.loop != b.loop || a.period != b.period || a.last != b.last || len(a.frames) != len(b.frames) {
		return false
	}
	for i := range a.frames {
		fa, fb := a.frames[i], b.frames[i]
		if fa.at != fb.at || len(fa.outs) != len(fb.outs) || len(fa.calls) != len(fb.calls) {
			return false
		}
		for j := range fa.outs {
			if fa.outs[j].topic != fb.outs[j].topic || fa.outs[j].typ != fb.outs[j].typ || !proto.Equal(fa.outs[j].msg, fb.outs[j].msg) {
				return false
			}
		}
		for j := range fa.calls {
			ca, cb := fa.calls[j], fb.calls[j]
			if ca.name != cb.name || ca.reqType != cb.reqType || ca.repType != cb.repType || ca.timeout != cb.timeout || !proto.Equal(ca.req, cb.req) {
				return false
			}
		}
	}
	return true
}

// Services in XML: reqMsg, the request as the element's content, the default timeout, legacy
// ignition.msgs names, CDATA, and gz's <gz:system_priority> (left to systems.Build).
func TestServicesXML(t *testing.T) {
	p := fromXMLFile(t, "services.xml")
	src, _ := os.ReadFile("testdata/services.xml")
	if b, err := systems.Build(systems.Entry{XML: string(src)}); err != nil || b.Options.Priority != -10 {
		t.Fatalf("priority from <gz:system_priority>: %+v %v", b.Options, err)
	}
	fr := p.plan.frames
	if len(fr) != 2 || fr[0].at != 500*time.Millisecond || fr[1].at != 1500*time.Millisecond {
		t.Fatalf("frames not sorted by time: %+v", fr)
	}
	step := fr[0].calls[0]
	if step.timeout != time.Second || !proto.Equal(step.req, &msgs.WorldControl{MultiStep: 3}) {
		t.Fatalf("default timeout / reqMsg: %v %v", step.timeout, step.req)
	}
	pause, pose := fr[1].calls[0], fr[1].calls[1]
	if pause.timeout != 250*time.Millisecond || !proto.Equal(pause.req, &msgs.WorldControl{Pause: true}) {
		t.Fatalf("pause call: %v %v", pause.timeout, pause.req)
	}
	want := &msgs.Pose{Name: "ego", Position: &msgs.Vector3D{X: 1, Y: 2}, Orientation: &msgs.Quaternion{W: 1}}
	if pose.reqType != "gz.msgs.Pose" || pose.repType != "gz.msgs.Boolean" || !proto.Equal(pose.req, want) {
		t.Fatalf("request from content: %s %v", pose.reqType, pose.req)
	}
	note := fr[1].outs[0]
	if note.typ != "gz.msgs.StringMsg" || note.msg.(*msgs.StringMsg).GetData() != "<scripted>" {
		t.Fatalf("legacy type / CDATA: %s %v", note.typ, note.msg)
	}
}

func TestXMLErrors(t *testing.T) {
	const head = `<plugin filename="gz-sim-timeline-publisher-system" name="systems::TimelinePublisher">`
	for _, tc := range []struct{ name, xml, want string }{
		{"unknown element", head + `<keyfram time="0"/></plugin>`, "<plugin>: unknown <keyfram>"},
		{"unknown attribute", head + `<keyframe time="0" at="1"/></plugin>`, "<keyframe> (keyframe 1): unknown at="},
		{"unknown output attribute", head + `<keyframe time="0"><output topic="/a" type="gz.msgs.Double" typ="x"/></keyframe></plugin>`,
			"<output> (keyframe 1 output 1): unknown typ="},
		{"missing time", head + `<keyframe><output topic="/a" type="gz.msgs.Double"/></keyframe></plugin>`, "keyframe 1: the time attribute (seconds) is missing"},
		{"bad time", head + `<keyframe time="soon"/></plugin>`, `keyframe 1: time="soon": want a number of seconds`},
		{"bad loop", head + `<loop>yes</loop><keyframe time="0"/></plugin>`, "<loop>yes</loop>: want true or false"},
		{"bad period", head + `<period>4s</period><keyframe time="0"/></plugin>`, "<period>4s</period>: want a number of seconds"},
		{"bad timeout", head + `<keyframe time="0"><service name="/s" reqType="gz.msgs.Double" repType="gz.msgs.Double" timeout="1.5"/></keyframe></plugin>`,
			`keyframe 1 service 1: timeout="1.5": want whole milliseconds`},
		{"request twice", head + `<keyframe time="0"><service name="/s" reqType="gz.msgs.Double" repType="gz.msgs.Double" reqMsg="data: 1">data: 2</service></keyframe></plugin>`,
			"keyframe 1 service 1: give the request either as reqMsg or as the element's content, not both"},
		{"bad text", head + `<keyframe time="0"/><keyframe time="1"><output topic="/a" type="gz.msgs.Double">dta: 1</output></keyframe></plugin>`,
			"keyframe 2 (time 1 s) output 1 on /a: gz.msgs.Double in protobuf text format"},
		{"not xml", head + `<keyframe time="0">`, "read <plugin> element"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := systems.Build(systems.Entry{XML: tc.xml})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
	// The entry names the type and the element another plugin.
	var p Publisher
	err := p.ConfigureXML([]byte(`<plugin filename="gz-sim-diff-drive-system" name="gz::sim::systems::DiffDrive"/>`))
	if err == nil || !strings.Contains(err.Error(), "not the timeline publisher") {
		t.Fatalf("other plugin: %v", err)
	}
	if err := p.ConfigureXML([]byte(`<sdf/>`)); err == nil {
		t.Fatal("an <sdf> element was taken for a <plugin>")
	}
}

// Load errors name the keyframe (counted from 1 as listed) and say what is wrong.
func TestLoadErrorsNameTheKeyframe(t *testing.T) {
	const out = `{topic: /a, type: gz.msgs.Double, content: "data: 1"}`
	const svc = `{name: /s, reqType: gz.msgs.Double, repType: gz.msgs.Boolean, reqMsg: "data: 1"}`
	for _, tc := range []struct{ name, config, want string }{
		{"unknown type", `keyframes: [{time: 0, outputs: [` + out + `]}, {time: 1, outputs: [{topic: /a, type: gz.msgs.Dubble, content: "data: 1"}]}]`,
			`keyframe 2 (time 1 s) output 1 on /a: unknown message type "gz.msgs.Dubble"`},
		{"bad text", `keyframes: [{time: 0.5, outputs: [` + out + `, {topic: /b, type: gz.msgs.Twist, content: "linear { x: fast }"}]}]`,
			`keyframe 1 (time 0.5 s) output 2 on /b: gz.msgs.Twist in protobuf text format`},
		{"missing type", `keyframes: [{time: 0, outputs: [{topic: /a}]}]`, "keyframe 1 (time 0 s) output 1 on /a: the message type is missing"},
		{"missing topic", `keyframes: [{time: 0, outputs: [{type: gz.msgs.Double}]}]`, "keyframe 1 (time 0 s) output 1: the output needs a topic"},
		{"bad request", `keyframes: [{time: 2, services: [{name: /s, reqType: gz.msgs.Double, repType: gz.msgs.Boolean, reqMsg: "date: 1"}]}]`,
			"keyframe 1 (time 2 s) service 1 /s: request: gz.msgs.Double in protobuf text format"},
		{"unknown reqType", `keyframes: [{time: 0, services: [{name: /s, reqType: Double, repType: gz.msgs.Boolean}]}]`,
			`keyframe 1 (time 0 s) service 1 /s: request: unknown message type "Double"`},
		{"unknown repType", `keyframes: [{time: 0, services: [{name: /s, reqType: gz.msgs.Double, repType: gz.msgs.Bool}]}]`,
			`keyframe 1 (time 0 s) service 1 /s: response: repType: unknown message type "gz.msgs.Bool"`},
		{"missing name", `keyframes: [{time: 0, services: [{reqType: gz.msgs.Double, repType: gz.msgs.Boolean}]}]`,
			"keyframe 1 (time 0 s) service 1: the service needs a name"},
		{"negative timeout", `keyframes: [{time: 0, services: [{name: /s, reqType: gz.msgs.Double, repType: gz.msgs.Boolean, timeout: -5}]}]`,
			"keyframe 1 (time 0 s) service 1 /s: timeout -5 ms is outside 0..3600000"},
		{"timeout past an hour", `keyframes: [{time: 0, services: [{name: /s, reqType: gz.msgs.Double, repType: gz.msgs.Boolean, timeout: 9999999999999}]}]`,
			"keyframe 1 (time 0 s) service 1 /s: timeout 9999999999999 ms is outside 0..3600000"},
		{"negative time", `keyframes: [{time: 0, services: [` + svc + `]}, {time: -1}]`, "keyframe 2 (time -1 s): time must be a number from 0"},
		{"nan time", `keyframes: [{time: .nan}]`, "keyframe 1 (time NaN s): time must be a number from 0"},
		{"negative period", `period: -1` + "\n" + `keyframes: [{time: 0}]`, "period -1 s must be a number from 0"},
		{"no keyframes", `loop: true`, "the timeline has no keyframes"},
		// The clock publishes only while someone listens, so /clock is not declared at load.
		{"clock typed wrongly", `keyframes: [{time: 0}, {time: 1, outputs: [` + strings.Replace(out, "/a", "/clock", 1) + `]}]`,
			"keyframe 2 (time 1 s) output 1 on /clock: the simulator's topic carries gz.msgs.Clock, not gz.msgs.Double"},
		{"nan in the text", `keyframes: [{time: 0, outputs: [{topic: /v, type: gz.msgs.Twist, content: "linear { x: nan }"}]}]`,
			"keyframe 1 (time 0 s) output 1 on /v: gz.msgs.Twist: linear.x is not a finite number"},
		{"inf in a list", `keyframes: [{time: 0, outputs: [{topic: /v, type: gz.msgs.Float_V, content: "data: [1, -inf]"}]}]`,
			"gz.msgs.Float_V: data[1] is not a finite number"},
		{"cmd_vel typed wrongly", `keyframes: [{time: 0, outputs: [` + strings.Replace(out, "/a", "/model/ego/cmd_vel", 1) + `]}]`,
			"keyframe 1 (time 0 s) output 1 on /model/ego/cmd_vel: the simulator's topic carries gz.msgs.Twist, not gz.msgs.Double"},
		{"unknown key", `keyframes: [{time: 0, output: []}]`, `unknown key "output"`},
		{"unknown top key", `keyframe: []`, `unknown config key "keyframe" (known: keyframes, loop, period)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := fromYAML(tc.config)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to contain %q", err, tc.want)
			}
			if !strings.HasPrefix(err.Error(), "system "+ID+": ") {
				t.Fatalf("error %q does not name the system", err)
			}
		})
	}
}

// The registry finds the system by its ID and both of the seed's names.
func TestRegisteredNames(t *testing.T) {
	for _, name := range append([]string{ID}, "systems::TimelinePublisher", "gz-sim-timeline-publisher-system", "gz::sim::systems::TimelinePublisher") {
		m, err := systems.Lookup(name)
		if err != nil || m.ID != ID {
			t.Fatalf("lookup %s: %v %v", name, m.ID, err)
		}
		if _, ok := m.New().(*Publisher); !ok {
			t.Fatalf("%s builds %T", name, m.New())
		}
	}
}
