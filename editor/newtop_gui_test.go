package editor

import (
	"testing"
	"time"
)

// TestEditorNewPluginOpensAtTheTop scrolls a vehicle's Body tab down to its drive and starts a
// new track: the track's form comes up at its top, tabs and id on show. debugui keeps the
// form's scroll by where it is laid out, and the new plugin's form came up scrolled as far as
// the last, its tabs and id out of sight (a click meant for a tab opened the generator's list).
func TestEditorNewPluginOpensAtTheTop(t *testing.T) {
	needDisplay(t)
	g := startEditor(t, "standalone", "RUSIM_HOME="+t.TempDir())
	g.click("button:tab:" + tabBody)
	g.reveal("field:descriptor.drive.params.latency")
	if s, _ := g.readState(); func() bool { _, ok := s.Targets["button:tab:"+tabGeneral]; return ok }() {
		t.Fatal("the tabs are still on show with the drive's last field: the form did not scroll")
	}
	g.click("button:new-track")
	g.wait("the new track at the top of its form", 10*time.Second, func(s State) bool {
		tab, id := s.Targets["button:tab:"+tabGeneral], s.Targets["field:descriptor.id"]
		return s.Type == "track" && tab[3]-tab[1] >= 16 && id[3]-id[1] >= 16
	})
}
