package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"Acme Rover ²":              "Acme Rover ²",
		"\x1b]0;owned\x07":          `\x1b]0;owned\x07`,
		"a\nb\tc\rd\x7f":            `a\nb\tc\rd\x7f`,
		"\u009b31m":                 `\u009b31m`,
		"evil\u202egnp.exe":         `evil\u202egnp.exe`,
		"bad \xff byte":             `bad \xff byte`,
		`back\slash`:                `back\slash`,
		"isolate \u2066x\u2069 end": `isolate \u2066x\u2069 end`,
	} {
		if got := printable(in); got != want {
			t.Errorf("printable(%q) = %q, want %q", in, got, want)
		}
	}
	in := map[string]string{"displayName": "a\x7fb\u009bc\u202ed\x1b"}
	b, _ := json.Marshal(in)
	esc := escapeJSON(b)
	if string(esc) != `{"displayName":"a\u007fb\u009bc\u202ed\u001b"}` {
		t.Errorf("escapeJSON: %s", esc)
	}
	var back map[string]string
	if err := json.Unmarshal(esc, &back); err != nil || back["displayName"] != in["displayName"] {
		t.Errorf("escaped JSON decodes to %q (%v)", back, err)
	}
}

// A plugin whose display name carries terminal escapes is listed with them escaped, as text
// and as JSON (which still decodes to the real name).
func TestPluginListEscapesControlCharacters(t *testing.T) {
	home, work := filepath.Join(t.TempDir(), "rusim"), t.TempDir()
	const id = "vehicle.acme.rover.v1"
	const name = "Rover\x1b]0;owned\x07\u009b2J\u202e"
	pluginCLI(t, home, "plugin", "new", "--type", "vehicle", id, "--output-dir", work, "--display-name", name)
	archive := filepath.Join(work, id+".rusim-plugin.zip")
	pluginCLI(t, home, "plugin", "export", filepath.Join(work, id), "-o", archive)
	out, _ := pluginCLI(t, home, "plugin", "install", archive)
	for _, text := range []string{out, must(pluginCLI(t, home, "plugin", "list")), must(pluginCLI(t, home, "plugin", "list", "--json")),
		must(pluginCLI(t, home, "plugin", "info", id))} {
		if strings.ContainsAny(text, "\x1b\x07\u009b\u202e") {
			t.Errorf("raw control characters in %q", text)
		}
	}
	list := must(pluginCLI(t, home, "plugin", "list"))
	if !strings.Contains(list, `Rover\x1b]0;owned\x07\u009b2J\u202e`) {
		t.Errorf("list does not show the escaped name:\n%s", list)
	}
	var js struct {
		Items []struct{ PluginID, DisplayName string }
	}
	if err := json.Unmarshal([]byte(must(pluginCLI(t, home, "plugin", "list", "--json"))), &js); err != nil {
		t.Fatal(err)
	}
	if got := js.Items[len(js.Items)-1]; got.PluginID != id || got.DisplayName != name {
		t.Errorf("list --json decodes to %+v", got)
	}
}

// install on a named pipe fails at once (it used to wait for a writer forever).
func TestPluginInstallRefusesFIFO(t *testing.T) {
	home, work := filepath.Join(t.TempDir(), "rusim"), t.TempDir()
	fifo := filepath.Join(work, "vehicle.acme.rover.v1.rusim-plugin.zip")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	pluginFails(t, home, "Not a valid zip archive: "+fifo+" (a named pipe, not a regular file)", "plugin", "install", fifo)
	pluginFails(t, home, "(a named pipe, not a regular file)", "plugin", "validate", fifo)
	pluginFails(t, home, "not a regular file (a named pipe)", "run", "--headless", "--steps", "1", "--scenario", fifo)
	t.Logf("three commands on a FIFO refused in %v", time.Since(start))
}

func must(out, _ string) string { return out }

// A scenario's texts reach the terminal escaped in run's summary, as plugins' do: a displayName
// holding an escape sequence retitled the terminal and cleared it, and a bidirectional
// control reordered the line. The JSON summary decodes to the scenario's own strings.
func TestRunSummaryEscapesTheScenariosTexts(t *testing.T) {
	const name, id = "\x1b]0;pwned\x07\x1b[31mRED\u202e", "id\x1b[2J"
	sc := filepath.Join(t.TempDir(), "esc.yaml")
	src := "displayName: \"\\x1b]0;pwned\\x07\\x1b[31mRED\\u202e\"\nscenarioId: \"id\\x1b[2J\"\n" +
		"world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\n"
	if err := os.WriteFile(sc, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"run", "--headless", "--steps", "1", "--no-api", "--no-control", "--no-bridge", "--scenario", sc}
	out, errOut, code := simgui(t, nil, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if want := `\x1b]0;pwned\x07\x1b[31mRED\u202e (id\x1b[2J)` + "\n"; !strings.HasPrefix(out, want) || needsEscape(strings.ReplaceAll(out, "\n", "")) {
		t.Errorf("text summary %q; want it to start %q and hold nothing a terminal acts on", out, want)
	}
	out, errOut, code = simgui(t, nil, append(args, "--json")...)
	if code != 0 {
		t.Fatalf("--json: exit %d: %s", code, errOut)
	}
	if needsEscape(strings.ReplaceAll(out, "\n", "")) {
		t.Errorf("JSON summary holds characters a terminal acts on: %q", out)
	}
	var s runSummary
	if err := json.Unmarshal([]byte(out), &s); err != nil || s.DisplayName != name || s.ScenarioID != id {
		t.Errorf("JSON summary decodes to displayName %q, scenarioId %q (%v); want %q, %q", s.DisplayName, s.ScenarioID, err, name, id)
	}
}
