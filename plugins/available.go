package plugins

import (
	"errors"
	"fmt"
)

// StillAvailable checks that r still resolves the track and the vehicles a running
// simulation was built from — what a world's reset asks after plugins may have been removed
// (the simulation keeps running a removed plugin until then). Each id is looked up once; the
// error names the first missing one and what to do.
func StillAvailable(r Resolver, trackID string, vehicleIDs []string) error {
	if trackID != "" {
		if _, err := r.Track(trackID); err != nil {
			return unavailable(trackID, err)
		}
	}
	seen := map[string]bool{}
	for _, id := range vehicleIDs {
		if seen[id] {
			continue
		}
		seen[id] = true
		if _, err := r.Vehicle(id); err != nil {
			return unavailable(id, err)
		}
	}
	return nil
}

func unavailable(id string, err error) error {
	if errors.Is(err, ErrUnknownPlugin) {
		return fmt.Errorf("plugin %s is no longer installed: reinstall it (simgui plugin install) or load another scenario", id)
	}
	return fmt.Errorf("plugin %s no longer loads: %w", id, err)
}
