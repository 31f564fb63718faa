package control

import (
	"encoding/json"
	"testing"
)

func TestFixQuotes(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"command":"fps"}`, `{"command":"fps"}`},
		{`{'command':'device_list', 'filter':''}`, `{"command":"device_list", "filter":""}`},
		{`{'filter':'it\'s'}`, `{"filter":"it's"}`},
		{`{'filter':'say "hi"'}`, `{"filter":"say \"hi\""}`},
		{`{'filter':'back\\slash'}`, `{"filter":"back\\slash"}`},
		{`{'filter':'tab\tnew\u0041'}`, `{"filter":"tab\tnew\u0041"}`},
		{`{"filter":"it's", 'command':'x'}`, `{"filter":"it's", "command":"x"}`},
		{`{"filter":"a\"'b"}`, `{"filter":"a\"'b"}`},
		{`{'a':[1,'b',{'c':true}]}`, `{"a":[1,"b",{"c":true}]}`},
	} {
		got := string(fixQuotes([]byte(c.in)))
		if got != c.want {
			t.Errorf("fixQuotes(%s) = %s, want %s", c.in, got, c.want)
			continue
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("fixQuotes(%s) = %s is not valid JSON", c.in, got)
		}
	}
	var v struct{ Filter string }
	if err := json.Unmarshal(fixQuotes([]byte(`{'filter':'it\'s "x"'}`)), &v); err != nil || v.Filter != `it's "x"` {
		t.Fatalf("decoded %q (%v)", v.Filter, err)
	}
	// Broken input stays broken for the decoder to report.
	for _, in := range []string{`{'command':'fps}`, `{'a':'b\`, `{"a":"b`} {
		if json.Valid(fixQuotes([]byte(in))) {
			t.Errorf("fixQuotes(%s) made it valid", in)
		}
	}
}
