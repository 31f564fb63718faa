// Package plugins is simgui's plugin SDK data model: vehicle and track descriptors, device
// contracts and ContractVersion (seed 002 §5.3), plus what the runtime needs to simulate a plugin
// on its own — body geometry, drive model, sensor mounts and track geometry.
//
// A descriptor is plain data: it is read from descriptor.json and device-contract.json, edited by
// the editor, packed into .rusim-plugin.zip archives and turned into bodies by app/world. Fields
// that rusim's Unity SDK does not export (body, drive, visual, sensors, elements, ...) are
// simgui extensions; an archive without them loads with a fallback body for its device type.
//
// # Units
//
// Lengths in metres, masses in kilograms, angles in degrees where the field name ends in Deg,
// rates in hertz. Positions are in the world frame (x east, y north, z up); mount poses are in
// the vehicle frame (x forward, y left, z up). See docs/ARCHITECTURE.md.
package plugins
