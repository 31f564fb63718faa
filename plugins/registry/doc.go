// Package registry is simgui's two-tier plugin registry, as rusim keeps it: the
// built-in catalog embedded in the binary, and the user registry that `simgui plugin install`
// fills — $RUSIM_HOME/plugin-registry.json in rusim's format (schemaVersion 1) with the
// plugins unpacked in $RUSIM_HOME/plugins/<id>/ ($RUSIM_HOME defaults to ~/.rusim).
//
// A Registry is a plugins.Resolver over both tiers that sees changes made by other processes
// without a restart: scenarios can name any installed plugin, and a running simulation's spawn
// list can poll Version. Built-in plugins cannot be overwritten or removed.
//
// Changes (install, remove, settings) are serialised across processes by an flock on
// $RUSIM_HOME/.plugin-registry.lock and publish by rename. An install unpacks the plugin into
// a staging folder, writes a journal ($RUSIM_HOME/.plugin-install.json) naming that folder,
// the name the earlier install moves to and the entry to record, then renames the earlier
// install aside, the staged folder into plugins/<id>/, writes plugin-registry.json (a synced
// temporary file renamed over the old one) and deletes the earlier files and the journal.
// Once the journal is written the install rolls forward: the next command that takes the lock
// — or reads a plugin while a journal is there or its folder is missing — completes it from
// whatever state the folders are in. So a crash at any point leaves the plugin usable in its
// old version (before the journal) or its new one (after), never neither, and never a torn
// registry; an error instead of a crash puts back what was there (journal.go). A listed plugin
// whose folder an older simgui left in a leftover folder gets it back before leftovers are
// deleted. The file format stays rusim's: the journal and the leftovers are dot-files in the
// home folder, which rusim's CLI does not read.
//
// compatibleRuntime is checked at install and again when a plugin loads; with the registry's
// requireSigned setting, signatures are checked at both too (see plugins/signing).
package registry
