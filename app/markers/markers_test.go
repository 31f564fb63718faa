package markers

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"simgui/app/transport/msgs"
)

func mustDecode(t *testing.T, s string) Request {
	t.Helper()
	req, err := DecodeRequest([]byte(s))
	if err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	return req
}

func answer(t *testing.T, st *Store, s string) map[string]any {
	t.Helper()
	var r Response
	if req, err := DecodeRequest([]byte(s)); err != nil {
		r = ErrorResponse(err)
	} else {
		r = st.Apply(req)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("response %s: %v", b, err)
	}
	return out
}

const addPath = `{"command":"Add","markers":[
 {"group":"path","id":1,"type":"Line","color":"Orange","line":{"size":0.05,"point":{"x":0,"y":0,"z":0},"endpoint":{"x":1,"y":2,"z":0}}},
 {"group":"path","id":2,"type":"Text","color":"Blue","text":{"size":12,"point":{"x":1,"y":1,"z":0.5},"align":"center","following":"car0","text":"hello"}},
 {"group":"goal","id":1,"type":"Box","color":"Green","box":{"size":0.3,"point":{"x":3,"y":0,"z":0}}},
 {"group":"goal","id":2,"type":"sphere","color":"yellow","sphere":{"point":{"x":4,"y":0,"z":0}}}]}`

func TestStoreCommands(t *testing.T) {
	var sets []*Set
	st := NewStore(func(s *Set) { sets = append(sets, s) })

	if got := answer(t, st, addPath); got["command"] != "add" || got["result"] != "ok" {
		t.Fatalf("add answered %v", got)
	}
	if len(sets) != 1 || sets[0].Len() != 4 {
		t.Fatalf("change callback got %d sets, want 1 with 4 markers", len(sets))
	}
	text, ok := sets[0].Get("path!%!2!%!Text")
	if !ok {
		t.Fatal("text marker not stored under path!%!2!%!Text")
	}
	if text.Align != AlignCenter || text.Following != "car0" || text.Text != "hello" || text.Size != 12 || text.Color != "Blue" {
		t.Fatalf("text marker decoded as %+v", text)
	}
	sphere, _ := sets[0].Get("goal!%!2!%!Sphere")
	if sphere.Size != 0.01 || sphere.RGBA != (RGBA{1, 235.0 / 255, 4.0 / 255, 1}) || sphere.Color != "Yellow" {
		t.Fatalf("sphere defaults: %+v", sphere)
	}

	// Add of an existing name fails and adds nothing, not even the new marker next to it.
	dup := `{"command":"Add","markers":[
	 {"group":"new","id":0,"type":"Box","box":{"size":1}},
	 {"group":"goal","id":1,"type":"Box","box":{"size":1}}]}`
	got := answer(t, st, dup)
	if got["command"] != "add" || got["result"] != "fail" || !strings.Contains(got["error"].(string), "goal!%!1!%!Box") {
		t.Fatalf("duplicate add answered %v", got)
	}
	if st.Set().Len() != 4 || len(sets) != 1 {
		t.Fatalf("failed add changed the store: %d markers, %d callbacks", st.Set().Len(), len(sets))
	}

	// Modify skips unknown names and succeeds if one matched.
	mod := `{"command":"Modify","markers":[
	 {"group":"goal","id":1,"type":"Box","color":"Red","box":{"size":0.5,"point":{"x":5,"y":5,"z":0}}},
	 {"group":"nope","id":9,"type":"Box","box":{}}]}`
	if got := answer(t, st, mod); got["result"] != "ok" {
		t.Fatalf("modify answered %v", got)
	}
	box, _ := st.Set().Get("goal!%!1!%!Box")
	if box.Color != "Red" || box.Point.X != 5 || box.Size != 0.5 {
		t.Fatalf("modified box is %+v", box)
	}
	if got := answer(t, st, `{"command":"Modify","markers":[{"group":"nope","id":9,"type":"Box","box":{}}]}`); got["result"] != "fail" {
		t.Fatalf("modify of nothing answered %v", got)
	}

	// List with filters: group prefix, id substring, type suffix.
	for _, c := range []struct {
		filter string
		want   []string
	}{
		{``, []string{"goal!%!1!%!Box", "goal!%!2!%!Sphere", "path!%!1!%!Line", "path!%!2!%!Text"}},
		{`,"filter":{"group":"pa"}`, []string{"path!%!1!%!Line", "path!%!2!%!Text"}},
		{`,"filter":{"id":1}`, []string{"goal!%!1!%!Box", "path!%!1!%!Line"}},
		{`,"filter":{"type":"Sphere"}`, []string{"goal!%!2!%!Sphere"}},
		{`,"filter":{"group":"goal","id":2,"type":"Box"}`, nil},
	} {
		req := mustDecode(t, `{"command":"List"`+c.filter+`}`)
		var names []string
		for _, m := range st.Apply(req).Listed {
			names = append(names, m.Name())
		}
		if strings.Join(names, " ") != strings.Join(c.want, " ") {
			t.Errorf("List%s = %v, want %v", c.filter, names, c.want)
		}
	}
	list := answer(t, st, `{"command":"List"}`)
	lines := list["lines"].([]any)
	if len(lines) != 1 || len(list["texts"].([]any)) != 1 || len(list["boxes"].([]any)) != 1 || len(list["spheres"].([]any)) != 1 {
		t.Fatalf("list answer %v", list)
	}
	line := lines[0].(map[string]any)
	body := line["marker"].(map[string]any)
	if line["group"] != "path" || line["id"] != 1.0 || line["type"] != "Line" || line["color"] != "Orange" ||
		body["size"] != 0.05 || body["endpoint"].(map[string]any)["y"] != 2.0 {
		t.Fatalf("listed line %v", line)
	}
	// List with markers fails with an empty command, as CLOiSim answers.
	if got := answer(t, st, `{"command":"List","markers":[{"group":"a","id":1,"type":"Box"}]}`); got["command"] != "" || got["result"] != "fail" {
		t.Fatalf("list with markers answered %v", got)
	}

	// Remove needs no bodies; fails only when nothing matched.
	if got := answer(t, st, `{"command":"Remove","markers":[{"group":"path","id":1,"type":"Line"},{"group":"x","id":1,"type":"Line"}]}`); got["result"] != "ok" {
		t.Fatalf("remove answered %v", got)
	}
	if _, ok := st.Set().Get("path!%!1!%!Line"); ok || st.Set().Len() != 3 {
		t.Fatalf("line still there after remove (%d markers)", st.Set().Len())
	}
	if got := answer(t, st, `{"command":"Remove","markers":[{"group":"path","id":1,"type":"Line"}]}`); got["result"] != "fail" {
		t.Fatalf("second remove answered %v", got)
	}
	if len(sets) != 3 {
		t.Fatalf("%d change callbacks, want 3 (add, modify, remove)", len(sets))
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"empty", ``, "request body is empty"},
		{"null", `null`, "request body is empty"},
		{"malformed", `{"command":`, "invalid json"},
		{"no command", `{"markers":[]}`, "command is empty"},
		{"unknown command", `{"command":"Paint"}`, "unsupported command 'Paint'"},
		{"unknown type", `{"command":"Add","markers":[{"group":"a","id":1,"type":"Cone","cone":{}}]}`, `unknown marker type "Cone"`},
		{"unknown color", `{"command":"Add","markers":[{"group":"a","id":1,"type":"Box","color":"Teal","box":{}}]}`, `unknown color "Teal"`},
		{"missing body", `{"command":"Add","markers":[{"group":"a","id":1,"type":"Box","sphere":{}}]}`, `needs its "box" properties`},
		{"bad align", `{"command":"Add","markers":[{"group":"a","id":1,"type":"Text","text":{"align":"up"}}]}`, `unknown text align "up"`},
		{"no markers", `{"command":"Add"}`, "add needs markers"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := DecodeRequest([]byte(c.in))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want it to contain %q", err, c.want)
			}
		})
	}
	st := NewStore(nil)
	for _, c := range []struct{ name, in, want string }{
		{"negative id", `{"command":"Add","markers":[{"group":"a","type":"Box","box":{}}]}`, "id must be 0 or more"},
		{"negative size", `{"command":"Add","markers":[{"group":"a","id":1,"type":"Box","box":{"size":-1}}]}`, "size -1 is outside 0..20000 m"},
		{"huge size", `{"command":"Add","markers":[{"group":"a","id":1,"type":"Box","box":{"size":1e308}}]}`, "size 1e+308 is outside 0..20000 m"},
		{"far point", `{"command":"Add","markers":[{"group":"a","id":1,"type":"Box","box":{"size":1,"point":{"x":1e308}}}]}`, "coordinate 1e+308 is outside ±10000 m"},
		{"delimiter in group", `{"command":"Add","markers":[{"group":"a!%!b","id":1,"type":"Box","box":{}}]}`, "must not contain"},
		{"repeated name", `{"command":"Add","markers":[{"group":"a","id":1,"type":"Box","box":{}},{"group":"a","id":1,"type":"Box","box":{}}]}`, "already exists"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := st.Apply(mustDecode(t, c.in))
			if r.OK || r.Err == nil || !strings.Contains(r.Err.Error(), c.want) {
				t.Fatalf("apply: ok=%v err=%v, want %q", r.OK, r.Err, c.want)
			}
		})
	}
	if st.Set().Len() != 0 {
		t.Fatalf("failed adds left %d markers", st.Set().Len())
	}
	if err := st.Add([]Marker{{Group: "a", ID: 1, Kind: "Box"}, {Group: "a", ID: 1, Kind: "Box"}}); !errors.Is(err, ErrExists) {
		t.Fatalf("repeated name: %v, want ErrExists", err)
	}
}

func TestProto(t *testing.T) {
	st := NewStore(nil)
	st.Apply(mustDecode(t, addPath))
	v := st.Set().Proto(1500e6)
	if v.GetHeader().GetStamp().AsDuration() != 1500e6 || len(v.GetMarker()) != 4 {
		t.Fatalf("Marker_V %v", v)
	}
	byType := map[msgs.Marker_Type]*msgs.Marker{}
	for _, m := range v.GetMarker() {
		byType[m.GetType()] = m
	}
	line := byType[msgs.Marker_LINE_LIST]
	if line.GetNs() != "path" || line.GetId() != 1 || len(line.GetPoint()) != 2 || line.GetPoint()[1].GetY() != 2 || line.GetScale().GetX() != 0.05 {
		t.Fatalf("line %v", line)
	}
	if c := line.GetMaterial().GetDiffuse(); c.GetR() != 254.0/255 || c.GetG() != 161.0/255 || c.GetA() != 1 {
		t.Fatalf("orange is %v", c)
	}
	text := byType[msgs.Marker_TEXT]
	if text.GetText() != "hello" || text.GetParent() != "car0" || text.GetPose().GetPosition().GetZ() != 0.5 {
		t.Fatalf("text %v", text)
	}
	if byType[msgs.Marker_BOX].GetPose().GetPosition().GetX() != 3 || byType[msgs.Marker_SPHERE] == nil {
		t.Fatalf("shapes %v", v)
	}
}

func TestColorsAndKinds(t *testing.T) {
	want := "Aqua Black Blue Cyan Gray Green Lime Magenta Navy Orange Pink Purple Red Yellow"
	if got := strings.Join(Colors(), " "); got != want {
		t.Fatalf("palette %s", got)
	}
	if c := palette["Navy"].NRGBA(); c.R != 60 || c.G != 0 || c.B != 254 || c.A != 255 {
		t.Fatalf("navy %v", c)
	}
	var names []string
	for _, k := range Kinds() {
		names = append(names, k.List)
	}
	if strings.Join(names, " ") != "lines texts boxes spheres" {
		t.Fatalf("kinds in order %v", names)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("registering Line twice did not panic")
		}
	}()
	RegisterKind(Kind{Name: "Line", Body: "l", List: "ls", Decode: decodeShape, Encode: encodeShape})
}
