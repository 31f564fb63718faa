package systems

import (
	"errors"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"simgui/app/world"
)

type counter struct {
	Label  string  `yaml:"label"`
	Every  float64 `yaml:"every"`
	Nested struct {
		Depth int `yaml:"depth"`
	} `yaml:"nested"`
	model string
}

func (c *counter) Step(*world.World, float64) {}
func (c *counter) Validate() error {
	if c.Every < 0 {
		return errors.New("every must not be negative")
	}
	return nil
}
func (c *counter) AttachModel(name string) error { c.model = name; return nil }

func init() {
	Register(Module{ID: "test.counter", Aliases: []string{"test::Counter"}, New: func() any { return &counter{} }})
}

func entry(t *testing.T, src string) Entry {
	t.Helper()
	var e Entry
	if err := yaml.Unmarshal([]byte(src), &e); err != nil {
		t.Fatal(err)
	}
	return e
}

func TestBuildDecodesConfig(t *testing.T) {
	b, err := Build(entry(t, "type: test.counter\nfrequency: 20\nmodel: car\nconfig: {label: hi, every: 2, nested: {depth: 3}}"))
	if err != nil {
		t.Fatal(err)
	}
	c := b.System.(*counter)
	if c.Label != "hi" || c.Every != 2 || c.Nested.Depth != 3 || c.model != "car" {
		t.Fatalf("decoded %+v", c)
	}
	if b.Options.Name != "test.counter" || b.Options.Frequency != 20 {
		t.Fatalf("options %+v", b.Options)
	}
}

func TestBuildErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"type: test.nope", `unknown system type "test.nope" (known:`},
		{"type: test.counter\nconfig: {lable: x}", `system test.counter: unknown config key "lable" (known: every, label, nested)`},
		{"type: test.counter\nconfig: {nested: {dept: 1}}", `unknown key "dept" in config.nested`},
		{"type: test.counter\nconfig: {every: -1}", "every must not be negative"},
		{"type: test.counter\nconfig: {every: fast}", "system test.counter: line 2: config.every must be a number, not a string"},
		{"frequency: 2", "needs a type"},
		{"type: test.counter\nclass: test.other", `gives type "test.counter" and class "test.other"`},
		{"class: test.nope", `unknown system type "test.nope"`},
		{"type: test.counter\nfrequency: -1", "must not be negative"},
		{"type: test.counter\nfrequency: 1e-300", "frequency 1e-300 Hz is below the lowest, 1.0842021724855044e-10 Hz"},
		{"type: test.counter\nfrequency: 1.08e-10", "frequency 1.08e-10 Hz is below the lowest, 1.0842021724855044e-10 Hz"},
	} {
		_, err := Build(entry(t, tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want it to contain %q", tc.src, err, tc.want)
		}
	}
}

func TestAliasesAndXMLName(t *testing.T) {
	if m, err := Lookup("test::Counter"); err != nil || m.ID != "test.counter" {
		t.Fatalf("alias lookup: %v %v", m.ID, err)
	}
	if got := xmlPluginName(`<plugin filename="libfoo.so" name="test::Counter"><x/></plugin>`); got != "test::Counter" {
		t.Fatalf("xml name %q", got)
	}
	// An XML element for a system that does not take XML is refused.
	if _, err := Build(Entry{XML: `<plugin name="test::Counter"/>`}); err == nil || !strings.Contains(err.Error(), "XML") {
		t.Fatalf("error %v", err)
	}
}

func TestRegisterPanicsOnDuplicatesAndBadIDs(t *testing.T) {
	for _, m := range []Module{
		{ID: "test.counter", New: func() any { return nil }},
		{ID: "NoDots", New: func() any { return nil }},
		{ID: "test.other", Aliases: []string{"test::Counter"}, New: func() any { return nil }},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%q) did not panic", m.ID)
				}
			}()
			Register(m)
		}()
	}
}

// class: is another name for type:, as PyBulletFleet's plugin entries write it.
func TestClassIsAnAliasOfType(t *testing.T) {
	for _, src := range []string{"class: test.counter", "class: test::Counter", "type: test.counter\nclass: test.counter"} {
		b, err := Build(entry(t, src))
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if _, ok := b.System.(*counter); !ok || b.Options.Name != "test.counter" {
			t.Fatalf("%q built %T %+v", src, b.System, b.Options)
		}
	}
}

// priority: and gz's <gz:system_priority> set the system's priority; the YAML key wins.
func TestPriority(t *testing.T) {
	for src, want := range map[string]int{
		"type: test.counter":                0,
		"type: test.counter\npriority: -3":  -3,
		"type: test.counter\npriority: 250": 250,
	} {
		b, err := Build(entry(t, src))
		if err != nil {
			t.Fatal(err)
		}
		if b.Options.Priority != want {
			t.Errorf("%q: priority %d, want %d", src, b.Options.Priority, want)
		}
	}
	if p, ok, err := xmlPriority(`<plugin name="x"><gz:system_priority> -10 </gz:system_priority></plugin>`); p != -10 || !ok || err != nil {
		t.Errorf("xml priority %d %v %v", p, ok, err)
	}
	if _, ok, _ := xmlPriority(`<plugin name="x"><loop>true</loop></plugin>`); ok {
		t.Error("priority found where there is none")
	}
	if _, _, err := xmlPriority(`<plugin name="x"><gz:system_priority>high</gz:system_priority></plugin>`); err == nil {
		t.Error("a non-number priority was accepted")
	}
}
