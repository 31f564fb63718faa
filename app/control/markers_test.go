package control

import (
	"context"
	"fmt"
	"testing"
	"time"

	"simgui/app/markers"
	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/app/world"
)

func TestMarkersReachWorldAndBus(t *testing.T) {
	e := start(t, Options{})
	sub := e.bus.Subscribe(markers.Topic, nil...)
	defer sub.Close()
	m := e.dial(t, "/markers", nil)
	c := e.dial(t, "/control", nil)
	add := `{'command':'Add','markers':[
	 {'group':'route','id':0,'type':'Line','color':'Aqua','line':{'size':0.02,'point':{'x':0,'y':0,'z':0},'endpoint':{'x':1,'y':0,'z':0}}},
	 {'group':'route','id':1,'type':'Text','color':'Black','text':{'size':10,'point':{'x':1,'y':0,'z':0.3},'text':'it\'s here','following':'car0'}}]}`
	if got := askJSON(t, m, add); got["result"] != "ok" || got["command"] != "add" {
		t.Fatalf("add answered %v", got)
	}
	askJSON(t, c, `{"command":"step"}`)
	set, ok := e.loop.Snapshot().Overlays[markers.OverlayKey].(*markers.Set)
	if !ok || set.Len() != 2 {
		t.Fatalf("snapshot overlay %v", e.loop.Snapshot().Overlays)
	}
	text, _ := set.Get("route!%!1!%!Text")
	if text.Text != "it's here" || text.Following != "car0" {
		t.Fatalf("text marker %+v", text)
	}
	select {
	case msg := <-sub.C():
		v := msg.Msg.(*msgs.Marker_V)
		if msg.Type != "gz.msgs.Marker_V" || len(v.GetMarker()) != 2 {
			t.Fatalf("published %s %v", msg.Type, v)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("nothing published on /markers")
	}
	if got := askJSON(t, m, `{"command":"Remove","markers":[{"group":"route","id":0,"type":"Line"}]}`); got["result"] != "ok" {
		t.Fatalf("remove answered %v", got)
	}
	askJSON(t, c, `{"command":"step"}`)
	if set := e.loop.Snapshot().Overlays[markers.OverlayKey].(*markers.Set); set.Len() != 1 {
		t.Fatalf("after remove the overlay has %d markers", set.Len())
	}
	list := askJSON(t, m, `{"command":"List","filter":{"group":"route"}}`)
	if texts := list["texts"].([]any); len(texts) != 1 || len(list["lines"].([]any)) != 0 {
		t.Fatalf("list %v", list)
	}
}

// TestMarkerChangesArePublishedTogether: a client changing markers in a loop gets each change
// into the world at once, while the bus gets the set at most every markersEvery, the last
// one always.
func TestMarkerChangesArePublishedTogether(t *testing.T) {
	e := start(t, Options{})
	sub := e.bus.Subscribe(markers.Topic, transport.WithQueueLen(1000))
	defer sub.Close()
	m := e.dial(t, "/markers", nil)
	const n = 60
	start := time.Now()
	for i := range n {
		add := fmt.Sprintf(`{"command":"Add","markers":[{"group":"g","id":%d,"type":"Line","color":"Aqua","line":{"size":0.02,"point":{"x":0,"y":0,"z":0},"endpoint":{"x":1,"y":0,"z":0}}}]}`, i)
		if got := askJSON(t, m, add); got["result"] != "ok" {
			t.Fatalf("add %d answered %v", i, got)
		}
	}
	took := time.Since(start)
	published := 0
	for {
		select {
		case msg := <-sub.C():
			published++
			if len(msg.Msg.(*msgs.Marker_V).GetMarker()) != n {
				continue
			}
			if limit := int(took/markersEvery) + 2; published > limit {
				t.Errorf("%d sets published for %d changes in %v; at most %d", published, n, took, limit)
			}
			return
		case <-time.After(10 * time.Second):
			t.Fatalf("the last set (%d markers) was not published; %d sets were", n, published)
		}
	}
}

// TestMarkerChangesWaitOnceForABusyLoop: while the loop runs no commands (a long step batch),
// marker changes leave one command waiting there, which takes the latest set: each change
// queued a set of its own, holding the whole store, and a client changing markers during a
// million-step batch grew the process by 25 MB a second.
func TestMarkerChangesWaitOnceForABusyLoop(t *testing.T) {
	e := start(t, Options{})
	m := e.dial(t, "/markers", nil)
	release := busyLoop(t, e.loop)
	const n = 20
	seen := make([]int, n) // the markers each probe, queued after change i, finds in the world
	for i := range n {
		add := fmt.Sprintf(`{"command":"Add","markers":[{"group":"g","id":%d,"type":"Line","color":"Aqua","line":{"size":0.02,"point":{"x":0,"y":0,"z":0},"endpoint":{"x":1,"y":0,"z":0}}}]}`, i)
		if got := askJSON(t, m, add); got["result"] != "ok" {
			t.Fatalf("add %d answered %v", i, got)
		}
		e.loop.Do(func(w *world.World) {
			set, _ := w.Snapshot().Overlays[markers.OverlayKey].(*markers.Set)
			seen[i] = set.Len()
		})
	}
	release()
	if err := e.loop.Call(context.Background(), func(*world.World) error { return nil }); err != nil {
		t.Fatal(err)
	}
	for i, got := range seen {
		if got != n {
			t.Fatalf("after change %d the world had %d markers, want the latest set's %d (every probe: %v)", i, got, n, seen)
		}
	}
	// Once taken, the next change queues again.
	if got := askJSON(t, m, `{"command":"Remove","markers":[{"group":"g","id":0,"type":"Line"}]}`); got["result"] != "ok" {
		t.Fatalf("remove answered %v", got)
	}
	var after int
	if err := e.loop.Call(context.Background(), func(w *world.World) error {
		set, _ := w.Snapshot().Overlays[markers.OverlayKey].(*markers.Set)
		after = set.Len()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if after != n-1 {
		t.Fatalf("after a remove the world has %d markers, want %d", after, n-1)
	}
}
