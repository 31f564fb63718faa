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
