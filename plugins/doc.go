// Package plugins is simgui's plugin SDK data model: vehicle and track descriptors, device
// contracts and ContractVersion as rusim's plugin SDK defines them, plus what the runtime needs to simulate a plugin
// on its own — body geometry, drive model, sensor mounts and track geometry.
//
// A descriptor is plain data: it is read from descriptor.json and device-contract.json, edited by
// the editor, packed into .rusim-plugin.zip archives and turned into bodies by app/world. Fields
// that rusim's Unity SDK does not export (body, drive, visual, sensors, elements, ...) are
// simgui extensions; an archive without them loads with a fallback body for its device type.
//
// # Validation
//
// ValidateManifest, ValidateVehicle and ValidateTrack check values — what the editor calls on
// descriptors in memory; ReadPlugin decodes a plugin's files and validates them — what the CLI
// and the registry call. Both return Problems: every problem with its field path
// ("descriptor.sensors[2].pose.x"), warnings apart. CheckRuntime checks a manifest's
// compatibleRuntime against RuntimeVersion. See docs/PLUGINS.md for the rules.
//
// # Parameter tables
//
// Every number a descriptor holds has its unit, default and range stated once, here: the
// drive models (DriveModel, ResolveDriveParams), the sensor kinds (SensorKind, SensorSetup),
// mount poses, bodies, contracts and track geometry (ranges.go). Validation reads them, and so
// does the runtime — physics/drive builds models from ResolveDriveParams, app/sensors mounts
// from SensorSetup, physics bodies from Body.Check, plugins/trackgen checks generated layouts
// with CheckLayout — so that what installs runs, and what would not run does not install. The
// editor's forms, the window's sensor fans and docs/PLUGINS.md (go generate) read them too.
//
// Sub-packages: archive reads and writes archives and plugin folders, refusing hostile ones;
// signing signs and verifies them; registry is the two-tier registry (built-in catalog and
// $RUSIM_HOME) with side-loading; scaffold makes new plugin projects; trackgen builds track
// layouts.
//
// # Units
//
// Lengths in metres, masses in kilograms, angles in degrees where the field name ends in Deg,
// rates in hertz. Positions are in the world frame (x east, y north, z up); mount poses are in
// the vehicle frame (x forward, y left, z up). See docs/ARCHITECTURE.md.
package plugins

//go:generate go run ../internal/docsgen params ../docs/PLUGINS.md
