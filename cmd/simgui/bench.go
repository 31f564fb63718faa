package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"simgui/app/bench"
)

func newBenchCmd() *cobra.Command {
	var asJSON, list bool
	var filter string
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Run simgui's benchmarks (each with its baseline, measured in the same run)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			if list {
				for _, c := range bench.Cases() {
					fmt.Fprintf(out, "%s\t%s\n", c.Name, c.Doc)
				}
				return nil
			}
			var re *regexp.Regexp
			if filter != "" {
				var err error
				if re, err = regexp.Compile(filter); err != nil {
					return fmt.Errorf("--filter: %w", err)
				}
			}
			progress := func(name string) { fmt.Fprintf(cmd.ErrOrStderr(), "bench: %s\n", name) }
			res, err := bench.Run(re, progress)
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(map[string]any{"version": currentVersion(), "results": res})
			}
			tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "case\tns/op\tallocs/op\tbaseline\tratio\textra")
			for _, r := range res {
				ratio := ""
				if r.Ratio > 0 {
					ratio = fmt.Sprintf("%.3f", r.Ratio)
				}
				extra := ""
				for k, v := range r.Extra {
					extra += fmt.Sprintf("%s=%.4g ", k, v)
				}
				fmt.Fprintf(tw, "%s\t%.0f\t%d\t%s\t%s\t%s\n", r.Name, r.NsPerOp, r.AllocsPerOp, r.Baseline, ratio, extra)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().BoolVar(&list, "list", false, "list the cases without running them")
	cmd.Flags().StringVar(&filter, "filter", "", "run only cases whose name matches this regular expression (and their baselines)")
	return cmd
}
