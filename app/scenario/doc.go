// Package scenario reads scenario YAML files in rusim's shape (runtime, world, vehicle or
// agents, sensors, route, logging, with rusim's metadata displayName, version, description)
// plus simgui's plugins list, checks them against the plugin catalog and the track's JSON
// Schema, and turns them into a Plan the app builds a world from.
//
// Decoding is strict: an unknown key is an error naming the file, the key and where it was.
// Before yaml.v3 decodes a file, its size (MaxBytes, 1 MiB), the keys of each mapping
// (MaxMappingKeys, 1000), the nesting (MaxDepth) and the node count with aliases expanded
// (MaxNodes) are checked, and .nan and .inf are refused anywhere (limits.go).
// Positions are in the world frame (x east, y north, z up; docs/ARCHITECTURE.md), or in rusim's
// Unity axes when the file is rusim's (Scenario.RusimAxes: axes: rusim, or runtime.runtimeMode
// without axes); Resolve converts those first (Scenario.InWorldAxes). docs/SCENARIOS.md lists
// every key and its meaning.
package scenario

//go:generate go run ../../internal/docsgen randomization ../../docs/SCENARIOS.md
