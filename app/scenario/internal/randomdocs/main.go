// Command randomdocs writes the randomization table (scenario.RandomDocs) into a Markdown
// file between scenario.RandomDocsBegin and scenario.RandomDocsEnd; `go generate
// ./app/scenario` runs it on docs/SCENARIOS.md.
package main

import (
	"fmt"
	"io"
	"os"

	"simgui/app/scenario"
	"simgui/plugins/archive"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: randomdocs FILE.md")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "randomdocs:", err)
		os.Exit(1)
	}
}

func run(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	out, err := scenario.SpliceRandomDocs(string(b))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return archive.WriteAtomic(path, 0o644, func(w io.Writer) error {
		_, err := w.Write([]byte(out))
		return err
	})
}
