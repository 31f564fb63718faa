package jpegenc

// Scene returns a w×h packed RGB test frame that looks like what the renderer produces: a sky
// gradient, a ground gradient, flat-coloured boxes with hard edges, a checkerboard and a thin
// diagonal line. Deterministic.
func Scene(w, h int) []byte {
	pix := make([]byte, 3*w*h)
	set := func(x, y int, r, g, b byte) {
		i := 3 * (y*w + x)
		pix[i], pix[i+1], pix[i+2] = r, g, b
	}
	horizon := h * 2 / 5
	for y := range h {
		for x := range w {
			if y < horizon { // sky: light blue fading to white at the horizon
				t := y * 255 / max(horizon, 1)
				set(x, y, byte(120+t*100/255), byte(170+t*70/255), 240)
			} else { // ground: brownish, darker to the right and nearer
				t := (y - horizon) * 80 / max(h-horizon, 1)
				u := x * 40 / max(w, 1)
				set(x, y, byte(150-t/2-u/2), byte(130-t/2-u/3), byte(90-t/3))
			}
		}
	}
	box := func(x0, y0, x1, y1 int, r, g, b byte) {
		for y := max(y0, 0); y < min(y1, h); y++ {
			for x := max(x0, 0); x < min(x1, w); x++ {
				set(x, y, r, g, b)
			}
		}
	}
	box(w/10, h/2, w/10+w/5, h/2+h/4, 200, 30, 30)       // red box
	box(w/2, h/3, w/2+w/8, h/3+h/2, 40, 160, 60)         // green pillar
	box(w*3/4, h*3/5, w*3/4+w/6, h*3/5+h/8, 240, 220, 0) // yellow crate
	// Checkerboard track marking, 4-pixel squares.
	for y := h * 4 / 5; y < h*9/10; y++ {
		for x := w / 5; x < w*4/5; x++ {
			if (x/4+y/4)%2 == 0 {
				set(x, y, 245, 245, 245)
			} else {
				set(x, y, 20, 20, 20)
			}
		}
	}
	// One-pixel dark diagonal line (a cable or lane edge).
	for x := range w {
		if y := horizon + x*(h-horizon-1)/max(w, 1); y < h {
			set(x, y, 10, 10, 40)
		}
	}
	return pix
}
