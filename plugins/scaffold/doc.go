// Package scaffold makes a new plugin project from the templates embedded in the binary
// (assets/templates/plugin-vehicle and plugin-track): what `simgui plugin new` does. The
// project is a folder in the archive layout that validates and exports as it is, ready to be
// edited.
package scaffold
