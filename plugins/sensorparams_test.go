package plugins

import (
	"maps"
	"strings"
	"testing"
)

// TestPrincipalPointInsideTheFrame holds a camera's cx and cy to its contract's frame (the
// KS0223's 640×480): the last column and row pass, one past them is refused at its path.
func TestPrincipalPointInsideTheFrame(t *testing.T) {
	for _, c := range []struct {
		params map[string]any
		path   string
	}{
		{map[string]any{"cx": 639, "cy": 479}, ""},
		{map[string]any{"cx": 640}, "descriptor.sensors[0].params.cx"},
		{map[string]any{"cy": 480}, "descriptor.sensors[0].params.cy"},
	} {
		files := edited(t, builtinFiles(t, "vehicle.ks0223.v1"), "descriptor.json", func(m map[string]any) {
			for _, s := range m["sensors"].([]any) {
				if s := s.(map[string]any); s["kind"] == "camera" {
					params, _ := s["params"].(map[string]any)
					if params == nil {
						params = map[string]any{}
					}
					maps.Copy(params, c.params)
					s["params"] = params
				}
			}
		})
		_, ps := ReadPlugin(files)
		var got []string
		for _, p := range ps.Errors() {
			got = append(got, p.Path)
		}
		if strings.Join(got, " ") != c.path {
			t.Errorf("%v: errors at %v, want at %q (%v)", c.params, got, c.path, ps)
		}
	}
}
