// Package editor is simgui's visual plugin editor: a person authors a vehicle or a track as
// data and exports it as <id>.rusim-plugin.zip — no Unity or other editor needed. It is built
// with github.com/ebitengine/debugui and, with app/window, the only package that imports
// Ebiten.
//
// # What it edits
//
// Every field of rusim's plugin SDK: id, displayName, version and description
// (PluginDescriptorBase), plus the manifest's author and compatibleRuntime; for a vehicle its
// device type, drive model and parameters (the plugins.DriveParams table), body (shape, size,
// mass, friction, damping), look (shape, colours), a sensors table with add and remove (id,
// sensorType, format, unit, shape, rateHz, noise; the mount: kind, pose and the kind's
// parameters from plugins.SensorParams), an actuators table (id, type, unit, min, max) and the
// contract's observation and action schemas; for a track its generator, parametersSchemaJson
// (checked as you type), floor, geometry elements, spawn points and route.
//
// Fields hold text; build turns it into descriptors, and a value that is not a number is a
// problem at the field's validator path. Everything else is the validator's: Validate encodes
// the files an export writes and reads them back with plugins.ReadPlugin (through
// archive.Archive.Plugin), the check `simgui plugin validate` runs, and lists every problem
// with its path. The same check runs whenever the form changes, framing the fields with
// problems in red. Export and Install pack with the archive package and sign with
// plugins/signing, as `simgui plugin export` does; Install goes through
// registry.Registry.InstallArchive. Export writes a name typed in "export to" that ends in
// .zip as typed, as `simgui plugin export -o` does; a folder gets <id>.rusim-plugin.zip and
// any other name has .rusim-plugin.zip added. Open reads a folder or archive
// (archive.ReadDir, archive.Read) or an installed plugin, built-in or user. Save writes a
// folder's edits back into it, each changed file through a temporary file (archive.WriteAtomic),
// so that `simgui plugin export` of the folder exports what the editor shows; a plugin from
// no folder is saved as a new folder named for its id beside where Export writes.
//
// The preview shows the vehicle from above with its sensors' fields of view, and renders
// (simgui/render) its first camera's view and a 3D view of it at the start of the built-in
// cardboard corridor, sized to the vehicle; a track is drawn from above
// (plugins/trackgen.Build lays out generated tracks) and rendered from its first spawn point
// and from above.
//
// # Running it
//
// Standalone, in a window of its own:
//
//	err := editor.Run(ctx, editor.RunOptions{Options: editor.Options{Open: "vehicle.ks0223.v1"}})
//
// Hosted as a screen of app/window (F2 switches screens), an Editor is the Screen, and the
// window's Host is adapted in the caller (cmd/simgui), which imports both packages:
//
//	ed, err := editor.New(editor.Options{Registry: reg})
//	screens := []window.Screen{hostedEditor{ed}}
//
//	type hostedEditor struct{ *editor.Editor }
//
//	func (h hostedEditor) Attach(w window.Host) {
//		h.SetHost(editor.Host{
//			TestDrive: func(v *plugins.VehicleDescriptor) error { w.TestDrive(v, nil); return nil },
//			DriveTrack: w.DriveTrack,
//			Files: func(r editor.FileRequest, done func(string)) { w.Files(window.FileRequest(r), done) },
//			Status: w.Status,
//		})
//	}
//
// Install & test drive then installs the plugin and, a vehicle, spawns it in the running world
// at once (the window queues the spawn on its loop and shows the simulator screen), or, a
// track, at a second click runs it with a robot to drive in place of the running scenario;
// standalone, it installs only.
//
// # Concurrency
//
// Update, Draw and Layout run on Ebiten's game goroutine and never block: exporting,
// installing, opening and listing run on the editor's worker goroutine, the preview renders on
// its own, and native file dialogs (which block until answered) run on goroutines of their
// own; their results are applied in Update. Always offer a typed path too: the export and open
// paths are fields.
//
// # Limits
//
// Text fields are one line: JSON schemas are shown compacted (the track tab also prints the
// schema indented under its field) and a description's line breaks as \n. They are the
// editor's own (textfield.go), typed through simgui/app/window/lineedit, which takes every
// character the system typed once, whatever the frame rate, with the usual editing keys
// (Ctrl+A, Ctrl+U, Ctrl+W, Home, End, Tab to the next field, Enter or Esc to leave); its
// limits are lineedit's. Clicks count for the widget under the pointer only (debugui also
// reports one for the widget hovered before, when a pointer moves and clicks in one frame).
//
// # Test hook
//
// Options.StateFile receives State as JSON twenty times a second, as the screen was laid out
// (before that frame's clicks act): the screen rectangles of every field and button by name,
// the problems listed, what was exported, installed and test-driven.
// The GUI tests run the editor in a child process under Xvfb, click and type with xdotool (real
// X events), and read the outcome there and from the files written.
package editor
