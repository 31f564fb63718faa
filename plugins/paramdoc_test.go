package plugins

import (
	"os"
	"strings"
	"testing"
)

// docs/PLUGINS.md shows the tables as they are: regenerate it with `go generate ./plugins`
// when this fails.
func TestPluginsDocHasTheParameterTables(t *testing.T) {
	b, err := os.ReadFile("../docs/PLUGINS.md")
	if err != nil {
		t.Fatal(err)
	}
	want, err := SpliceParamDocs(string(b))
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != want {
		t.Fatal("docs/PLUGINS.md's parameter tables are out of date: run go generate ./plugins")
	}
	for _, s := range []string{"| `wheelBase` | m | 0.32 | 0.05..5 |", "| `fovDeg` | deg | 68 | 10..170 |", "`minAltitude ≤ startAltitude`"} {
		if !strings.Contains(string(b), s) {
			t.Errorf("docs/PLUGINS.md lacks %q", s)
		}
	}
}
