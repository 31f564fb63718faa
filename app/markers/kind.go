package markers

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"simgui/app/transport/msgs"
)

// Kind is a marker type the /markers service accepts.
type Kind struct {
	// Name is the type as requests spell it ("Line"); it ends marker names.
	Name string
	// Body is the request field holding the kind's properties ("line").
	Body string
	// List is the List answer's field for markers of this kind ("lines").
	List string
	// Proto is the gz.msgs.Marker type the kind is published as.
	Proto msgs.Marker_Type
	// Decode fills m's kind-specific fields from the JSON body.
	Decode func(body json.RawMessage, m *Marker) error
	// Encode returns the JSON body of m for a List answer.
	Encode func(m Marker) any
}

var (
	kindsMu sync.RWMutex
	kinds   = map[string]Kind{}
	// kindOrder is registration order, the order of a List answer's lists (CLOiSim's lines,
	// texts, boxes, spheres).
	kindOrder []string
)

// RegisterKind adds a marker kind. It panics on an empty or duplicate name or a missing field:
// registration happens in init, so these are programming errors.
func RegisterKind(k Kind) {
	if k.Name == "" || k.Body == "" || k.List == "" || k.Decode == nil || k.Encode == nil {
		panic("markers: RegisterKind needs Name, Body, List, Decode and Encode")
	}
	kindsMu.Lock()
	defer kindsMu.Unlock()
	if _, dup := kinds[k.Name]; dup {
		panic("markers: duplicate kind " + k.Name)
	}
	kinds[k.Name] = k
	kindOrder = append(kindOrder, k.Name)
}

// LookupKind returns the kind called name, ignoring case; unknown names are an error listing the
// known ones.
func LookupKind(name string) (Kind, error) {
	kindsMu.RLock()
	defer kindsMu.RUnlock()
	if k, ok := kinds[name]; ok {
		return k, nil
	}
	for n, k := range kinds {
		if strings.EqualFold(n, name) {
			return k, nil
		}
	}
	return Kind{}, fmt.Errorf("unknown marker type %q (known: %s)", name, strings.Join(kindNamesLocked(), ", "))
}

// Kinds returns the registered kinds in registration order.
func Kinds() []Kind {
	kindsMu.RLock()
	defer kindsMu.RUnlock()
	out := make([]Kind, 0, len(kinds))
	for _, n := range kindOrder {
		out = append(out, kinds[n])
	}
	return out
}

func kindNamesLocked() []string {
	names := make([]string, 0, len(kinds))
	for n := range kinds {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// defaultSize is CLOiSim's size when a body leaves it out.
const defaultSize = 0.01

// shapeBody is the JSON body of box and sphere markers, and the common part of the others.
type shapeBody struct {
	Size  *float64 `json:"size"`
	Point Vec3     `json:"point"`
}

func (b shapeBody) apply(m *Marker) {
	m.Size = defaultSize
	if b.Size != nil {
		m.Size = *b.Size
	}
	m.Point = b.Point
}

type shapeOut struct {
	Size  float64 `json:"size"`
	Point Vec3    `json:"point"`
}

type lineBody struct {
	shapeBody
	Endpoint Vec3 `json:"endpoint"`
}

type lineOut struct {
	Size     float64 `json:"size"`
	Point    Vec3    `json:"point"`
	Endpoint Vec3    `json:"endpoint"`
}

type textBody struct {
	shapeBody
	Align     string `json:"align"`
	Following string `json:"following"`
	Text      string `json:"text"`
}

type textOut struct {
	Size      float64 `json:"size"`
	Point     Vec3    `json:"point"`
	Align     string  `json:"align"`
	Following string  `json:"following"`
	Text      string  `json:"text"`
}

func decodeShape(body json.RawMessage, m *Marker) error {
	var b shapeBody
	if err := json.Unmarshal(body, &b); err != nil {
		return err
	}
	b.apply(m)
	return nil
}

func encodeShape(m Marker) any { return shapeOut{Size: m.Size, Point: m.Point} }

func init() {
	RegisterKind(Kind{
		Name: "Line", Body: "line", List: "lines", Proto: msgs.Marker_LINE_LIST,
		Decode: func(body json.RawMessage, m *Marker) error {
			var b lineBody
			if err := json.Unmarshal(body, &b); err != nil {
				return err
			}
			b.apply(m)
			m.End = b.Endpoint
			return nil
		},
		Encode: func(m Marker) any { return lineOut{Size: m.Size, Point: m.Point, Endpoint: m.End} },
	})
	RegisterKind(Kind{
		Name: "Text", Body: "text", List: "texts", Proto: msgs.Marker_TEXT,
		Decode: func(body json.RawMessage, m *Marker) error {
			var b textBody
			if err := json.Unmarshal(body, &b); err != nil {
				return err
			}
			b.apply(m)
			m.Text, m.Following = b.Text, b.Following
			if b.Align != "" {
				a, err := ParseAlign(b.Align)
				if err != nil {
					return err
				}
				m.Align = a
			}
			return nil
		},
		Encode: func(m Marker) any {
			return textOut{Size: m.Size, Point: m.Point, Align: m.Align.String(), Following: m.Following, Text: m.Text}
		},
	})
	RegisterKind(Kind{Name: "Box", Body: "box", List: "boxes", Proto: msgs.Marker_BOX, Decode: decodeShape, Encode: encodeShape})
	RegisterKind(Kind{Name: "Sphere", Body: "sphere", List: "spheres", Proto: msgs.Marker_SPHERE, Decode: decodeShape, Encode: encodeShape})
}
