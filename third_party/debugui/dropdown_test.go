// SPDX-License-Identifier: Apache-2.0

package debugui

import (
	"image"
	"testing"
)

// simgui: a drop-down's list is as high as its options laid out in it (defaultHeight each,
// spacing between, padding around). It was len(options)*(defaultHeight+padding+1), two pixels
// short for two options and four for one: such a list showed a scroll bar beside its options
// and cut the last one's edge (the editor's body shape, box or circle).
func TestDropdownListHoldsItsOptions(t *testing.T) {
	for n := 1; n <= 9; n++ {
		// The list's window as the drop-down makes it (no title, no resizing), its options
		// as it lays them out; its content's size is known from the second frame.
		var d DebugUI
		var body, content image.Point
		for range 2 {
			if _, err := d.Update(func(ctx *Context) error {
				return ctx.window("", image.Rect(0, 0, 300, 600), optionNoResize|optionNoTitle, "list", func(layout ContainerLayout) {
					ctx.SetGridLayout([]int{-1}, nil)
					ctx.Loop(n, func(i int) { ctx.Button("option") })
					body, content = layout.Bounds.Size().Sub(layout.BodyBounds.Size()), layout.ContentSize
				})
			}); err != nil {
				t.Fatal(err)
			}
		}
		// The height the list needs not to scroll: its content, the padding around it (as
		// scrollbars counts it) and what the window's frame takes around its body.
		if need, got := content.Y+2*defaultStyle.padding+body.Y, dropdownListHeight(defaultStyle, n); got < need {
			t.Errorf("%d options: a list %d high, its options need %d (it scrolls)", n, got, need)
		}
	}
}
