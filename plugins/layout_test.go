package plugins

import "testing"

func TestWithoutMaterialsCopiesThePlainLayout(t *testing.T) {
	l := &Layout{
		Floor:    Floor{Length: 2, Width: 1, Texture: "plywood"},
		Elements: []Element{{Kind: ElementWall, Length: 1, Material: "cardboard"}, {Kind: ElementBox, Material: "brick"}},
	}
	p := l.WithoutMaterials()
	if p.Floor.Texture != "" || p.Floor.Length != 2 || len(p.Elements) != 2 {
		t.Fatalf("plain floor %+v, %d elements", p.Floor, len(p.Elements))
	}
	for i, e := range p.Elements {
		if e.Material != "" || e.Kind != l.Elements[i].Kind {
			t.Fatalf("plain element %d: %+v", i, e)
		}
	}
	if l.Floor.Texture != "plywood" || l.Elements[0].Material != "cardboard" || l.Elements[1].Material != "brick" {
		t.Fatalf("the original changed: %+v", l)
	}
}
