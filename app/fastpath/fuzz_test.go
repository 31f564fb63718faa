package fastpath

import (
	"bytes"
	"errors"
	"math"
	"testing"
)

// FuzzStepMessage feeds arbitrary bytes to the reader and the step decoder as a session of a
// few envs reads them: no input may panic or allocate past the limit, and what decodes must
// be exactly what the bytes say (re-encoding gives the payload back, padding aside) with finite actions for
// every env that steps.
func FuzzStepMessage(f *testing.F) {
	for _, n := range []int{1, 3, 8} {
		kinds := make([]byte, n)
		acts := make([][3]float64, n)
		seeds := make([]int64, n)
		for i := range n {
			kinds[i] = byte(i % 3)
			acts[i] = [3]float64{0.5, -0.25}
			seeds[i] = int64(i) - 1
		}
		p := stepMessage(kinds, acts, seeds)
		h := header(msgStep, len(p))
		f.Add(uint8(n), append(h[:], p...))
	}
	f.Add(uint8(2), []byte("SG\x02\x00\xff\xff\xff\xff"))
	f.Fuzz(func(t *testing.T, envs uint8, msg []byte) {
		n := int(envs%16) + 1
		limit := func(typ byte) (int, bool) { return stepPayloadLen(n, 2), typ == msgStep }
		typ, payload, err := readMessage(bytes.NewReader(msg), nil, limit)
		if err != nil {
			return
		}
		if typ != msgStep || len(payload) > stepPayloadLen(n, 2) {
			t.Fatalf("read type 0x%02x of %d bytes past the limit %d", typ, len(payload), stepPayloadLen(n, 2))
		}
		var req stepRequest
		if err := decodeStep(payload, n, 2, &req); err != nil {
			var pe *protocolError
			if !errors.As(err, &pe) && len(payload) != stepPayloadLen(n, 2) {
				t.Fatalf("a payload of the wrong length gave a value error: %v", err)
			}
			return
		}
		for i, k := range req.kinds {
			a := req.actions[i]
			if k == kindStep && (math.IsNaN(a[0]) || math.IsInf(a[0], 0) || math.IsNaN(a[1]) || math.IsInf(a[1], 0)) {
				t.Fatalf("env %d steps with action %v", i, a)
			}
		}
		// The kinds' padding is not read: compare with it zeroed.
		want := bytes.Clone(payload)
		clear(want[8+n : 8+pad8(n)])
		if back := stepMessage(req.kinds, req.actions, req.seeds); !bytes.Equal(back, want) {
			t.Fatalf("decoded %+v, which encodes as % x, from % x", req, back, payload)
		}
	})
}
