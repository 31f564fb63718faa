package yamlkinds

import (
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

type inner struct {
	Time  float64 `yaml:"time"`
	Count int16   `yaml:"count"`
}

type base struct {
	Loop bool `yaml:"loop"`
}

type config struct {
	base      `yaml:",inline"`
	Keyframes []inner        `yaml:"keyframes"`
	Limit     *uint          `yaml:"limit"`
	Extra     map[string]int `yaml:"extra"`
	Raw       yaml.Node      `yaml:"raw"`
	Any       any            `yaml:"any"`
	Skipped   int            `yaml:"-"`
	Name      string
}

// decode decodes src into a config as a plugin's config is: from its node, so lines are src's.
func decode(t *testing.T, src string) (Doc, error) {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(src), &n); err != nil {
		t.Fatal(err)
	}
	d := Doc{Node: &n, Type: reflect.TypeOf(&config{}), Path: "config"}
	if err := d.CheckKeys(); err != nil {
		return d, err
	}
	var c config
	if err := n.Decode(&c); err != nil {
		return d, err
	}
	return d, d.CheckWholeNumbers()
}

func TestMessages(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"keyframes: 5", "line 1: config.keyframes must be a list, not a number"},
		{"loop: true\nkeyframes:\n  - {time: 1, count: x}", "line 3: config.keyframes[0].count must be a whole number, not a string"},
		{"keyframes: [{time: 1, count: 1.5}]", "line 1: config.keyframes[0].count must be a whole number, not 1.5"},
		{"keyframes: [{count: 40000}]", "line 1: config.keyframes[0].count: 40000 is outside the range -32768..32767"},
		{"limit: -1", "line 1: config.limit: -1 is outside the range 0..18446744073709551615"},
		{"limit: 2.5", "line 1: config.limit must be a whole number ≥ 0, not 2.5"},
		{"loop: maybe", "line 1: config.loop must be true or false, not a string"},
		{"extra: {a: [1]}", "line 1: config.extra.a must be a whole number, not a list"},
		{"name: {a: 1}", "line 1: config.name must be a string, not a mapping"},
		{"[1, 2]", "line 1: config must be a mapping, not a list"},
		{"keyframes: [{time: 1, cont: 2}]", `line 1: unknown key "cont" in config.keyframes[0] (known: count, time)`},
		{"\nskipped: 1", `line 2: unknown key "skipped" in config (known: any, extra, keyframes, limit, loop, name, raw)`},
		// Values decoded by their own rules are not looked into.
		{"raw: {whatever: 1.5}\nany: {x: 2.5}\nkeyframes: [{time: 0.5}]", ""},
	} {
		d, err := decode(t, tc.src)
		var got string
		if err != nil {
			got = d.Explain(err)
		}
		if got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.src, got, tc.want)
		}
		if strings.Contains(got, "!!") || strings.Contains(got, "yamlkinds.") {
			t.Errorf("%q: Go or yaml.v3 words in %q", tc.src, got)
		}
	}
}

// A whole document is named by Name and Want; without them, "the document" and its kind.
func TestWholeDocument(t *testing.T) {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte("just text"), &n); err != nil {
		t.Fatal(err)
	}
	err := n.Decode(&config{})
	d := Doc{Node: &n, Type: reflect.TypeOf(config{})}
	if got, want := d.Explain(err), "line 1: the document must be a mapping, not a string"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	d.Name, d.Want = "the file", "a mapping of keys (a, b)"
	if got, want := d.Explain(err), "line 1: the file must be a mapping of keys (a, b), not a string"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	d.HideLines = true
	if got, want := d.Explain(err), "the file must be a mapping of keys (a, b), not a string"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	// Without a node there are no paths; other errors lose yaml.v3's prefix and line breaks.
	if got, want := (Doc{}).Explain(err), "line 1: expected a mapping, not a string"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	err = yaml.Unmarshal([]byte("a: [1"), &n)
	if got := (Doc{}).Explain(err); strings.HasPrefix(got, "yaml:") || strings.Contains(got, "\n") {
		t.Errorf("got %q", got)
	}
}

// Nodes made by Node.Encode have no lines: their messages have none either.
func TestEncodedNodesHaveNoLines(t *testing.T) {
	var n yaml.Node
	if err := n.Encode(map[string]any{"keyframes": 5}); err != nil {
		t.Fatal(err)
	}
	err := n.Decode(&config{})
	d := Doc{Node: &n, Type: reflect.TypeOf(config{}), Path: "config"}
	if got, want := d.Explain(err), "config.keyframes must be a list, not a number"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestKindOfValue(t *testing.T) {
	for v, want := range map[any]string{5: "a number", 2.5: "a number", "x": "a string", true: "a boolean (true/false)"} {
		if got := KindOfValue(v); got != want {
			t.Errorf("KindOfValue(%v) = %s, want %s", v, got, want)
		}
	}
	if got := KindOfValue([]any{1}); got != "a list" {
		t.Errorf("list: %s", got)
	}
	if got := KindOfValue(map[string]any{}); got != "a mapping" {
		t.Errorf("mapping: %s", got)
	}
}
