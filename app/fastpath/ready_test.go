package fastpath

import (
	"errors"
	"testing"

	"simgui/app"
)

// A fast path turned on without its socket is refused when the faces are made, before any
// face starts (it was refused at its own start, after the others were listening); one left off
// may lack it.
func TestFacesRefuseAFastPathWithoutItsSocket(t *testing.T) {
	_, err := app.Faces(app.FaceSettings{"fastpath": true})
	if !errors.Is(err, errNoSocket) || err.Error() != "faces.fastpath: "+errNoSocket.Error() {
		t.Fatalf("fastpath: true without a socket: %v", err)
	}
	_, err = app.Faces(app.FaceSettings{"fastpath": map[string]any{"enabled": true, "maxEnvs": 4}})
	if !errors.Is(err, errNoSocket) {
		t.Fatalf("enabled: true with settings but no socket: %v", err)
	}
	for _, s := range []app.FaceSettings{
		{"fastpath": false},
		{"fastpath": map[string]any{"enabled": false, "maxEnvs": 4}},
		{"fastpath": map[string]any{"socket": "/tmp/simgui-ready-test.sock"}},
	} {
		faces, err := app.Faces(s)
		if err != nil {
			t.Fatalf("%v: %v", s, err)
		}
		on := false
		for _, f := range faces {
			if fp, ok := f.(*Face); ok {
				on = fp.Socket != ""
			}
		}
		if want := s["fastpath"] != false && !isOff(s["fastpath"]); on != want {
			t.Errorf("%v: fast path on with its socket = %v, want %v", s, on, want)
		}
	}
}

func isOff(v any) bool {
	m, ok := v.(map[string]any)
	return ok && m["enabled"] == false
}
