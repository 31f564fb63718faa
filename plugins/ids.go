package plugins

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Plugin ids follow rusim's convention, vehicle.{brand}.{model}.v{major} and
// track.{name}.v{major}, each part lower-case letters, digits, '_' and '-', with the further
// dotted parts rusim's own ids use (vehicle.ks0223.arcade.blue.v1): a vehicle has a brand, a
// model and up to four more parts, a track a name and up to five more (track.acme.loop.v1).
// SafeID's 128 characters bound them too.
var (
	vehicleIDPattern = regexp.MustCompile(`^vehicle(\.[a-z0-9][a-z0-9_-]*){2,6}\.v([0-9]{1,9})$`)
	trackIDPattern   = regexp.MustCompile(`^track(\.[a-z0-9][a-z0-9_-]*){1,6}\.v([0-9]{1,9})$`)
)

// legacyIDs are built-in ids that predate the convention; they cannot be installed over, so
// only the built-in catalog ever carries them.
var legacyIDs = map[string]Type{"vehicle.ks0223.v1": TypeVehicle}

// ParseID checks id against the naming convention and returns the type and major version it
// names. Built-in ids that predate the convention (vehicle.ks0223.v1) are accepted.
func ParseID(id string) (Type, int, error) {
	if t, ok := legacyIDs[id]; ok {
		return t, 1, nil
	}
	for _, c := range []struct {
		t  Type
		re *regexp.Regexp
	}{{TypeVehicle, vehicleIDPattern}, {TypeTrack, trackIDPattern}} {
		if m := c.re.FindStringSubmatch(id); m != nil && SafeID(id) {
			major, _ := strconv.Atoi(m[len(m)-1])
			return c.t, major, nil
		}
	}
	return "", 0, fmt.Errorf("%q does not follow vehicle.{brand}.{model}.v{major} or track.{name}.v{major} (lower-case letters, digits, '_' and '-'; more dotted parts allowed before the version)", id)
}

// SafeID reports whether id can name a folder on every platform: 1 to 128 characters from
// A–Z, a–z, 0–9, '.', '_' and '-', not starting with '.' or '-'. Every id that follows the
// convention is safe; the registry refuses the others before they reach a path.
func SafeID(id string) bool {
	if id == "" || len(id) > 128 || id[0] == '.' || id[0] == '-' {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// pyRepr quotes s as Python's repr does, for error texts rusim's CLI prints with {x!r}.
func pyRepr(s string) string {
	q := byte('\'')
	if strings.ContainsRune(s, '\'') && !strings.ContainsRune(s, '"') {
		q = '"'
	}
	out := []byte{q}
	for _, r := range s {
		switch {
		case r == '\\' || r == rune(q):
			out = append(out, '\\', byte(r))
		case r == '\n':
			out = append(out, `\n`...)
		case r == '\t':
			out = append(out, `\t`...)
		case r < 0x20 || r == 0x7f:
			out = fmt.Appendf(out, `\x%02x`, r)
		default:
			out = append(out, string(r)...)
		}
	}
	return string(append(out, q))
}
