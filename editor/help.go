package editor

import "github.com/ebitengine/debugui"

// helpKeys are the lines of the Keys overlay: the editor's keys and pointer uses.
var helpKeys = [][2]string{
	{"Ctrl+S", "save (Save)"},
	{"Ctrl+Z / Ctrl+Y", "undo / redo: the typing in one field, or one drag, at a time"},
	{"Tab / Shift+Tab", "next / previous field"},
	{"Enter / Esc", "leave the field (Enter in open opens; in a material's image field adds it)"},
	{"Ctrl+A", "select the field's text"},
	{"Ctrl+C / X / V", "copy / cut / paste"},
	{"Ctrl+W / Ctrl+U / Ctrl+K", "delete the word before / all before / all after the caret"},
	{"track view: drag", "move a static track's spawn point, waypoint or element (Shift: 1 cm steps)"},
	{"track view: wheel", "zoom at the pointer; zoomed, drag the background to pan"},
	{"F1 / Esc", "show / hide this list"},
	{"F2", "the simulator, when the editor was opened from it"},
}

// helpPanel lays out the Keys overlay.
func (e *Editor) helpPanel(ctx *debugui.Context) {
	ctx.SetGridLayout([]int{-1, 80}, nil)
	ctx.Text("The editor's keys")
	e.button(ctx, "help.close", "Close", func() { e.helpOpen = false })
	ctx.SetGridLayout([]int{190, -1}, nil)
	for _, k := range helpKeys {
		ctx.Text(k[0])
		ctx.Text(k[1])
	}
}
