// Package httpguard keeps web pages and other local programs out of simgui's HTTP faces (the
// WebSocket control service and the training API), which listen on loopback for programs
// of the machine's user — and so are reachable by any web page that user opens.
//
// A request passes when
//
//   - its Host is an IP address, "localhost" or a name under ".localhost", or a name given
//     with AllowHosts. Otherwise a page on a DNS name its owner points at 127.0.0.1 (DNS
//     rebinding) would be same-origin with the face and could read its replies; an IP
//     address or a localhost name cannot be rebound.
//   - it has no Origin (not from a browser), an Origin in AllowOrigins ("*": any), or the
//     Origin of a page served from the same host and port where that host is an IP address
//     or localhost.
//   - Token is empty, or the request carries it as "Authorization: Bearer <token>" or
//     ?token=<token> (compared in constant time).
//
// The figures and the faces that use it are in docs/SECURITY.md.
package httpguard

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// TokenEnv is the environment variable the command line takes the token from when --token is
// not given.
const TokenEnv = "SIMGUI_TOKEN"

// MaxTokenBytes bounds a token: a request's headers are bounded (the training API's at 64 KiB),
// and a token no request can carry locks every client out.
const MaxTokenBytes = 4096

// CheckToken refuses a token no client could send, which would lock every client out without
// a word: one over MaxTokenBytes, one holding a control character (a newline cannot be in a
// header) or starting or ending with a space (TokenOK trims the Authorization header's, so
// only ?token= could match it). "" (no token) is fine.
func CheckToken(token string) error {
	switch {
	case len(token) > MaxTokenBytes:
		return fmt.Errorf("the token has %d bytes; at most %d", len(token), MaxTokenBytes)
	case !utf8.ValidString(token) || strings.ContainsFunc(token, unicode.IsControl):
		return errors.New("the token holds a control character or is not UTF-8; clients cannot send it in a header")
	case strings.TrimSpace(token) != token:
		return errors.New("the token starts or ends with a space; clients cannot send it in a header")
	}
	return nil
}

// Guard checks requests; the zero value checks Host and Origin and asks no token.
type Guard struct {
	allowOrigins []string
	allowHosts   []string
	token        string
	localPages   bool // Origin file:// passes (WithLocalPages)
}

// LocalPageOrigin is the Origin Chromium sends from a page loaded from a file: that of
// Electron apps such as Foxglove's desktop app.
const LocalPageOrigin = "file://"

// WithLocalPages makes g let requests from pages loaded from files (Origin file://) pass, as
// a face that desktop apps built on Electron use needs, and returns g. Such a page is a file
// the machine's user opened; "null", which any sandboxed frame of any site sends, still fails.
func (g *Guard) WithLocalPages() *Guard {
	g.localPages = true
	return g
}

// New returns a guard. allowOrigins are scheme://host[:port] (a trailing '/' is ignored) or
// "*"; allowHosts are host names (without port) that may appear in Host besides IP addresses
// and localhost names; token, when not empty, is required.
func New(allowOrigins, allowHosts []string, token string) *Guard {
	g := &Guard{token: token}
	for _, o := range allowOrigins {
		g.allowOrigins = append(g.allowOrigins, strings.TrimSuffix(o, "/"))
	}
	for _, h := range allowHosts {
		g.allowHosts = append(g.allowHosts, strings.TrimSuffix(strings.TrimSpace(h), "."))
	}
	return g
}

// CheckOrigin reports what is wrong with an allowed origin as --allow-origin takes it: "*",
// or a scheme (http or https) and a host with an optional port, as browsers send Origin.
func CheckOrigin(o string) error {
	if o == "*" {
		return nil
	}
	u, err := url.Parse(strings.TrimSuffix(o, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return fmt.Errorf("origin %q: want * or scheme://host[:port] as a browser sends it, for example http://localhost:3000", o)
	}
	return nil
}

// Refusal is why a request was refused: the HTTP status and a message naming the fix.
type Refusal struct {
	Status  int
	Message string
}

func (r *Refusal) Error() string { return r.Message }

// Check returns nil for a request that may proceed.
func (g *Guard) Check(r *http.Request) *Refusal {
	if !g.HostOK(r.Host) {
		return &Refusal{http.StatusForbidden, fmt.Sprintf(
			"host %q is not served: use an IP address or localhost, or start simgui with --allow-host %s", r.Host, hostname(r.Host))}
	}
	if origin := r.Header.Get("Origin"); !g.OriginOK(origin, r.Host) {
		if CheckOrigin(origin) != nil { // no flag can allow it
			return &Refusal{http.StatusForbidden, fmt.Sprintf("origin %s may not use this service", origin)}
		}
		return &Refusal{http.StatusForbidden, fmt.Sprintf(
			"origin %s may not use this service; start simgui with --allow-origin %s to allow it", origin, origin)}
	}
	if !g.TokenOK(r) {
		return &Refusal{http.StatusUnauthorized,
			"missing or wrong token: pass an Authorization: Bearer <token> header or ?token=<token>"}
	}
	return nil
}

// HostOK reports whether a Host header (host or host:port) names this machine in a way a web
// page cannot rebind.
func (g *Guard) HostOK(host string) bool {
	if host == "" {
		return true // HTTP/1.0 without Host: not a browser
	}
	name := strings.TrimSuffix(hostname(host), ".")
	if net.ParseIP(name) != nil || isLocalhost(name) {
		return true
	}
	for _, h := range g.allowHosts {
		if strings.EqualFold(h, name) {
			return true
		}
	}
	return false
}

// OriginOK reports whether a request with this Origin may proceed on host.
func (g *Guard) OriginOK(origin, host string) bool {
	if origin == "" || g.localPages && origin == LocalPageOrigin {
		return true
	}
	for _, a := range g.allowOrigins {
		if a == "*" || strings.EqualFold(a, origin) {
			return true
		}
	}
	u, err := url.Parse(origin)
	if err != nil || !strings.EqualFold(u.Host, host) {
		return false
	}
	name := u.Hostname()
	return isLocalhost(name) || net.ParseIP(name) != nil
}

// TokenOK reports whether the request carries the token (always, when there is none).
func (g *Guard) TokenOK(r *http.Request) bool {
	if g.token == "" {
		return true
	}
	got := r.URL.Query().Get("token")
	// The scheme's name is case-insensitive (RFC 9110 §11.1): "bearer" is "Bearer".
	if scheme, cred, ok := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " "); ok && strings.EqualFold(scheme, "Bearer") {
		got = strings.TrimSpace(cred)
	}
	return subtle.ConstantTimeCompare([]byte(got), []byte(g.token)) == 1
}

// hostname strips the port and the brackets of an IPv6 address.
func hostname(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		return h
	}
	return strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
}

// isLocalhost: "localhost" and names under ".localhost" always resolve to loopback (RFC 6761),
// and browsers resolve them so themselves.
func isLocalhost(name string) bool {
	name = strings.ToLower(name)
	return name == "localhost" || strings.HasSuffix(name, ".localhost")
}
