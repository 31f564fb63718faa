package msgs

import (
	"testing"

	"google.golang.org/protobuf/encoding/prototext"
)

// The timeline publisher's path: a type name and a body in protobuf text format.
func TestNewFromText(t *testing.T) {
	m, err := New("gz.msgs.Twist")
	if err != nil {
		t.Fatal(err)
	}
	if err := prototext.Unmarshal([]byte("linear { x: 0.5 } angular { z: -1 }"), m); err != nil {
		t.Fatal(err)
	}
	tw := m.(*Twist)
	if tw.GetLinear().GetX() != 0.5 || tw.GetAngular().GetZ() != -1 {
		t.Fatalf("parsed %v", tw)
	}
	d, _ := New("gz.msgs.Double")
	if err := prototext.Unmarshal([]byte("data: 1.0"), d); err != nil || d.(*Double).Data != 1 {
		t.Fatalf("Double: %v %v", d, err)
	}
	p, _ := New("gz.msgs.Param")
	err = prototext.Unmarshal([]byte(`params { key: "throttle" value { type: DOUBLE double_value: 0.7 } }`), p)
	if err != nil || p.(*Param).Params["throttle"].GetDoubleValue() != 0.7 {
		t.Fatalf("Param: %v %v", p, err)
	}
}
