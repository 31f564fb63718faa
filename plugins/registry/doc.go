// Package registry is simgui's two-tier plugin registry (seed 002 §5.3.6, §5.6.3): the
// built-in catalog embedded in the binary, and the user registry that `simgui plugin install`
// fills — $RUSIM_HOME/plugin-registry.json in rusim's format (schemaVersion 1) with the
// plugins unpacked in $RUSIM_HOME/plugins/<id>/ ($RUSIM_HOME defaults to ~/.rusim).
//
// A Registry is a plugins.Resolver over both tiers that sees changes made by other processes
// without a restart: scenarios can name any installed plugin, and a running simulation's spawn
// list can poll Version. Built-in plugins cannot be overwritten or removed.
//
// Changes (install, remove, settings) are serialised across processes by an flock on
// $RUSIM_HOME/.plugin-registry.lock and publish by rename: the plugin folder is unpacked into
// a staging folder and renamed into plugins/, then plugin-registry.json is written to a
// temporary file, synced and renamed over the old one. Concurrent installs lose nothing, and a
// crash leaves the old registry or the new one, never a torn one (a crash between the two
// renames leaves an unlisted folder that the next install of the id replaces).
//
// compatibleRuntime is checked at install and again when a plugin loads; with the registry's
// requireSigned setting, signatures are checked at both too (see plugins/signing).
package registry
