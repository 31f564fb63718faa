package main

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"sync"

	"simgui/plugins"
	"simgui/plugins/registry"
)

// openRegistry opens the user plugin registry in $RUSIM_HOME (default ~/.rusim). log
// receives the warnings of plugins as they load (nil: dropped, for commands that print them).
func openRegistry(log *slog.Logger) (*registry.Registry, error) {
	home, err := registry.DefaultHome()
	if err != nil {
		return nil, err
	}
	return registry.Open(home, registry.Options{Logger: log}), nil
}

// pluginResolver is what scenarios resolve against: built-in and installed plugins, seeing
// installs and removals made while simgui runs. Without a home folder (no $HOME, no
// $RUSIM_HOME) it is the built-ins alone.
var pluginResolver = sync.OnceValue(func() plugins.Lister {
	reg, err := openRegistry(slog.Default())
	if err != nil {
		slog.Warn("only built-in plugins are available", "error", err)
		return plugins.Builtin()
	}
	return reg
})

// printJSON prints v as rusim's CLI does: two-space indent, non-ASCII and <>& as they are,
// except the characters a terminal acts on (escapeJSON).
func printJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(escapeJSON(b.Bytes()))
	return err
}
