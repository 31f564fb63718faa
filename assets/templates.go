package assets

import "embed"

// Templates holds the plugin project templates `simgui plugin new` copies: templates/plugin-
// vehicle and templates/plugin-track, with the placeholders {{PLUGIN_ID}}, {{DISPLAY_NAME}},
// {{DESCRIPTION}} and {{AUTHOR}} as in rusim's templates.
//
//go:embed templates
var Templates embed.FS
