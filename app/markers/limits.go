package markers

import (
	"errors"
	"fmt"
)

// Limits of the store, so that what clients add stays small: the markers are in every
// snapshot, drawn every frame and published whole after each change.
const (
	// MaxMarkers is the most markers the store holds.
	MaxMarkers = 4096
	// MaxGroupLength bounds a group and a text's Following model name, MaxTextLength a
	// text, in bytes.
	MaxGroupLength = 256
	MaxTextLength  = 1024
)

// ErrTooMany is returned by Add when the store would hold more than MaxMarkers.
var ErrTooMany = errors.New("too many markers")

// checkLengths refuses a marker whose strings are over their limits.
func (m Marker) checkLengths() error {
	switch {
	case len(m.Group) > MaxGroupLength:
		return fmt.Errorf("marker group is %d bytes; the limit is %d", len(m.Group), MaxGroupLength)
	case len(m.Following) > MaxGroupLength:
		return fmt.Errorf("marker %s: following is %d bytes; the limit is %d", m.Name(), len(m.Following), MaxGroupLength)
	case len(m.Text) > MaxTextLength:
		return fmt.Errorf("marker %s: text is %d bytes; the limit is %d", m.Name(), len(m.Text), MaxTextLength)
	}
	return nil
}
