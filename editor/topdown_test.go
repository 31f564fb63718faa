package editor

import (
	"image"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
)

// A line placed near the bottom of a track's top view, where a spawn point's name already
// is, is moved up above the name rather than down off the view: the editor's new track has its
// spawn point at the bottom, and its "drag spawn points, ..." line was pushed below the view's
// edge, its lower half cut off. A label with room below still moves down.
func TestTopViewLabelStaysOnTheView(t *testing.T) {
	dst := ebiten.NewImage(528, 112)
	defer dst.Deallocate()
	spawnName := image.Rect(300, 86, 340, 100)
	v := topView{dst: dst, labels: &[]image.Rectangle{spawnName}}
	v.label("drag spawn points, waypoints and elements to move them (Shift: 1 cm steps)", 6, 94, labelColor)
	got := (*v.labels)[1]
	if !got.In(dst.Bounds()) || got.Overlaps(spawnName) {
		t.Errorf("the bottom line is at %v: want it inside the view %v and clear of the spawn name %v", got, dst.Bounds(), spawnName)
	}

	v = topView{dst: dst, labels: &[]image.Rectangle{image.Rect(0, 4, 300, 18)}}
	v.label("wheel: zoom", 6, 10, labelColor)
	if got, want := (*v.labels)[1], image.Rect(6, 19, 6+7*len("wheel: zoom"), 33); got != want {
		t.Errorf("a label under another went to %v, want %v (just below it)", got, want)
	}
}
