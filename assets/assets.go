// Package assets holds the data embedded in the simgui binary: the built-in plugins (and, in
// other files, the default scenario and templates). It has no logic; plugins.Builtin parses
// Plugins.
package assets

import "embed"

// Plugins holds the built-in plugins, one folder per plugin id under "plugins/" in the
// .rusim-plugin.zip layout: manifest.json, descriptor.json, device-contract.json (vehicles) and
// README.md.
//
//go:embed plugins
var Plugins embed.FS
