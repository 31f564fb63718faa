package main

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// The plain summary names the sensors that dropped readings, the most first, and says
// nothing when none did.
func TestDroppedLine(t *testing.T) {
	if got := droppedLine([]sensorSummary{{Topic: "/a", Readings: 30}}); got != "" {
		t.Fatalf("no drops: %q, want nothing", got)
	}
	ss := []sensorSummary{
		{Topic: "/a", Readings: 30, Dropped: 2},
		{Topic: "/b", Readings: 10},
		{Topic: "/c", Readings: 20, Dropped: 10},
		{Topic: "/d", Readings: 28, Dropped: 2},
		{Topic: "/e", Readings: 29, Dropped: 1},
	}
	want := "15 sensor readings dropped (their frames took longer to draw than their rates allow; --json counts every sensor's):" +
		" /c 10 of 30, /a 2 of 32, /d 2 of 30 and 1 more sensor"
	if got := droppedLine(ss); got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}

// README's "In scripts" names every key run --json writes, so that scripts parsing it can
// rely on the list: a key added to the summary fails here until it is documented.
func TestRunJSONKeysAreDocumented(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "### In scripts\n")
	section, _, _ = strings.Cut(section, "\n### ")
	if !ok {
		t.Fatal(`README.md has no "### In scripts" section`)
	}
	var walk func(reflect.Type)
	walk = func(typ reflect.Type) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct {
			return
		}
		for i := range typ.NumField() {
			f := typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !strings.Contains(section, "`"+name+"`") {
				t.Errorf("README's In scripts does not name %s's key `%s`", typ.Name(), name)
			}
			walk(f.Type)
		}
	}
	walk(reflect.TypeFor[runSummary]())
}
