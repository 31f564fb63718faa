package assets

import "embed"

// Scenarios holds the embedded scenarios: scenarios/default.yaml is what `simgui` opens when
// no scenario is given.
//
//go:embed scenarios
var Scenarios embed.FS
