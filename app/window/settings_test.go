package window

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"simgui/app"
)

// The headless build refuses the window settings the window does not take by
// app.WindowSettings: it must name the Face's yaml keys, no more and no fewer.
func TestWindowSettingsNameTheFacesKeys(t *testing.T) {
	var keys []string
	ft := reflect.TypeOf(Face{})
	for i := range ft.NumField() {
		f := ft.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		keys = append(keys, name)
	}
	slices.Sort(keys)
	if !slices.Equal(keys, app.WindowSettings) {
		t.Errorf("window.Face takes %v, app.WindowSettings names %v", keys, app.WindowSettings)
	}
}

// A scenario comes from anyone: its faces block must not name the state file, which the window
// replaces ten times a second wherever it points (a scenario naming ~/.bashrc replaced it with
// JSON). Only the hidden --state-file flag sets it.
func TestScenarioCannotSetTheStateFile(t *testing.T) {
	faces, err := app.Faces(app.FaceSettings{"window": map[string]any{"enabled": true, "stateFile": "/tmp/victim"}})
	if err == nil {
		t.Fatalf("the scenario's stateFile was taken (%d faces)", len(faces))
	}
	if want := `faces.window: unknown setting "stateFile"`; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q, want it to start %q", err, want)
	}
}
