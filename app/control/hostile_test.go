package control

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"simgui/app/markers"
	"simgui/app/world"
)

// TestHostileCommands sends /control and /markers what the hostile probe found accepted:
// time scales and poses no loop or physics can take, recordings that would leave the record
// folder through symlinks, and markers without end. Each is answered with what is wrong, and
// the world steps after each (sim time advances). Heap use is measured around them.
func TestHostileCommands(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	records := filepath.Join(dir, "records")
	os.MkdirAll(filepath.Join(records, "real"), 0o755)
	must(t, os.Symlink(outside, filepath.Join(records, "out")))                             // a folder link leaving the folder
	must(t, os.Symlink(filepath.Join(records, "real"), filepath.Join(records, "in")))       // one staying inside
	must(t, os.Symlink(filepath.Join(outside, "x.mcap"), filepath.Join(records, "f.mcap"))) // a file link
	must(t, os.WriteFile(filepath.Join(records, "plain"), nil, 0o644))
	e := start(t, Options{RecordDir: records})
	c := e.dial(t, "/control", nil)
	m := e.dial(t, "/markers", nil)

	box := func(id int, text string) string {
		return fmt.Sprintf(`{"group":"g","id":%d,"type":"Text","text":{"size":1,"point":{"x":0,"y":0,"z":0},"text":%q}}`, id, text)
	}
	addMany := func(from, n int) string {
		var b strings.Builder
		b.WriteString(`{"command":"Add","markers":[`)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(box(from+i, "t"))
		}
		b.WriteString("]}")
		return b.String()
	}
	tooMany := fmt.Sprintf("a request may carry at most %d markers", markers.MaxMarkers)
	if r := askJSON(t, m, addMany(0, markers.MaxMarkers-1)); r["result"] != "ok" {
		t.Fatalf("adding %d markers: %v", markers.MaxMarkers-1, r)
	}

	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)

	for _, tc := range []struct {
		name string
		m    bool // a /markers request
		req  string
		want string // in the answer
	}{
		{"time scale 1e18", false, `{"command":"set_time_scale","scale":1e18}`, "up to 1000000"},
		{"time scale 1e999", false, `{"command":"set_time_scale","scale":1e999}`, "up to 1000000"},
		{"time scale NaN", false, `{"command":"set_time_scale","scale":"NaN"}`, "up to 1000000"},
		{"time scale -0.5", false, `{"command":"set_time_scale","scale":-0.5}`, "up to 1000000"},
		{"teleport to 1e308", false, `{"command":"teleport","targets":[{"target":"car0","pose":{"x":1e308,"y":0,"z":0,"yaw":0}}]}`, "pose x = 1e+308 m is not a number within ±1000000 m"},
		{"teleport yaw 1e300", false, `{"command":"teleport","targets":[{"target":"car0","pose":{"x":0,"y":0,"z":0,"yaw":1e300}}]}`, "pose yaw"},
		{"teleport to 1e999", false, `{"command":"teleport","targets":[{"target":"car0","pose":{"x":1e999}}]}`, "invalid teleport request"},
		{"record through a folder link out", false, `{"command":"start_record","filename":"out/run"}`, "out is a symlink"},
		{"record through a folder link in", false, `{"command":"start_record","filename":"in/run"}`, "in is a symlink"},
		{"record onto a file link", false, `{"command":"start_record","filename":"f.mcap"}`, "a symlink has its name"},
		{"record under a file", false, `{"command":"start_record","filename":"plain/run"}`, "plain is not a folder"},
		{"record with ..", false, `{"command":"start_record","filename":"real/../../x"}`, "no .. and not absolute"},
		{"record absolute", false, `{"command":"start_record","filename":"/tmp/x"}`, "no .. and not absolute"},
		{"markers over the cap", true, addMany(markers.MaxMarkers, 2), fmt.Sprintf("%d markers would be over the limit of %d", markers.MaxMarkers+1, markers.MaxMarkers)},
		{"markers in one request", true, addMany(markers.MaxMarkers, markers.MaxMarkers+1), tooMany},
		{"marker text too long", true, `{"command":"Add","markers":[` + box(99999, strings.Repeat("x", markers.MaxTextLength+1)) + `]}`, "text is 1025 bytes; the limit is 1024"},
		{"marker group too long", true, `{"command":"Add","markers":[{"group":"` + strings.Repeat("g", 300) + `","id":1,"type":"Box","box":{"size":1,"point":{"x":0,"y":0,"z":0}}}]}`, "group is 300 bytes"},
		{"deep JSON", false, strings.Repeat("[", 50000), "invalid json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.loop.Snapshot().SimTime
			conn := c
			if tc.m {
				conn = m
			}
			if got := string(ask(t, conn, tc.req)); !strings.Contains(got, tc.want) || !strings.Contains(got, "fail") && tc.m {
				t.Errorf("answer %.300s, want %q", got, tc.want)
			}
			askJSON(t, c, `{"command":"step","steps":5}`)
			if after := e.loop.Snapshot().SimTime; after <= before {
				t.Errorf("sim time %v then %v", before, after)
			}
		})
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("a recording left the record folder: %v", ents)
	}
	if ents, _ := os.ReadDir(filepath.Join(records, "real")); len(ents) != 0 {
		t.Errorf("a recording went through the inside link: %v", ents)
	}
	if s := e.loop.Snapshot(); s.TimeScale != 0 {
		t.Errorf("time scale %g after refused changes", s.TimeScale)
	}
	if p, _ := e.loop.Snapshot().Model("car0"); p.Pose.X > 1e3 || p.Pose.Yaw > 10 {
		t.Errorf("car0 at %+v", p.Pose)
	}
	if n := e.svc.Markers().Set().Len(); n != markers.MaxMarkers-1 {
		t.Errorf("%d markers, want %d", n, markers.MaxMarkers-1)
	}
	// One more marker fits exactly; a recording in a real sub-folder works.
	if r := askJSON(t, m, addMany(markers.MaxMarkers+10, 1)); r["result"] != "ok" {
		t.Errorf("the last marker: %v", r)
	}
	if got := askJSON(t, c, `{"command":"start_record","filename":"real/run"}`)["result"]; got != "True" {
		t.Errorf("start_record real/run: %v", got)
	}
	askJSON(t, c, `{"command":"stop_record"}`)

	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	t.Logf("heap in use %.1f MiB before the hostile commands, %.1f MiB after", float64(before.HeapInuse)/(1<<20), float64(after.HeapInuse)/(1<<20))
	if grew := int64(after.HeapInuse) - int64(before.HeapInuse); grew > 64<<20 {
		t.Errorf("heap grew by %d MiB", grew>>20)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestTextThatIsNotUTF8: a text message that is not UTF-8 fails the connection with close
// code 1007 (RFC 6455 §8.1); the same bytes as a binary message are answered.
func TestTextThatIsNotUTF8(t *testing.T) {
	e := start(t, Options{})
	bad := []byte("{\"command\":\"\xff\xfe\"}")
	bin := e.dial(t, "/control", nil)
	if err := bin.WriteMessage(websocket.BinaryMessage, bad); err != nil {
		t.Fatal(err)
	}
	if _, reply, err := bin.ReadMessage(); err != nil || len(reply) == 0 {
		t.Fatalf("binary message: %q %v", reply, err)
	}
	c := e.dial(t, "/control", nil)
	if err := c.WriteMessage(websocket.TextMessage, bad); err != nil {
		t.Fatal(err)
	}
	c.SetReadDeadline(time.Now().Add(30 * time.Second))
	_, reply, err := c.ReadMessage()
	if !websocket.IsCloseError(err, websocket.CloseInvalidFramePayloadData) {
		t.Fatalf("got %q %v, want close 1007", reply, err)
	}
	// Other sessions go on.
	if r := askJSON(t, bin, `{"command":"step","steps":1}`); r["result"] == nil {
		t.Errorf("step after: %v", r)
	}
}

// TestLeavingClientsFreeTheLoop has clients ask for the most steps a command may run, queue
// more commands than are read ahead, and cut their connections while the steps run: their
// commands are cancelled (the steps left are dropped) and their sessions closed, so that the
// next client is answered after a fraction of what they asked for, not after all of it.
func TestLeavingClientsFreeTheLoop(t *testing.T) {
	e := start(t, Options{})
	const n = 8
	var conns []*websocket.Conn
	for range n {
		c := e.dial(t, "/control", nil)
		// Commands queued beyond the read-ahead: the reader must go on reading past them to
		// notice the client leave, and leaving must cancel them all.
		for range maxAhead + 4 {
			if err := c.WriteMessage(websocket.TextMessage, fmt.Appendf(nil, `{"command":"step","steps":%d}`, MaxSteps)); err != nil {
				t.Fatal(err)
			}
		}
		conns = append(conns, c)
	}
	// Every session has its command: one steps, the others wait their turn.
	e.waitBusy(t, n)
	for _, c := range conns {
		c.UnderlyingConn().Close() // gone without a close frame
	}
	if it := e.iterationsForNext(t); it >= MaxSteps {
		t.Errorf("the loop had run %.0f steps when the next client was answered: the gone clients' %d×%d went on", it, n, MaxSteps)
	}
}

// waitBusy waits until n sessions are answering a command.
func (e *env) waitBusy(t *testing.T, n int) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(time.Millisecond) {
		e.svc.mu.Lock()
		busy := 0
		for _, st := range e.svc.sessions {
			if st.busy {
				busy++
			}
		}
		e.svc.mu.Unlock()
		if busy == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d sessions took their command", busy, n)
		}
	}
}

// TestBrokenMessageFreesTheLoop has a client start a long step, send the first bytes of a
// second message and drop the connection: the broken read ends the session and cancels the
// step, as a clean disconnect does.
func TestBrokenMessageFreesTheLoop(t *testing.T) {
	e := start(t, Options{})
	c := e.dial(t, "/control", nil)
	if err := c.WriteMessage(websocket.TextMessage, fmt.Appendf(nil, `{"command":"step","steps":%d}`, MaxSteps)); err != nil {
		t.Fatal(err)
	}
	e.waitBusy(t, 1)
	// A masked text frame announcing 100 bytes, of which 10 come.
	frame := append([]byte{0x81, 0x80 | 100, 1, 2, 3, 4}, make([]byte, 10)...)
	if _, err := c.UnderlyingConn().Write(frame); err != nil {
		t.Fatal(err)
	}
	c.UnderlyingConn().Close()
	if it := e.iterationsForNext(t); it >= MaxSteps {
		t.Errorf("the loop had run %.0f steps when the next client was answered: the broken client's went on", it)
	}
}

// iterationsForNext has a fresh client step once, when the sessions before it are gone, and
// returns the loop's iterations then.
func (e *env) iterationsForNext(t *testing.T) float64 {
	t.Helper()
	fresh := e.dial(t, "/control", nil)
	e.waitIdle(t, 1)
	r := askJSON(t, fresh, `{"command":"step"}`)
	res, ok := r["result"].(map[string]any)
	if !ok {
		t.Fatalf("step: %v", r)
	}
	return res["iterations"].(float64)
}

// TestRequestsBeyondTheReadAheadAreAnswered: a client that sends more requests than are read
// ahead gets an answer to each, in order, those read past saying so, and the session goes on.
func TestRequestsBeyondTheReadAheadAreAnswered(t *testing.T) {
	e := start(t, Options{})
	c := e.dial(t, "/control", nil)
	const n = 3 * maxAhead
	msgs := [][]byte{[]byte(`{"command":"step","steps":20000}`)}
	for range n {
		msgs = append(msgs, []byte(`{"command":"fps"}`))
	}
	for _, m := range msgs {
		if err := c.WriteMessage(websocket.TextMessage, m); err != nil {
			t.Fatal(err)
		}
	}
	busy := 0
	for i := range msgs {
		c.SetReadDeadline(time.Now().Add(60 * time.Second))
		_, b, err := c.ReadMessage()
		if err != nil {
			t.Fatalf("answer %d: %v", i, err)
		}
		var r map[string]any
		json.Unmarshal(b, &r)
		res, _ := r["result"].(string)
		switch {
		case strings.HasPrefix(res, "too many requests waiting for answers"):
			busy++
		case i == 0 && r["command"] != "step" || i > 0 && r["command"] != "fps":
			t.Fatalf("answer %d: %s", i, b)
		}
	}
	t.Logf("%d of %d requests read past", busy, n)
	if r := askJSON(t, c, `{"command":"fps"}`); r["command"] != "fps" {
		t.Errorf("after the run: %v", r)
	}
}

// TestGoneClientsCommandsKeepTheirSlots has clients send a command to a loop that runs none (a
// step batch) and hang up. A command left in the loop's queue keeps its slot until the loop
// gets to it, so the commands of clients who come, send and go stay bounded: each one queued
// gave its slot back at once, and 833 get_model_info of a 1 MB name queued 1.3 GB.
func TestGoneClientsCommandsKeepTheirSlots(t *testing.T) {
	e := start(t, Options{})
	release := busyLoop(t, e.loop)
	const n = loopSlots + 4
	for i := range n {
		c := e.dial(t, "/control", nil)
		must(t, c.WriteMessage(websocket.TextMessage, fmt.Appendf(nil,
			`{"command":"teleport","targets":[{"target":"car0","pose":{"x":%d,"y":0,"z":0,"yaw":0}}]}`, i+1)))
		e.waitBusy(t, 1)
		e.waitSlots(t, min(i+1, loopSlots)) // queued, or (past the slots) waiting for one
		c.UnderlyingConn().Close()
		e.waitIdle(t, 0)
		e.waitSlots(t, min(i+1, loopSlots))
	}
	release()
	e.waitSlots(t, 0)
	var p world.Pose
	must(t, e.loop.Call(context.Background(), func(w *world.World) (err error) { p, err = w.Pose("car0"); return err }))
	if p.X != loopSlots {
		t.Errorf("car0 is at x=%g: want %d, the last teleport that had a slot; the others were never queued", p.X, loopSlots)
	}
}

// waitSlots waits until n of the service's loop slots are held.
func (e *env) waitSlots(t *testing.T, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); len(e.svc.slots) != n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d of the loop's slots are held, want %d", len(e.svc.slots), n)
		}
	}
}
