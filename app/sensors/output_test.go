package sensors

import (
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"simgui/app/transport/msgs"
)

// Floats' one-allocation message is the message built field by field: the same bytes on the
// wire, a few values or more than it holds inline, and messages made one after the other do
// not share their values.
func TestFloatsIsTheMessage(t *testing.T) {
	stamp := 3*time.Second + 250*time.Millisecond
	for _, vals := range [][]float64{nil, {0.5}, {1, -2, 3.25}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}} {
		data := make([]float32, len(vals))
		for i, v := range vals {
			data[i] = float32(v)
		}
		want := &msgs.Float_V{Header: Header(stamp), Data: data}
		got := Floats(stamp, vals...)
		if !proto.Equal(got, want) {
			t.Fatalf("%v: got %v, want %v", vals, got, want)
		}
		a, err := proto.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := proto.Marshal(want)
		if string(a) != string(b) {
			t.Fatalf("%v: wire bytes %x, want %x", vals, a, b)
		}
		if s := got.GetHeader().GetStamp(); s.GetSec() != 3 || s.GetNsec() != 250_000_000 {
			t.Fatalf("stamp %v", s)
		}
	}
	x, y := Floats(0, 1, 2), Floats(0, 3, 4)
	x.Data[0] = 9
	if y.Data[0] != 3 || len(y.Data) != 2 {
		t.Fatalf("messages share values: %v", y.Data)
	}
}
