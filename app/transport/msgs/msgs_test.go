package msgs

import (
	"errors"
	"math"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// field is one decoded top-level field of a protobuf encoding.
type field struct {
	num protowire.Number
	typ protowire.Type
	raw []byte // the value: the bytes of a length-delimited field, else the varint/fixed bytes
	v   uint64 // the value of a varint or fixed field
}

// fields decodes b one level deep with protowire, failing the test on bad input.
func fields(t *testing.T, b []byte) []field {
	t.Helper()
	var out []field
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			t.Fatalf("bad tag: %v", protowire.ParseError(n))
		}
		b = b[n:]
		f := field{num: num, typ: typ}
		switch typ {
		case protowire.VarintType:
			f.v, n = protowire.ConsumeVarint(b)
		case protowire.Fixed64Type:
			f.v, n = protowire.ConsumeFixed64(b)
		case protowire.Fixed32Type:
			var v uint32
			v, n = protowire.ConsumeFixed32(b)
			f.v = uint64(v)
		case protowire.BytesType:
			f.raw, n = protowire.ConsumeBytes(b)
		default:
			t.Fatalf("unexpected wire type %d", typ)
		}
		if n < 0 {
			t.Fatalf("bad field %d: %v", num, protowire.ParseError(n))
		}
		b = b[n:]
		out = append(out, f)
	}
	return out
}

func marshal(t *testing.T, m proto.Message) []byte {
	t.Helper()
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatalf("marshal %T: %v", m, err)
	}
	return b
}

// only returns the single field of b, failing unless there is exactly one with number num and type typ.
func only(t *testing.T, b []byte, num protowire.Number, typ protowire.Type) field {
	t.Helper()
	fs := fields(t, b)
	if len(fs) != 1 || fs[0].num != num || fs[0].typ != typ {
		t.Fatalf("want exactly field %d type %d, got %+v", num, typ, fs)
	}
	return fs[0]
}

func TestTwistLinearX(t *testing.T) {
	b := marshal(t, &Twist{Linear: &Vector3D{X: 1}})
	lin := only(t, b, 2, protowire.BytesType)
	x := only(t, lin.raw, 2, protowire.Fixed64Type)
	if got := math.Float64frombits(x.v); got != 1 {
		t.Fatalf("linear.x = %v, want 1", got)
	}
	ang := marshal(t, &Twist{Angular: &Vector3D{Z: -0.5}})
	z := only(t, only(t, ang, 3, protowire.BytesType).raw, 4, protowire.Fixed64Type)
	if got := math.Float64frombits(z.v); got != -0.5 {
		t.Fatalf("angular.z = %v, want -0.5", got)
	}
}

func TestWorldStatisticsSimTime(t *testing.T) {
	b := marshal(t, &WorldStatistics{SimTime: &Time{Sec: 3, Nsec: 7}})
	st := only(t, b, 2, protowire.BytesType)
	fs := fields(t, st.raw)
	if len(fs) != 2 || fs[0].num != 1 || fs[0].v != 3 || fs[1].num != 2 || fs[1].v != 7 {
		t.Fatalf("sim_time fields = %+v, want sec(1)=3 nsec(2)=7", fs)
	}
	rt := only(t, marshal(t, &WorldStatistics{RealTime: &Time{Sec: 1}}), 4, protowire.BytesType)
	if f := only(t, rt.raw, 1, protowire.VarintType); f.v != 1 {
		t.Fatalf("real_time.sec = %d, want 1", f.v)
	}
}

func TestLaserScanRangesPacked(t *testing.T) {
	ranges := []float64{1.5, math.Inf(1), 0.25}
	b := marshal(t, &LaserScan{Count: 3, Ranges: ranges})
	fs := fields(t, b)
	if len(fs) != 2 {
		t.Fatalf("fields = %+v, want count and ranges", fs)
	}
	if fs[0].num != 9 || fs[0].typ != protowire.VarintType || fs[0].v != 3 {
		t.Fatalf("count = %+v, want field 9 varint 3", fs[0])
	}
	// Packed: one length-delimited field 14 holding the fixed64 values back to back.
	if fs[1].num != 14 || fs[1].typ != protowire.BytesType || len(fs[1].raw) != 8*len(ranges) {
		t.Fatalf("ranges = field %d type %d len %d, want packed field 14 of %d bytes",
			fs[1].num, fs[1].typ, len(fs[1].raw), 8*len(ranges))
	}
	raw := fs[1].raw
	for i, want := range ranges {
		v, n := protowire.ConsumeFixed64(raw)
		if n != 8 || math.Float64frombits(v) != want {
			t.Fatalf("ranges[%d] = %v, want %v", i, math.Float64frombits(v), want)
		}
		raw = raw[n:]
	}
}

func TestParamMapEntry(t *testing.T) {
	p := &Param{Params: map[string]*Any{
		"request_ros2": {Type: Any_STRING, Value: &Any_StringValue{StringValue: "x"}},
	}}
	entry := only(t, marshal(t, p), 2, protowire.BytesType)
	fs := fields(t, entry.raw)
	if len(fs) != 2 || fs[0].num != 1 || string(fs[0].raw) != "request_ros2" || fs[1].num != 2 {
		t.Fatalf("map entry = %+v, want key(1)=request_ros2 value(2)", fs)
	}
	any := fields(t, fs[1].raw)
	if len(any) != 2 || any[0].num != 2 || any[0].v != 3 || any[1].num != 5 || string(any[1].raw) != "x" {
		t.Fatalf("Any = %+v, want type(2)=3 string_value(5)=x", any)
	}
	// children = 3
	c := only(t, marshal(t, &Param{Children: []*Param{{}}}), 3, protowire.BytesType)
	if len(c.raw) != 0 {
		t.Fatalf("empty child encodes %d bytes, want 0", len(c.raw))
	}
}

func TestMicomAndHeaderNumbers(t *testing.T) {
	m := &Micom{Odom: &Micom_Odometry{Twist: &Twist{Linear: &Vector3D{X: 2}}}, Battery: &Battery{Voltage: 12}}
	fs := fields(t, marshal(t, m))
	if len(fs) != 2 || fs[0].num != 2 || fs[1].num != 7 {
		t.Fatalf("Micom fields = %+v, want odom(2), battery(7)", fs)
	}
	tw := only(t, fs[0].raw, 4, protowire.BytesType)
	only(t, tw.raw, 2, protowire.BytesType)

	h := &Pose{Header: &Header{Data: []*Header_Map{{Key: "parent_frame_id", Value: []string{"base_link"}}}}}
	hd := only(t, marshal(t, h), 1, protowire.BytesType)
	mp := only(t, hd.raw, 2, protowire.BytesType)
	kv := fields(t, mp.raw)
	if len(kv) != 2 || kv[0].num != 1 || string(kv[0].raw) != "parent_frame_id" || kv[1].num != 2 || string(kv[1].raw) != "base_link" {
		t.Fatalf("Header.Map = %+v", kv)
	}
}

func TestWorldControlNumbers(t *testing.T) {
	wc := &WorldControl{Pause: true, MultiStep: 5, Reset_: &WorldReset{All: true}, RunToSimTime: &Time{Sec: 2}}
	fs := fields(t, marshal(t, wc))
	want := []protowire.Number{2, 4, 5, 7}
	if len(fs) != len(want) {
		t.Fatalf("fields = %+v, want numbers %v", fs, want)
	}
	for i, n := range want {
		if fs[i].num != n {
			t.Fatalf("field %d number %d, want %d", i, fs[i].num, n)
		}
	}
	if f := only(t, fs[2].raw, 2, protowire.VarintType); f.v != 1 {
		t.Fatalf("reset.all = %d, want 1", f.v)
	}
}

func TestRegistryResolves(t *testing.T) {
	for name, want := range map[string]proto.Message{
		"gz.msgs.Double":       &Double{},
		"gz.msgs.Twist":        &Twist{},
		"gz.msgs.WorldControl": &WorldControl{},
		"gz.msgs.Param":        &Param{},
		"gz.msgs.Marker_V":     &Marker_V{},
	} {
		mt, err := protoregistry.GlobalTypes.FindMessageByName(want.ProtoReflect().Descriptor().FullName())
		if err != nil || string(mt.Descriptor().FullName()) != name {
			t.Fatalf("registry: %s: %v", name, err)
		}
		m, err := New(name)
		if err != nil {
			t.Fatalf("New(%q): %v", name, err)
		}
		if got := m.ProtoReflect().Descriptor().FullName(); string(got) != name {
			t.Fatalf("New(%q) made %s", name, got)
		}
		if _, ok := m.(interface{ ProtoMessage() }); !ok {
			t.Fatalf("New(%q) = %T, not a generated message", name, m)
		}
	}
	if d, err := New("gz.msgs.Double"); err != nil {
		t.Fatal(err)
	} else if _, ok := d.(*Double); !ok {
		t.Fatalf("New(gz.msgs.Double) = %T, want *Double", d)
	}
	if m, err := New("ignition.msgs.Boolean"); err != nil {
		t.Fatalf("legacy name: %v", err)
	} else if _, ok := m.(*Boolean); !ok {
		t.Fatalf("New(ignition.msgs.Boolean) = %T, want *Boolean", m)
	}
}

func TestNewUnknown(t *testing.T) {
	for _, name := range []string{"gz.msgs.Nope", "Double", ""} {
		_, err := New(name)
		if !errors.Is(err, ErrUnknownType) {
			t.Fatalf("New(%q) err = %v, want ErrUnknownType", name, err)
		}
	}
}

func TestTimeRoundTrip(t *testing.T) {
	for _, d := range []time.Duration{0, time.Nanosecond, 1500 * time.Millisecond, 90*time.Minute + 7} {
		tm := NewTime(d)
		if tm.GetNsec() < 0 || tm.GetNsec() >= 1e9 {
			t.Fatalf("NewTime(%v).Nsec = %d out of range", d, tm.GetNsec())
		}
		if got := tm.AsDuration(); got != d {
			t.Fatalf("round trip %v -> %v", d, got)
		}
	}
	if NewTime(1500*time.Millisecond).GetSec() != 1 {
		t.Fatal("1.5 s should be sec 1")
	}
	var nilTime *Time
	if nilTime.AsDuration() != 0 {
		t.Fatal("nil Time should be 0")
	}
}
