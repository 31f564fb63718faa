package editor

import (
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestEditorAddMaterialImage adds a material to a new track and an image file to it through
// the window: the image is copied into assets/ and named in the material's images; a file
// that is no PNG is refused in the status line and the images stay as they were.
func TestEditorAddMaterialImage(t *testing.T) {
	needDisplay(t)
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "Red Tiles.png"), filepath.Join(dir, "notes.png")
	if err := os.WriteFile(good, testPNG(t, 32, color.RGBA{200, 40, 40, 255}), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("not an image"), 0o644); err != nil {
		t.Fatal(err)
	}
	g, _ := newTrackEditor(t)
	g.click("button:tab:" + tabGeometry)
	g.reveal("button:materials.add")
	g.click("button:materials.add")
	const images = "field:descriptor.materials[0].textures"
	g.wait("the new material's row", 10*time.Second, func(s State) bool { _, ok := s.Values[images]; return ok })

	g.set("descriptor.materials[0].image", bad)
	g.click("button:materials[0].addImage")
	s := g.wait("the refusal", 10*time.Second, func(s State) bool { return strings.Contains(s.Status, "not a PNG") })
	if s.Values[images] != "" {
		t.Errorf("after a refused file the images read %q", s.Values[images])
	}

	g.set("descriptor.materials[0].image", good)
	g.key("Return") // Enter adds it, as the button does
	s = g.wait("the copy", 10*time.Second, func(s State) bool { return strings.HasPrefix(s.Status, "added assets/red_tiles.png") })
	if s.Values[images] != "assets/red_tiles.png" || s.Values["field:descriptor.materials[0].image"] != "" {
		t.Errorf("after adding %s: images %q, the file field %q (status %q)", good, s.Values[images],
			s.Values["field:descriptor.materials[0].image"], s.Status)
	}
}

// TestEditorNewRowHasRoomBelow adds an element to the new track's six: the form scrolls the
// new row up, so that its kind drop-down, which opens downwards, has room in the window for
// all six kinds (before, marker and road fell below the window's edge).
func TestEditorNewRowHasRoomBelow(t *testing.T) {
	g, _ := newTrackEditor(t)
	g.click("button:tab:" + tabGeometry)
	g.reveal("button:elements.add")
	g.click("button:elements.add")
	const kind = "field:descriptor.elements[6].kind"
	// The default window is 800 pixels high; a drop-down option is 22 pixels.
	const windowH, options = 800, 6 * 22
	s := g.wait("the new row with room below", 10*time.Second, func(s State) bool {
		r, ok := s.Targets[kind]
		return ok && r[3]-r[1] > 10 && r[3]+options <= windowH
	})
	t.Logf("the new row's kind at %v", s.Targets[kind])
}
