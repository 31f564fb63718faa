package main

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"simgui/assets"
	"simgui/plugins"
	"simgui/plugins/archive"
	"simgui/plugins/registry"
	"simgui/plugins/scaffold"
	"simgui/plugins/signing"
	"simgui/safefile"
)

func newPluginCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "plugin",
		Short: "Make, check, pack, sign, install and remove plugins (vehicles and tracks)",
		Long: `Plugins are vehicles and tracks packed as <pluginId>.rusim-plugin.zip archives. The user
registry lives in $RUSIM_HOME (default ~/.rusim): plugin-registry.json and plugins/<id>/.
A running simgui sees installs and removals without a restart.

  simgui plugin new --type vehicle vehicle.acme.rover.v1    a project to edit
  simgui plugin validate vehicle.acme.rover.v1              check it
  simgui plugin export vehicle.acme.rover.v1                pack it (validates first)
  simgui plugin install vehicle.acme.rover.v1.rusim-plugin.zip
  simgui plugin list --json
  simgui plugin remove vehicle.acme.rover.v1`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newPluginNewCmd(), newPluginInstallCmd(), newPluginListCmd(), newPluginRemoveCmd(),
		newPluginValidateCmd(), newPluginExportCmd(), newPluginInfoCmd(), newPluginKeygenCmd(),
		newPluginTrustCmd(), newPluginPolicyCmd())
	return cmd
}

func newPluginNewCmd() *cobra.Command {
	var o scaffold.Options
	var typ string
	cmd := &cobra.Command{
		Use:   "new --type vehicle|track <id>",
		Short: "Make a plugin project from the built-in template",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Type, o.ID = plugins.Type(typ), args[0]
			rep, err := scaffold.New(o)
			if err != nil {
				return err
			}
			return printJSON(cmd.OutOrStdout(), rep)
		},
	}
	f := cmd.Flags()
	f.StringVar(&typ, "type", "", "plugin type: vehicle or track")
	f.StringVar(&o.OutputDir, "output-dir", ".", "folder to create the project folder <id> in")
	f.StringVar(&o.DisplayName, "display-name", "", "human-readable name (default: from the id)")
	f.StringVar(&o.Description, "description", "", "description")
	f.StringVar(&o.Author, "author", "", "author name or email")
	cmd.MarkFlagRequired("type")
	return cmd
}

func newPluginInstallCmd() *cobra.Command {
	var requireSigned bool
	cmd := &cobra.Command{
		Use:   "install <archive>",
		Short: "Install a .rusim-plugin.zip archive into the user registry",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			reg, err := openRegistry(nil)
			if err != nil {
				return err
			}
			rep, err := reg.Install(args[0], registry.InstallOptions{RequireSigned: requireSigned})
			if err != nil {
				return withProjectHint(err, args[0])
			}
			warn(cmd.ErrOrStderr(), rep.Warnings)
			return printJSON(cmd.OutOrStdout(), rep)
		},
	}
	cmd.Flags().BoolVar(&requireSigned, "require-signed", false, "refuse archives without a valid signature by a key in $RUSIM_HOME/trusted-keys")
	return cmd
}

// withProjectHint adds to an install's error what to do when the "archive" is a plugin
// project folder (it holds a manifest.json), as `plugin new` makes: export it first.
func withProjectHint(err error, arg string) error {
	if st, serr := os.Stat(filepath.Join(arg, "manifest.json")); serr != nil || !st.Mode().IsRegular() {
		return err
	}
	return fmt.Errorf("%w: it is a plugin project; pack it first with `simgui plugin export %s`, then install the archive", err, shellQuote(arg))
}

func newPluginListCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List built-in and installed plugins",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var items []registry.Item
			if reg, err := openRegistry(nil); err != nil {
				// No home folder (a container, a CI job): the built-ins are still there, as
				// they are for a run.
				warn(cmd.ErrOrStderr(), []string{"only built-in plugins are listed: " + err.Error()})
				items = registry.BuiltinItems(plugins.Builtin())
			} else {
				if items, err = reg.List(); err != nil {
					return err
				}
				shadows, err := reg.Shadowing()
				if err != nil {
					return err
				}
				for _, se := range shadows {
					warn(cmd.ErrOrStderr(), []string{se.Error()})
				}
			}
			if asJSON {
				return printJSON(cmd.OutOrStdout(), map[string]any{"count": len(items), "items": items})
			}
			out := &errWriter{w: cmd.OutOrStdout()}
			for _, it := range items {
				fmt.Fprintf(out, "  %-12s %-40s %-35s %s\n", "["+it.Source+"]",
					printable(it.PluginID), printable(it.DisplayName), printable(it.Version))
			}
			return out.err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func newPluginRemoveCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "remove <id>",
		Short: "Remove an installed plugin (simulations using it keep it until they reset)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			reg, err := openRegistry(nil)
			if err != nil {
				return err
			}
			rep, err := reg.Remove(args[0])
			if err != nil {
				return err
			}
			return printJSON(cmd.OutOrStdout(), rep)
		},
	}
}

// validateReport is what `simgui plugin validate --json` prints.
type validateReport struct {
	Path     string           `json:"path"`
	PluginID string           `json:"pluginId"`
	Valid    bool             `json:"valid"`
	Problems plugins.Problems `json:"problems"`
}

func newPluginValidateCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "validate <dir|archive|id>",
		Short: "Check a plugin project, archive, or built-in or installed plugin; lists every problem with its field path",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			a, err := readSource(args[0])
			if err != nil {
				return err
			}
			p, ps := a.Plugin()
			ps = append(ps, plugins.CheckMaterialPixels(p)...)
			rep := validateReport{Path: args[0], Valid: len(ps.Errors()) == 0, Problems: ps}
			if p != nil {
				rep.PluginID = p.ID()
			}
			out := cmd.OutOrStdout()
			if asJSON {
				if rep.Problems == nil {
					rep.Problems = plugins.Problems{}
				}
				if err := printJSON(out, rep); err != nil {
					return err
				}
			} else {
				out := &errWriter{w: out}
				for i, pr := range ps {
					if i == maxProblemLines {
						fmt.Fprintf(out, "… and %d more (--json lists them all)\n", len(ps)-i)
						break
					}
					if pr.Warning {
						fmt.Fprintln(out, "warning: "+printable(pr.String()))
					} else {
						fmt.Fprintln(out, printable(pr.String()))
					}
				}
				if rep.Valid {
					fmt.Fprintf(out, "%s: valid %s %s, %d files\n", p.ID(), p.Manifest.Type, printable(p.Manifest.Version), len(a.Names()))
				}
				if out.err != nil {
					return out.err
				}
			}
			if !rep.Valid {
				// The argument as given, then the id when the manifest gave one.
				name := args[0]
				if rep.PluginID != "" && rep.PluginID != filepath.Clean(name) {
					name += " (" + rep.PluginID + ")"
				}
				return fmt.Errorf("%s: %s", name, count(len(ps.Errors()), "problem"))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

// readSource reads what validate is given: a plugin folder, an archive, or the id of a
// built-in or installed plugin.
func readSource(arg string) (*archive.Archive, error) {
	st, err := os.Stat(arg)
	switch {
	case err == nil && st.IsDir():
		return archive.ReadDir(arg)
	case err == nil:
		return archive.Open(arg)
	case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
		return nil, err
	}
	if _, _, err := plugins.ParseID(arg); err != nil {
		return nil, fmt.Errorf("no such file or folder, and not a plugin id: %s", arg)
	}
	if plugins.Builtin().Has(arg) {
		return builtinSource(arg)
	}
	if reg, err := openRegistry(nil); err == nil {
		if items, _ := reg.List(); slices.ContainsFunc(items, func(it registry.Item) bool {
			return it.PluginID == arg && it.Source == registry.SourceUser
		}) {
			return archive.ReadDir(reg.Path(arg))
		}
	}
	return nil, fmt.Errorf("no such file or folder, and no plugin %s is built in or installed", arg)
}

// builtinSource reads the files of the built-in plugin id.
func builtinSource(id string) (*archive.Archive, error) {
	dir, err := fs.Sub(assets.Plugins, path.Join("plugins", id))
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	err = fs.WalkDir(dir, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files[name], err = fs.ReadFile(dir, name)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read built-in %s: %w", id, err)
	}
	return archive.DefaultLimits.FromFiles(files)
}

// archiveSuffix ends every plugin archive's name.
const archiveSuffix = ".rusim-plugin.zip"

// exportPath is where export writes the archive of plugin id: out itself when it names a
// .zip file, else <out>/<id>.rusim-plugin.zip (out a folder, made if missing; "" the working
// directory).
func exportPath(out, id string) (string, error) {
	if !strings.HasSuffix(strings.ToLower(out), ".zip") {
		// A folder, made if missing: a file there already was reported as "mkdir X: not a
		// directory".
		if st, err := os.Stat(out); err == nil && !st.IsDir() {
			return "", fmt.Errorf("-o %s is %s, not a folder: name the archive FILE.zip, or give a folder", out, safefile.Describe(st.Mode()))
		}
		out = filepath.Join(out, id+archiveSuffix)
	}
	return filepath.Abs(out)
}

// exportReport is what `simgui plugin export` prints.
type exportReport struct {
	Action   string   `json:"action"`
	PluginID string   `json:"pluginId"`
	Type     string   `json:"type"`
	Version  string   `json:"version"`
	Archive  string   `json:"archive"`
	SHA256   string   `json:"sha256"`
	Files    []string `json:"files"`
	SignedBy string   `json:"signedBy,omitempty"`
}

func newPluginExportCmd() *cobra.Command {
	var out, key string
	cmd := &cobra.Command{
		Use:   "export <dir> [-o FILE] [--sign KEY]",
		Short: "Validate a plugin project and pack it as <pluginId>.rusim-plugin.zip",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			a, err := archive.ReadDir(dir)
			if err != nil {
				return err
			}
			if _, ok := a.File(plugins.SignatureFile); ok {
				a = a.Without(plugins.SignatureFile)
				warn(cmd.ErrOrStderr(), []string{plugins.SignatureFile + " in the project is left out; sign the export with --sign KEY"})
			}
			p, ps := a.Plugin()
			ps = append(ps, plugins.CheckMaterialPixels(p)...)
			if err := ps.Err(); err != nil {
				return fmt.Errorf("%s: nothing exported: %w", dir, err)
			}
			warn(cmd.ErrOrStderr(), problemStrings(ps.Warnings()))
			absOut, err := exportPath(out, p.ID())
			if err != nil {
				return err
			}
			if absDir, _ := filepath.Abs(dir); strings.HasPrefix(absOut, absDir+string(filepath.Separator)) {
				return fmt.Errorf("-o %s is inside the project folder; write the archive elsewhere", out)
			}
			rep := exportReport{Action: "export", PluginID: p.ID(), Type: string(p.Manifest.Type), Version: p.Manifest.Version, Archive: absOut}
			// Signed before -o's folders are made: a key that could not be read left them
			// behind, empty, for an archive never written.
			if key != "" {
				priv, err := signing.ReadPrivateKey(key)
				if err != nil {
					return err
				}
				sig, err := signing.Sign(a.Files(), priv)
				if err != nil {
					return err
				}
				if a, err = a.With(plugins.SignatureFile, sig); err != nil {
					return err
				}
				rep.SignedBy = signing.KeyID(priv.Public().(ed25519.PublicKey))
			}
			made, err := safefile.MkdirAll(filepath.Dir(absOut), 0o755)
			if err != nil {
				return fmt.Errorf("-o %s: %w", out, err)
			}
			if err := a.WriteFile(absOut); err != nil {
				safefile.RemoveMade(made) // a full disk: no empty folders for an archive not written
				return err
			}
			b, err := os.ReadFile(absOut)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			rep.SHA256, rep.Files = hex.EncodeToString(sum[:]), a.Names()
			return printJSON(cmd.OutOrStdout(), rep)
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "archive to write, FILE.zip or a folder (made if missing) for <pluginId>.rusim-plugin.zip (default: the working directory)")
	cmd.Flags().StringVar(&key, "sign", "", "sign with this ed25519 private key file (from simgui plugin keygen)")
	return cmd
}

func newPluginInfoCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "info <id>",
		Short: "Describe a built-in or installed plugin (JSON)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			reg, err := openRegistry(nil)
			if err != nil {
				// No home folder: a built-in is still described, as plugin list lists it.
				if in, ok := registry.BuiltinInfo(plugins.Builtin(), args[0]); ok {
					return printJSON(cmd.OutOrStdout(), in)
				}
				return err
			}
			in, err := reg.Info(args[0])
			if err != nil {
				return err
			}
			return printJSON(cmd.OutOrStdout(), in)
		},
	}
}

func newPluginKeygenCmd() *cobra.Command {
	var prefix string
	cmd := &cobra.Command{
		Use:   "keygen [-o PREFIX]",
		Short: "Make an ed25519 key pair for signing plugins: PREFIX.key (private) and PREFIX.pub",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			id, err := signing.GenerateKeyFiles(prefix)
			if err != nil {
				return err
			}
			return printJSON(cmd.OutOrStdout(), map[string]string{"action": "keygen", "keyId": id,
				"privateKey": prefix + signing.PrivateKeyExt, "publicKey": prefix + signing.PublicKeyExt})
		},
	}
	cmd.Flags().StringVarP(&prefix, "output", "o", "plugin-signing", "path prefix of the two key files")
	return cmd
}

func newPluginTrustCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "trust <KEY.pub>",
		Short: "Trust a public key: copy it into $RUSIM_HOME/trusted-keys",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			reg, err := openRegistry(nil)
			if err != nil {
				return err
			}
			id, path, err := reg.Trust(args[0])
			if err != nil {
				return err
			}
			return printJSON(cmd.OutOrStdout(), map[string]string{"action": "trust", "keyId": id, "installedTo": path})
		},
	}
}

func newPluginPolicyCmd() *cobra.Command {
	var requireSigned bool
	cmd := &cobra.Command{
		Use:   "policy [--require-signed=true|false]",
		Short: "Show or set the registry's policy: whether every plugin must be signed by a trusted key",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			reg, err := openRegistry(nil)
			if err != nil {
				return err
			}
			if cmd.Flags().Changed("require-signed") {
				if err := reg.SetRequireSigned(requireSigned); err != nil {
					return err
				}
			}
			on, err := reg.RequireSigned()
			if err != nil {
				return err
			}
			return printJSON(cmd.OutOrStdout(), map[string]bool{"requireSigned": on})
		},
	}
	cmd.Flags().BoolVar(&requireSigned, "require-signed", false, "refuse unsigned, untrusted or tampered plugins at install and load")
	return cmd
}

// maxProblemLines is how many problems or warnings a command prints, a line each; the rest
// are counted (a route of 40,000 waypoints once printed 37,101 warnings).
const maxProblemLines = 50

// warn prints each warning on its own stderr line, at most maxProblemLines.
func warn(w io.Writer, warnings []string) {
	for i, s := range warnings {
		if i == maxProblemLines {
			fmt.Fprintf(w, "… and %d more warnings\n", len(warnings)-i)
			return
		}
		fmt.Fprintln(w, "warning: "+printable(s))
	}
}

func problemStrings(ps plugins.Problems) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}

func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
