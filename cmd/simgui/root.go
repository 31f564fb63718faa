package main

import (
	"github.com/spf13/cobra"
)

func newRoot() *cobra.Command {
	var scenarioPath string
	var services serviceFlags
	var wf windowFlags
	root := &cobra.Command{
		Use:   "simgui",
		Short: "simgui — a robot simulator for sim-to-real work on small robots",
		Long: `simgui simulates small robots (KS0223 differential-drive cars, arcade cars, quadcopters)
on tracks described as data. With no arguments it opens a window running the default
scenario; "simgui run --headless" runs the same simulation without a display.`,
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runWindow(cmd.Context(), windowOptions{scenario: scenarioPath, services: services, window: wf,
				set: func(name string) bool { return cmd.Flags().Changed(name) }})
		},
	}
	root.SetFlagErrorFunc(flagError)
	root.Flags().StringVar(&scenarioPath, "scenario", "", "scenario YAML file to open (default: the embedded KS0223 corridor)")
	services.register(root.Flags())
	wf.register(root.Flags())
	root.AddCommand(newRunCmd(), newVersionCmd(), newBenchCmd(), newPluginCmd(), newEditCmd())
	// cobra's completion command cannot run itself, so an unknown shell (`completion tcsh`)
	// printed the help to stdout and exited 0: a script redirecting it into a completion file
	// sourced help text. Runnable, its NoArgs refuses the name as plugin's does.
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			c.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
		}
	}
	return root
}
