package httpguard

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	g := New([]string{"http://localhost:3000/"}, []string{"sim.lan"}, "s3cret")
	open := New(nil, nil, "")
	for _, tc := range []struct {
		name    string
		g       *Guard
		host    string
		header  map[string]string
		query   string
		status  int // 0: passes
		message string
	}{
		{"loopback IP", open, "127.0.0.1:8000", nil, "", 0, ""},
		{"IPv6 loopback", open, "[::1]:8000", nil, "", 0, ""},
		{"another IP (a 0.0.0.0 bind)", open, "192.168.1.20:8000", nil, "", 0, ""},
		{"localhost", open, "localhost:8000", nil, "", 0, ""},
		{"localhost, trailing dot and case", open, "LocalHost.:8000", nil, "", 0, ""},
		{"a .localhost name", open, "sim.localhost:8000", nil, "", 0, ""},
		{"no Host (HTTP/1.0)", open, "", nil, "", 0, ""},
		{"rebound name", open, "evil.example:8000", nil, "", 403, `host "evil.example:8000" is not served`},
		{"name ending in localhost", open, "evillocalhost:8000", nil, "", 403, "--allow-host evillocalhost"},
		{"allowed name", g, "SIM.lan:8000", map[string]string{"Authorization": "Bearer s3cret"}, "", 0, ""},
		{"cross origin", open, "127.0.0.1:8000", map[string]string{"Origin": "http://evil.example"}, "", 403, "--allow-origin http://evil.example"},
		{"same host origin", open, "127.0.0.1:8000", map[string]string{"Origin": "http://127.0.0.1:8000"}, "", 0, ""},
		{"same IP, other port", open, "127.0.0.1:8000", map[string]string{"Origin": "http://127.0.0.1:9"}, "", 403, "origin"},
		{"rebound name as its own origin", New(nil, []string{"evil.example"}, ""), "evil.example:8000",
			map[string]string{"Origin": "http://evil.example:8000"}, "", 403, "origin"},
		{"allowed origin", g, "127.0.0.1:8000", map[string]string{"Origin": "http://localhost:3000", "Authorization": "Bearer s3cret"}, "", 0, ""},
		{"null origin", open, "127.0.0.1:8000", map[string]string{"Origin": "null"}, "", 403, "origin"},
		{"a page from a file", open, "127.0.0.1:8000", map[string]string{"Origin": "file://"}, "", 403, "origin file:// may not use this service"},
		{"a page from a file, local pages allowed", New(nil, nil, "").WithLocalPages(), "127.0.0.1:8000", map[string]string{"Origin": "file://"}, "", 0, ""},
		{"null origin, local pages allowed", New(nil, nil, "").WithLocalPages(), "127.0.0.1:8000", map[string]string{"Origin": "null"}, "", 403, "origin"},
		{"no token", g, "127.0.0.1:8000", nil, "", 401, "missing or wrong token"},
		{"wrong token", g, "127.0.0.1:8000", map[string]string{"Authorization": "Bearer s3cre"}, "", 401, "token"},
		{"token in the query", g, "127.0.0.1:8000", nil, "token=s3cret", 0, ""},
		{"Basic is not a bearer", g, "127.0.0.1:8000", map[string]string{"Authorization": "Basic s3cret"}, "", 401, "token"},
		{"the scheme in any case", g, "127.0.0.1:8000", map[string]string{"Authorization": "bearer s3cret"}, "", 0, ""},
		{"a wrong token in any case", g, "127.0.0.1:8000", map[string]string{"Authorization": "BEARER guess"}, "", 401, "token"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/x?"+tc.query, nil)
			r.Host = tc.host
			for k, v := range tc.header {
				r.Header.Set(k, v)
			}
			ref := tc.g.Check(r)
			switch {
			case tc.status == 0 && ref != nil:
				t.Errorf("refused: %d %s", ref.Status, ref.Message)
			case tc.status != 0 && ref == nil:
				t.Errorf("passed, want %d", tc.status)
			case tc.status != 0 && (ref.Status != tc.status || !strings.Contains(ref.Message, tc.message)):
				t.Errorf("got %d %q, want %d with %q", ref.Status, ref.Message, tc.status, tc.message)
			}
		})
	}
}

// A token no client can send in a header is refused: it would lock every client out.
func TestCheckTokenRefusesWhatNoHeaderCarries(t *testing.T) {
	for _, tok := range []string{"", "s3cret", "my secret", strings.Repeat("a", MaxTokenBytes)} {
		if err := CheckToken(tok); err != nil {
			t.Errorf("%q: %v", tok, err)
		}
	}
	for tok, want := range map[string]string{
		" ":                                  "the token starts or ends with a space; clients cannot send it in a header",
		"abc\n":                              "the token holds a control character or is not UTF-8; clients cannot send it in a header",
		"a\x00b":                             "the token holds a control character or is not UTF-8; clients cannot send it in a header",
		"\xff":                               "the token holds a control character or is not UTF-8; clients cannot send it in a header",
		strings.Repeat("a", MaxTokenBytes+1): "the token has 4097 bytes; at most 4096",
	} {
		if err := CheckToken(tok); err == nil || err.Error() != want {
			t.Errorf("%.20q: %v, want %s", tok, err, want)
		}
	}
}
