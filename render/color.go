package render

import (
	"fmt"
	"strconv"
)

// RGB is an 8-bit sRGB colour as stored in frames (no gamma handling: values are written as
// given, scaled only by lighting).
type RGB struct{ R, G, B uint8 }

// ParseColor parses "#rrggbb" (case-insensitive). Descriptors are parsed once, when a Static or
// a Mesh is built, never per frame.
func ParseColor(s string) (RGB, error) {
	if len(s) != 7 || s[0] != '#' {
		return RGB{}, fmt.Errorf("colour %q: want \"#rrggbb\"", s)
	}
	v, err := strconv.ParseUint(s[1:], 16, 32)
	if err != nil {
		return RGB{}, fmt.Errorf("colour %q: want \"#rrggbb\" with hex digits", s)
	}
	return RGB{uint8(v >> 16), uint8(v >> 8), uint8(v)}, nil
}

// colorOr parses s, or returns def when s is empty.
func colorOr(s string, def RGB) (RGB, error) {
	if s == "" {
		return def, nil
	}
	return ParseColor(s)
}

// String formats c as "#rrggbb".
func (c RGB) String() string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// Scale multiplies each channel by k, rounding to nearest and clamping to 0..255.
func (c RGB) Scale(k float64) RGB {
	return RGB{scale8(c.R, k), scale8(c.G, k), scale8(c.B, k)}
}

// Lerp blends c towards d by t in [0, 1].
func (c RGB) Lerp(d RGB, t float64) RGB {
	f := func(a, b uint8) uint8 {
		return clamp8(float64(a) + (float64(b)-float64(a))*t)
	}
	return RGB{f(c.R, d.R), f(c.G, d.G), f(c.B, d.B)}
}

func scale8(v uint8, k float64) uint8 { return clamp8(float64(v) * k) }

// clamp8 rounds x to nearest (halves up) and clamps it to 0..255; NaN gives 0.
func clamp8(x float64) uint8 {
	if !(x > 0) {
		return 0
	}
	if x >= 254.5 {
		return 255
	}
	return uint8(x + 0.5)
}
