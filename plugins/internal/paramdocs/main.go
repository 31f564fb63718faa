// Command paramdocs writes plugins' parameter tables (plugins.ParamDocs) into a Markdown file
// between plugins.ParamDocsBegin and plugins.ParamDocsEnd; `go generate ./plugins` runs it on
// docs/PLUGINS.md.
package main

import (
	"fmt"
	"io"
	"os"

	"simgui/plugins"
	"simgui/plugins/archive"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: paramdocs FILE.md")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "paramdocs:", err)
		os.Exit(1)
	}
}

func run(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	out, err := plugins.SpliceParamDocs(string(b))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return archive.WriteAtomic(path, 0o644, func(w io.Writer) error {
		_, err := w.Write([]byte(out))
		return err
	})
}
