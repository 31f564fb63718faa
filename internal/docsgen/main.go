// Command docsgen writes a generated table into a Markdown file between its markers: `docsgen
// params FILE` plugins' parameter tables (plugins.SpliceParamDocs, for docs/PLUGINS.md),
// `docsgen randomization FILE` the randomization parameters (scenario.SpliceRandomDocs, for
// docs/SCENARIOS.md). `go generate ./plugins ./app/scenario` runs it.
package main

import (
	"fmt"
	"io"
	"os"

	"simgui/app/scenario"
	"simgui/plugins"
	"simgui/plugins/archive"
)

// tables are the generated parts, by the name the command takes.
var tables = map[string]func(doc string) (string, error){
	"params":        plugins.SpliceParamDocs,
	"randomization": scenario.SpliceRandomDocs,
}

func main() {
	if len(os.Args) != 3 || tables[os.Args[1]] == nil {
		fmt.Fprintln(os.Stderr, "usage: docsgen params|randomization FILE.md")
		os.Exit(2)
	}
	if err := run(os.Args[2], tables[os.Args[1]]); err != nil {
		fmt.Fprintln(os.Stderr, "docsgen:", err)
		os.Exit(1)
	}
}

func run(path string, splice func(string) (string, error)) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	out, err := splice(string(b))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return archive.WriteAtomic(path, 0o644, func(w io.Writer) error {
		_, err := w.Write([]byte(out))
		return err
	})
}
