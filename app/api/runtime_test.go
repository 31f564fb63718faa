package api

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// decodedStepFieldNames is what stepFieldNames reads, by decoding body: "name" for a top-level
// member, "actions[].name" for one of an action; sorted, each once (the log names each once).
func decodedStepFieldNames(body []byte) []string {
	var top map[string]json.RawMessage
	if json.Unmarshal(body, &top) != nil {
		return nil
	}
	var out []string
	for name, raw := range top {
		out = append(out, name)
		if !strings.EqualFold(name, "actions") {
			continue
		}
		var actions []map[string]json.RawMessage
		if json.Unmarshal(raw, &actions) != nil {
			continue
		}
		for _, a := range actions {
			for name := range a {
				out = append(out, "actions[]."+name)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// scannedStepFieldNames is stepFieldNames's reading of body, as decodedStepFieldNames puts it.
func scannedStepFieldNames(body []byte) []string {
	var out []string
	stepFieldNames(body, func(name []byte, action bool) {
		if action {
			out = append(out, "actions[]."+string(name))
		} else {
			out = append(out, string(name))
		}
	})
	slices.Sort(out)
	return slices.Compact(out)
}

func TestStepFieldNames(t *testing.T) {
	for _, body := range []string{
		rusimStep,
		`{}`, `null`, ` { } `,
		`{"vertical": 1, "Actions": [{"climb": 1, "extensions": [{"key": "a", "value": "{\"x\": [1, {\"y\": 2}]}", "z": 1}]}, null, {}]}`,
		`{"ve\u0072tical": "\"}", "a\\b": [[], {"k": {"n": 1}}], "actions": null, "extensions": [{"key": "k", "value": 1}]}`,
		`{"actions": [{"targetAgentId": "ego", "throttle": 1}], "after": {"inner": [{"deep": 1}]}, "x,y": ":"}`,
		"{\"\xa8\": [], \"ACtions\": [{\"\": 0}, {\"\": 0}]}", // invalid UTF-8 reads as U+FFFD
	} {
		if got, want := scannedStepFieldNames([]byte(body)), decodedStepFieldNames([]byte(body)); !slices.Equal(got, want) {
			t.Errorf("%s:\n got %q\nwant %q", body, got, want)
		}
	}
}
