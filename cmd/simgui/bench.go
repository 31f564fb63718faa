package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"runtime/pprof"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	// The cases simgui bench runs, one package per area; the editor's come with the editor
	// (window builds only).
	_ "simgui/app/api/apibench"
	"simgui/app/bench"
	_ "simgui/app/bridge/bridgebench"
	_ "simgui/app/control/controlbench"
	_ "simgui/app/fastpath/fastpathbench"
	_ "simgui/app/sensors/camera/camerabench"
	_ "simgui/app/sensors/jpegenc/jpegbench"
	_ "simgui/app/sensors/lidar/lidarbench"
	_ "simgui/app/systems/timeline/timelinebench"
	_ "simgui/app/transport/transportbench"
	_ "simgui/app/world/worldbench"
	"simgui/plugins/archive"
	"simgui/render"
	_ "simgui/render/renderbench"
)

// Bounds of the bench flags.
const (
	maxBenchTime    = 10 * time.Minute
	maxCaseTimeout  = time.Hour
	benchFlagBounds = "between 1ns and %v"
)

func newBenchCmd() *cobra.Command {
	var asJSON, list bool
	var filter, cpuProfile string
	var target, limit time.Duration
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Run simgui's benchmarks (each with its baseline, measured in the same run)",
		Long: `Run simgui's benchmarks, each case with the baseline it names in the same run; the
ratio column is case/baseline ns per op. Each case runs on a goroutine of its own for --time
of measured ops. A case fails when it reports an error (a broken path, a wrong result),
panics, or outlives --case-timeout; the table says so and the command exits 1. Figures that
depend on the machine's load (dropped frames, achieved rates) are reported, not failed.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			var re *regexp.Regexp
			if filter != "" {
				var err error
				if re, err = regexp.Compile(filter); err != nil {
					return fmt.Errorf("--filter: %w", err)
				}
			}
			// The cases --filter names, as a run takes them (with their baselines besides).
			type listed struct {
				Name     string `json:"name"`
				Baseline string `json:"baseline,omitempty"`
				Doc      string `json:"doc"`
			}
			var cases []listed
			for _, c := range bench.Cases() {
				if re == nil || re.MatchString(c.Name) {
					cases = append(cases, listed{c.Name, c.Baseline, c.Doc})
				}
			}
			if len(cases) == 0 {
				return fmt.Errorf("--filter %q matches no case (simgui bench --list names them)", filter)
			}
			if list {
				var b strings.Builder
				if asJSON {
					data, err := json.MarshalIndent(map[string]any{"cases": cases}, "", "  ")
					if err != nil {
						return err
					}
					b.Write(append(data, '\n'))
				} else {
					for _, c := range cases {
						fmt.Fprintf(&b, "%s\t%s\n", c.Name, c.Doc)
					}
				}
				if _, err := io.WriteString(out, b.String()); err != nil {
					return fmt.Errorf("write the list: %w", err)
				}
				return nil
			}
			if target <= 0 || target > maxBenchTime {
				return fmt.Errorf("--time %v: want a duration "+benchFlagBounds, target, maxBenchTime)
			}
			if limit <= 0 || limit > maxCaseTimeout {
				return fmt.Errorf("--case-timeout %v: want a duration "+benchFlagBounds, limit, maxCaseTimeout)
			}
			opts := bench.Options{Target: target, Limit: limit,
				Progress: func(name string) { fmt.Fprintf(cmd.ErrOrStderr(), "bench: %s\n", name) }}
			opts.Filter = re
			var res []bench.Result
			run := func() (err error) {
				res, err = bench.Run(opts)
				return err
			}
			var err error
			if cpuProfile != "" {
				// Written whole or not at all: the profile may become the build's default.pgo.
				err = archive.WriteAtomic(cpuProfile, 0o644, func(w io.Writer) error {
					if err := pprof.StartCPUProfile(w); err != nil {
						return err
					}
					defer pprof.StopCPUProfile()
					return run()
				})
				if err != nil {
					err = fmt.Errorf("--cpuprofile %s: %w", cpuProfile, err)
				}
			} else {
				err = run()
			}
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				if err := enc.Encode(map[string]any{"version": currentVersion(), "results": res}); err != nil {
					return err
				}
			} else if err := printBench(out, res); err != nil {
				return err
			}
			if failed := bench.Failed(res); len(failed) > 0 {
				return fmt.Errorf("bench: %d of %d cases failed: %s", len(failed), len(res), strings.Join(failed, ", "))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().BoolVar(&list, "list", false, "list the cases without running them")
	cmd.Flags().StringVar(&filter, "filter", "", "run only cases whose name matches this regular expression (and their baselines)")
	cmd.Flags().DurationVar(&target, "time", bench.DefaultTarget, "measure each case's ops for this long")
	cmd.Flags().DurationVar(&limit, "case-timeout", bench.DefaultLimit, "fail a case that has not finished after this long")
	cmd.Flags().StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile (pprof) of the run to this file; make pgo makes the build's profile with it")
	return cmd
}

// printBench writes the results as a table, then what the cases that did not pass said.
func printBench(out io.Writer, res []bench.Result) error {
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "case\tstatus\tns/op\tallocs/op\tbaseline\tratio\textra")
	for _, r := range res {
		nsOp, allocs, ratio := "", "", ""
		if r.Status == bench.StatusOK {
			nsOp, allocs = fmt.Sprintf("%.0f", r.NsPerOp), fmt.Sprint(r.AllocsPerOp)
		}
		if r.Ratio > 0 {
			ratio = fmt.Sprintf("%.3f", r.Ratio)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Name, r.Status, nsOp, allocs, r.Baseline, ratio, extraText(r))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// The realistic look's figures depend on the CPU's vector kernels: say which ran.
	if _, err := fmt.Fprintf(out, "render kernels: %s\n", render.Kernels()); err != nil {
		return err
	}
	var errs []error
	for _, r := range res {
		if r.Status == bench.StatusOK {
			continue
		}
		for _, m := range r.Messages {
			if _, err := fmt.Fprintf(out, "%s %s: %s\n", r.Name, r.Status, m); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// extraText lists a result's throughput and metrics, sorted by unit.
func extraText(r bench.Result) string {
	var parts []string
	if r.MBPerS > 0 {
		parts = append(parts, fmt.Sprintf("MB/s=%.4g", r.MBPerS))
	}
	units := make([]string, 0, len(r.Extra))
	for k := range r.Extra {
		units = append(units, k)
	}
	sort.Strings(units)
	for _, k := range units {
		parts = append(parts, fmt.Sprintf("%s=%.4g", k, r.Extra[k]))
	}
	return strings.Join(parts, " ")
}
