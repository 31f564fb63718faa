//go:build !headless

package main

import (
	"errors"
	"fmt"
	"log/slog"
	"os"

	"github.com/spf13/cobra"

	"simgui/app/window"
	"simgui/editor"
	"simgui/plugins"
	"simgui/plugins/registry"
)

// hostedEditor is the plugin editor as one of the window's screens (F2): its Install & test
// drive spawns into the running world and its file dialogs go through the window.
type hostedEditor struct{ *editor.Editor }

var (
	_ window.Screen   = hostedEditor{}
	_ window.Attacher = hostedEditor{}
	_ window.Notified = hostedEditor{}
)

func (h hostedEditor) Attach(w window.Host) {
	h.SetHost(editor.Host{
		TestDrive:  func(v *plugins.VehicleDescriptor) error { w.TestDrive(v, nil); return nil },
		DriveTrack: w.DriveTrack,
		Files:      func(r editor.FileRequest, done func(string)) { w.Files(window.FileRequest(r), done) },
		Status:     w.Status,
	})
}

// newHostedEditor makes the editor screen for the window, on the user registry when there is
// one; stateFile (the test hook, "" for none) receives the editor's state.
func newHostedEditor(r plugins.Resolver, stateFile string) (hostedEditor, error) {
	reg, _ := r.(*registry.Registry)
	ed, err := editor.New(editor.Options{Registry: reg, Logger: slog.Default(), StateFile: stateFile})
	if err != nil {
		return hostedEditor{}, err
	}
	return hostedEditor{ed}, nil
}

func newEditCmd() *cobra.Command {
	var track bool
	var key, exportDir string
	cmd := &cobra.Command{
		Use:   "edit [plugin folder | archive | installed id]",
		Short: "Open the visual plugin editor in a window of its own",
		Long: `Open the plugin editor: forms for every descriptor field, a live preview, Validate (the
same checks as "simgui plugin validate"), Export to <id>.rusim-plugin.zip (signed with --key)
and Install. Inside the simulator window the editor is the screen behind F2, where
"Install & test drive" also spawns the plugin into the running world.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if exportDir != "" {
				// As `plugin export -o` makes its folder: now, rather than at the first Export.
				if err := os.MkdirAll(exportDir, 0o755); err != nil {
					return fmt.Errorf("--export-dir %s: %w", exportDir, err)
				}
			}
			opts := editor.RunOptions{Options: editor.Options{SigningKey: key, ExportDir: exportDir, New: plugins.TypeVehicle}}
			if track {
				opts.New = plugins.TypeTrack
			}
			if len(args) == 1 {
				opts.Open = args[0]
			}
			if reg, ok := pluginResolver().(*registry.Registry); ok {
				opts.Registry = reg
			}
			err := editor.Run(cmd.Context(), opts)
			if errors.Is(err, editor.ErrNoDisplay) {
				return fmt.Errorf("no display could be opened for the editor; plugins can be made without one: simgui plugin new, validate, export")
			}
			return err
		},
	}
	cmd.Flags().BoolVar(&track, "track", false, "start a new track plugin instead of a vehicle")
	cmd.Flags().StringVar(&key, "key", "", "sign exports with this ed25519 private key (simgui plugin keygen)")
	cmd.Flags().StringVar(&exportDir, "export-dir", "", "where Export writes when no path is typed (default: the working directory)")
	return cmd
}
