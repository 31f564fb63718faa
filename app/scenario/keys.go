package scenario

import (
	"fmt"
	"strings"
)

// MaxKeys and MaxKeyBytes bound the key lists a client sends with an episode (a reset's vehicle
// and track params and flags, the fast path's maps): simgui knows about a hundred keys, all far
// shorter, each list is merged into every agent's, and a longer key is echoed in errors only
// cut short.
const (
	MaxKeys     = 256
	MaxKeyBytes = 256
)

// CheckKeys refuses the key list called name when it has more than MaxKeys entries, an empty
// key or a key over MaxKeyBytes.
func CheckKeys(name string, keys []string) error {
	if len(keys) > MaxKeys {
		return fmt.Errorf("%s has %d entries; at most %d", name, len(keys), MaxKeys)
	}
	for _, k := range keys {
		if strings.TrimSpace(k) == "" {
			return fmt.Errorf("%s: an entry has an empty key", name)
		}
		if len(k) > MaxKeyBytes {
			return fmt.Errorf("%s: a key of %d bytes (at most %d), starting %q", name, len(k), MaxKeyBytes, strings.ToValidUTF8(k[:40], ""))
		}
	}
	return nil
}
