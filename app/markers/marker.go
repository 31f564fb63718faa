package markers

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"simgui/plugins"
)

// Delimiter separates the parts of a marker name, CLOiSim's SimulationService.Delimiter.
const Delimiter = "!%!"

// OverlayKey is the world overlay (world.World.SetOverlay) holding the current *Set.
const OverlayKey = "markers"

// Topic is the transport topic the current markers are published on (gz.msgs.Marker_V).
const Topic = "/markers"

// Vec3 is a point in the world frame, metres.
type Vec3 struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	Z float64 `json:"z"`
}

// RGBA is an opaque or translucent colour with components in [0, 1].
type RGBA struct {
	R, G, B, A float32
}

// NRGBA converts c to 8-bit non-premultiplied colour for drawing.
func (c RGBA) NRGBA() color.NRGBA {
	b := func(v float32) uint8 { return uint8(math.Round(float64(min(max(v, 0), 1)) * 255)) }
	return color.NRGBA{R: b(c.R), G: b(c.G), B: b(c.B), A: b(c.A)}
}

// Align is the horizontal alignment of a text marker.
type Align int

// Text alignments, in CLOiSim's order.
const (
	AlignLeft Align = iota
	AlignCenter
	AlignRight
)

var alignNames = [...]string{"Left", "Center", "Right"}

// String returns "Left", "Center" or "Right".
func (a Align) String() string {
	if a >= 0 && int(a) < len(alignNames) {
		return alignNames[a]
	}
	return "Align(" + strconv.Itoa(int(a)) + ")"
}

// ParseAlign reads an alignment name, ignoring case.
func ParseAlign(s string) (Align, error) {
	for i, n := range alignNames {
		if strings.EqualFold(s, n) {
			return Align(i), nil
		}
	}
	return 0, fmt.Errorf("unknown text align %q (known: %s)", s, strings.Join(alignNames[:], ", "))
}

// palette is CLOiSim's marker colour table (MarkerVisualizerService's GetColor).
var palette = map[string]RGBA{
	"Red":     {1, 0, 0, 1},
	"Green":   {0, 1, 0, 1},
	"Blue":    {0, 0, 1, 1},
	"Gray":    {0.5, 0.5, 0.5, 1},
	"Orange":  rgb8(254, 161, 0),
	"Lime":    rgb8(166, 254, 0),
	"Pink":    rgb8(232, 0, 254),
	"Purple":  rgb8(143, 0, 254),
	"Navy":    rgb8(60, 0, 254),
	"Aqua":    rgb8(0, 201, 254),
	"Cyan":    {0, 1, 1, 1},
	"Magenta": {1, 0, 1, 1},
	"Yellow":  {1, 235.0 / 255, 4.0 / 255, 1}, // Unity's Color.yellow
	"Black":   {0, 0, 0, 1},
}

func rgb8(r, g, b uint8) RGBA {
	return RGBA{float32(r) / 255, float32(g) / 255, float32(b) / 255, 1}
}

// Colors returns the palette's colour names, sorted.
func Colors() []string {
	names := make([]string, 0, len(palette))
	for n := range palette {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// LookupColor returns the canonical name and value of a palette colour, ignoring case. An empty
// name is Black, as CLOiSim draws a marker without a colour.
func LookupColor(name string) (string, RGBA, error) {
	if name == "" {
		return "Black", palette["Black"], nil
	}
	for n, c := range palette {
		if strings.EqualFold(n, name) {
			return n, c, nil
		}
	}
	return "", RGBA{}, fmt.Errorf("unknown color %q (known: %s)", name, strings.Join(Colors(), ", "))
}

// Marker is one visual marker. It is a value: the store keeps its own copy.
type Marker struct {
	Group string
	// ID is the marker's number within its group, 0 or more.
	ID int
	// Kind is a registered kind name: "Line", "Text", "Box" or "Sphere".
	Kind string
	// Color is the palette name; RGBA its value.
	Color string
	RGBA  RGBA
	// Size is the line width, box edge or sphere diameter in metres, or the text's font size.
	Size float64
	// Point is where the marker is: a line's start, a shape's centre, a text's anchor.
	Point Vec3
	// End is a line's end point.
	End Vec3
	// Text, Align and Following are a text marker's string, alignment and the name of the model
	// it follows ("" for none; the text then stays at Point).
	Text      string
	Align     Align
	Following string
}

// Name returns group!%!id!%!Kind, the marker's unique name.
func (m Marker) Name() string { return Name(m.Group, m.ID, m.Kind) }

// Name builds a marker name from its parts.
func Name(group string, id int, kind string) string {
	return group + Delimiter + strconv.Itoa(id) + Delimiter + kind
}

// validate checks the parts every marker needs.
func (m Marker) validate() error {
	if err := m.checkLengths(); err != nil {
		return err
	}
	if m.ID < 0 {
		return fmt.Errorf("marker %s: id must be 0 or more", m.Name())
	}
	if strings.Contains(m.Group, Delimiter) {
		return fmt.Errorf("marker %s: group must not contain %q", m.Name(), Delimiter)
	}
	if _, err := LookupKind(m.Kind); err != nil {
		return fmt.Errorf("marker %s: %w", m.Name(), err)
	}
	if !finite(m.Size, m.Point.X, m.Point.Y, m.Point.Z, m.End.X, m.End.Y, m.End.Z) {
		return fmt.Errorf("marker %s: sizes and points must be finite numbers", m.Name())
	}
	if m.Size < 0 || m.Size > 2*plugins.WorldExtent {
		return fmt.Errorf("marker %s: size %g is outside 0..%d m", m.Name(), m.Size, 2*plugins.WorldExtent)
	}
	// Within the world (the window draws them, and 1e308 overflowed its arithmetic).
	for _, v := range []float64{m.Point.X, m.Point.Y, m.Point.Z, m.End.X, m.End.Y, m.End.Z} {
		if math.Abs(v) > plugins.WorldExtent {
			return fmt.Errorf("marker %s: a point's coordinate %g is outside ±%d m", m.Name(), v, plugins.WorldExtent)
		}
	}
	return nil
}
