package foxglovews

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image/jpeg"
	"io"
	"log/slog"
	"maps"
	"math"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"simgui/app"
	"simgui/app/foxview/foxglove"
	"simgui/app/scenario"
	"simgui/app/world"
	"simgui/plugins"
)

// liveWorld runs the default KS0223 scenario (lockstep: the test steps it) on a host with the
// live view listening on a free port, until the test ends.
func liveWorld(t *testing.T, face *Face) (*app.Sim, string) {
	sim, _, addr := liveHost(t, face)
	return sim, addr
}

// corridorPlan is the KS0223 in the cardboard corridor.
func corridorPlan(t *testing.T) *scenario.Plan {
	t.Helper()
	sc, err := scenario.Parse([]byte("world: {trackId: track.cardboard_corridor.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\n"), "live.yaml")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := scenario.Resolve(sc, plugins.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

// liveHost is liveWorld with its host.
func liveHost(t *testing.T, face *Face) (*app.Sim, *app.Host, string) {
	t.Helper()
	return liveHostOf(t, face, corridorPlan(t))
}

// liveHostOf is liveHost of plan's world.
func liveHostOf(t *testing.T, face *Face, plan *scenario.Plan) (*app.Sim, *app.Host, string) {
	t.Helper()
	h := app.NewHost(app.HostOptions{Logger: slog.New(slog.DiscardHandler)})
	sim, err := h.Build(plan, app.BuildOptions{Lockstep: true})
	if err != nil {
		t.Fatal(err)
	}
	h.SetScenario(sim)
	face.Listen = "127.0.0.1:0"
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx, face) }()
	t.Cleanup(func() { cancel(); <-done; h.Close() })
	<-h.Start.Done()
	if face.Addr() == nil {
		t.Fatal("the live view did not start")
	}
	return sim, h, face.Addr().String()
}

// viewer is a test client: it reads the server's messages on its own goroutine.
type viewer struct {
	t    *testing.T
	conn *websocket.Conn
	text chan map[string]any
	data chan []byte
}

func dial(t *testing.T, url string) *viewer {
	t.Helper()
	d := websocket.Dialer{Subprotocols: []string{Subprotocol}}
	conn, resp, err := d.Dial(url, nil)
	if err != nil {
		t.Fatalf("dial %s: %v (%v)", url, err, resp)
	}
	if conn.Subprotocol() != Subprotocol {
		t.Fatalf("subprotocol %q, want %q", conn.Subprotocol(), Subprotocol)
	}
	v := &viewer{t: t, conn: conn, text: make(chan map[string]any, 64), data: make(chan []byte, 64)}
	go func() {
		defer close(v.text)
		for {
			typ, msg, err := conn.ReadMessage()
			if err != nil {
				return
			}
			if typ == websocket.BinaryMessage {
				select {
				case v.data <- msg:
				default: // the test reads what it needs; the rest goes
				}
				continue
			}
			var m map[string]any
			if err := json.Unmarshal(msg, &m); err != nil {
				t.Errorf("text message %q is not JSON: %v", msg, err)
				return
			}
			v.text <- m
		}
	}()
	t.Cleanup(func() { conn.Close() })
	return v
}

// next returns the next text message whose op is op, failing after a while (the server sends
// them within milliseconds; the wait is only against a hang).
func (v *viewer) next(op string) map[string]any {
	v.t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case m, ok := <-v.text:
			if !ok {
				v.t.Fatalf("connection closed waiting for %s", op)
			}
			if m["op"] == op {
				return m
			}
		case <-timeout:
			v.t.Fatalf("no %s message", op)
		}
	}
}

func (v *viewer) send(req string) {
	v.t.Helper()
	if err := v.conn.WriteMessage(websocket.TextMessage, []byte(req)); err != nil {
		v.t.Fatal(err)
	}
}

// listed reads Advertise messages until they have named every one of topics, and returns
// their channels by topic: a client that connects as the server starts gets the channels in
// more than one (the first before the server has listed the world's).
func (v *viewer) listed(topics ...string) map[string]map[string]any {
	v.t.Helper()
	out := map[string]map[string]any{}
	for {
		missing := false
		for _, topic := range topics {
			if out[topic] == nil {
				missing = true
			}
		}
		if !missing {
			return out
		}
		maps.Copy(out, channels(v.t, v.next("advertise")))
	}
}

// channels returns an Advertise's channels by topic.
func channels(t *testing.T, adv map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, c := range adv["channels"].([]any) {
		ch := c.(map[string]any)
		out[ch["topic"].(string)] = ch
	}
	return out
}

// A client is told of the world's channels with schemas it can decode, and gets a camera's
// frames as JPEGs and the scene once it subscribes to them.
func TestLiveViewServesTheWorld(t *testing.T) {
	sim, addr := liveWorld(t, &Face{})
	v := dial(t, "ws://"+addr+"/")
	info := v.next("serverInfo")
	if info["name"] != "simgui" || info["sessionId"] == "" {
		t.Errorf("serverInfo %v", info)
	}
	const cam = "/model/ego/sensor/camera.front.rgb/image"
	const calib = "/model/ego/sensor/camera.front.rgb/calibration/foxglove"
	chans := v.listed(cam, cam+"/foxglove", calib, "/scene/foxglove", "/world/default/pose/info/foxglove", "/model/ego/sensor/speedometer/scalar",
		"/clock", "/world/default/stats", "/model/ego/pose", "/model/ego/command", "/model/ego/micom", "/model/ego/wheels")
	for topic, schema := range map[string]string{
		cam: "gz.msgs.Image", cam + "/foxglove": "foxglove.CompressedImage", calib: "foxglove.CameraCalibration",
		"/scene/foxglove":                   "foxglove.SceneUpdate",
		"/world/default/pose/info/foxglove": "foxglove.FrameTransforms", "/model/ego/sensor/speedometer/scalar": "gz.msgs.Float_V",
		// Published only while someone subscribes, listed before.
		"/clock": "gz.msgs.Clock", "/world/default/stats": "gz.msgs.WorldStatistics", "/model/ego/pose": "gz.msgs.Pose",
		"/model/ego/command": "gz.msgs.Param", "/model/ego/micom": "gz.msgs.Micom", "/model/ego/wheels": "gz.msgs.Pose_V",
	} {
		ch := chans[topic]
		if ch == nil || ch["schemaName"] != schema || ch["encoding"] != "protobuf" || ch["schemaEncoding"] != "protobuf" {
			t.Fatalf("channel %s: %v, want %s in protobuf (have %d channels)", topic, ch, schema, len(chans))
		}
		// The schema is a FileDescriptorSet that describes the message by its name.
		data, err := base64.StdEncoding.DecodeString(ch["schema"].(string))
		if err != nil {
			t.Fatal(err)
		}
		var set descriptorpb.FileDescriptorSet
		if err := proto.Unmarshal(data, &set); err != nil {
			t.Fatal(err)
		}
		files, err := protodesc.NewFiles(&set)
		if err != nil {
			t.Fatalf("%s's schema: %v", topic, err)
		}
		if _, err := files.FindDescriptorByName(protoreflect.FullName(schema)); err != nil {
			t.Errorf("%s's schema lacks %s: %v", topic, schema, err)
		}
	}

	camID, sceneID, calibID := chans[cam+"/foxglove"]["id"], chans["/scene/foxglove"]["id"], chans[calib]["id"]
	v.send(`{"op":"subscribe","subscriptions":[{"id":7,"channelId":` + num(camID) + `},{"id":9,"channelId":` + num(sceneID) +
		`},{"id":11,"channelId":` + num(calibID) + `}]}`)
	var gotFrame, gotScene, gotCalib bool
	ctx := context.Background()
	for !gotFrame || !gotScene || !gotCalib {
		// The camera publishes once someone listens: step until its frames come.
		if _, err := sim.Loop.Step(ctx, 10); err != nil {
			t.Fatal(err)
		}
		var msg []byte
		select {
		case msg = <-v.data:
		case <-time.After(10 * time.Millisecond):
			continue
		}
		if len(msg) < messageHeader || msg[0] != opMessageData {
			t.Fatalf("binary message % x: want a Message Data frame", msg[:min(len(msg), 16)])
		}
		sub, ns := binary.LittleEndian.Uint32(msg[1:]), binary.LittleEndian.Uint64(msg[5:])
		if d := time.Since(time.Unix(0, int64(ns))); d < 0 || d > time.Minute {
			t.Errorf("receive time %d is %v from now, want the wall clock", ns, d)
		}
		switch sub {
		case 7:
			var img foxglove.CompressedImage
			if err := proto.Unmarshal(msg[messageHeader:], &img); err != nil {
				t.Fatal(err)
			}
			cfg, err := jpeg.DecodeConfig(bytes.NewReader(img.Data))
			if err != nil || img.Format != "jpeg" || cfg.Width != 640 || cfg.Height != 480 || img.FrameId != "ego/camera.front.rgb" {
				t.Fatalf("camera view: format %q, frame %q, %dx%d JPEG (%v)", img.Format, img.FrameId, cfg.Width, cfg.Height, err)
			}
			gotFrame = true
		case 9:
			var up foxglove.SceneUpdate
			if err := proto.Unmarshal(msg[messageHeader:], &up); err != nil {
				t.Fatal(err)
			}
			if len(up.Entities) != 2 || up.Entities[0].Id != "track" || up.Entities[1].Id != "robot/ego" || len(up.Entities[0].Triangles) == 0 {
				t.Fatalf("scene of %d entities, want the track's triangles and robot/ego", len(up.Entities))
			}
			gotScene = true
		case 11:
			// The KS0223's camera: 68° over its 480 rows, centred.
			var c foxglove.CameraCalibration
			if err := proto.Unmarshal(msg[messageHeader:], &c); err != nil {
				t.Fatal(err)
			}
			fy := 240 / math.Tan(34*math.Pi/180)
			if c.FrameId != "ego/camera.front.rgb" || c.Width != 640 || c.Height != 480 || len(c.K) != 9 ||
				math.Abs(c.K[4]-fy) > 1e-9 || c.K[2] != 319.5 || c.K[5] != 239.5 || c.DistortionModel != "plumb_bob" {
				t.Fatalf("camera calibration %v, want fy %g about (319.5, 239.5)", &c, fy)
			}
			gotCalib = true
		default:
			t.Fatalf("data of subscription %d, subscribed 7, 9 and 11", sub)
		}
	}

	// A robot that comes is advertised with its channels within the refresh; one that goes
	// is unadvertised.
	if err := sim.Loop.Call(ctx, func(w *world.World) error {
		_, err := w.Spawn(world.AgentSpec{Name: "guest", Vehicle: w.Models()[0].Vehicle})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	// Its sensors start at the next step: step until their channels are advertised.
	const guestCamTopic = "/model/guest/sensor/camera.front.rgb/image/foxglove"
	var guestCam any
	for guestCam == nil {
		if _, err := sim.Loop.Step(ctx, 1); err != nil {
			t.Fatal(err)
		}
		select {
		case m := <-v.text:
			if m["op"] == "advertise" {
				if ch := channels(t, m)[guestCamTopic]; ch != nil {
					guestCam = ch["id"]
				}
			}
		case <-time.After(10 * time.Millisecond):
		}
	}
	// Subscribed, as Foxglove would be, when the guest goes.
	v.send(`{"op":"subscribe","subscriptions":[{"id":20,"channelId":` + num(guestCam) + `}]}`)
	if err := sim.Loop.Call(ctx, func(w *world.World) error { return w.Remove("guest") }); err != nil {
		t.Fatal(err)
	}
	var gone map[string]any
	for gone == nil {
		if _, err := sim.Loop.Step(ctx, 1); err != nil {
			t.Fatal(err)
		}
		select {
		case m := <-v.text:
			if m["op"] == "unadvertise" {
				gone = m
			}
		case <-time.After(10 * time.Millisecond):
		}
	}
	if !slices.Contains(gone["channelIds"].([]any), guestCam) {
		t.Errorf("unadvertised %v, want the guest's camera (%v) among them", gone["channelIds"], guestCam)
	}
	// Foxglove unsubscribes what an unadvertise ended: that is quiet; an unknown one is not.
	v.send(`{"op":"unsubscribe","subscriptionIds":[20]}`)
	v.send(`{"op":"unsubscribe","subscriptionIds":[21]}`)
	if st := v.next("status"); !strings.Contains(st["message"].(string), "no subscription 21") {
		t.Errorf("status %v, want only the unknown subscription 21's", st)
	}
}

// num prints a JSON number (float64 once decoded) as an integer, or a list of them.
func num(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

// Requests the server does not serve are answered with a status message saying why, and the
// connection goes on.
func TestLiveViewRequestsRefused(t *testing.T) {
	_, addr := liveWorld(t, &Face{})
	v := dial(t, "ws://"+addr+"/")
	chans := v.listed("/scene/foxglove")
	id := num(chans["/scene/foxglove"]["id"])
	for _, c := range []struct{ req, want string }{
		{`not json`, "not a request"},
		{`{"op":"subscribe","subscriptions":[{"id":1,"channelId":99999}]}`, "no channel 99999"},
		{`{"op":"subscribe","subscriptions":[{"id":-1,"channelId":1}]}`, "subscription 0 ({\"id\":-1,\"channelId\":1}): json: cannot unmarshal"},
		{`{"op":"unsubscribe","subscriptionIds":["x"]}`, `subscriptionIds[0] ("x") is not a subscription id`},
		{`{"op":"subscribe","subscriptions":[{"channelId":1}]}`, "lacks its id"},
		// One bad entry costs only itself: the good one after it is taken.
		{`{"op":"subscribe","subscriptions":[{"id":1.5,"channelId":` + id + `},{"id":1,"channelId":` + id + `}]}`, "subscription 0"},
		{`{"op":"subscribe","subscriptions":[{"id":1,"channelId":` + id + `}]}`, "subscription id 1 is in use"},
		{`{"op":"subscribe","subscriptions":[{"id":2,"channelId":` + id + `}]}`, "subscribed already, as 1"},
		{`{"op":"unsubscribe","subscriptionIds":[5]}`, "no subscription 5"},
		{`{"op":"getParameters","parameterNames":[]}`, `op "getParameters" is not served`},
		{`{"op":"advertise","channels":[]}`, `op "advertise" is not served`},
	} {
		v.send(c.req)
		if c.want == "" {
			continue
		}
		st := v.next("status")
		if msg, _ := st["message"].(string); !strings.Contains(msg, c.want) {
			t.Errorf("%s: status %q, want it to say %q", c.req, msg, c.want)
		}
	}
	if err := v.conn.WriteMessage(websocket.BinaryMessage, []byte{1, 0, 0, 0, 0}); err != nil {
		t.Fatal(err)
	}
	if st := v.next("status"); !strings.Contains(st["message"].(string), "no clientPublish") {
		t.Errorf("binary message: status %v", st)
	}
	// Larger than a request may be: the connection is closed.
	if err := v.conn.WriteMessage(websocket.TextMessage, bytes.Repeat([]byte(" "), maxRequest+1)); err != nil {
		t.Fatal(err)
	}
	for range v.text {
	}
}

// Connections are checked as the control socket's are: the subprotocol, the token, the
// origin; and the number of clients is bounded.
func TestLiveViewConnections(t *testing.T) {
	_, addr := liveWorld(t, &Face{Token: "s3cret", MaxClients: 1})
	try := func(url string, header http.Header, protos ...string) (int, string) {
		d := websocket.Dialer{Subprotocols: protos}
		conn, resp, err := d.Dial(url, header)
		if err == nil {
			t.Cleanup(func() { conn.Close() })
			return http.StatusSwitchingProtocols, ""
		}
		if resp == nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	url := "ws://" + addr + "/"
	if code, body := try(url+"?token=s3cret", nil); code != http.StatusBadRequest || !strings.Contains(body, Subprotocol) {
		t.Errorf("without the subprotocol: %d %q", code, body)
	}
	if code, body := try(url, nil, Subprotocol); code != http.StatusUnauthorized || !strings.Contains(body, "token") {
		t.Errorf("without the token: %d %q", code, body)
	}
	if code, body := try(url+"?token=s3cret", http.Header{"Origin": {"https://evil.example"}}, Subprotocol); code != http.StatusForbidden || !strings.Contains(body, "--allow-origin") {
		t.Errorf("from a web page: %d %q", code, body)
	}
	// Foxglove's desktop app is an Electron page loaded from a file: Origin file://.
	if code, body := try(url+"?token=s3cret", http.Header{"Origin": {"file://"}}, Subprotocol); code != http.StatusSwitchingProtocols {
		t.Fatalf("with the token, from Foxglove's desktop app (Origin file://): %d %s", code, body)
	}
	if code, body := try(url+"?token=s3cret", nil, Subprotocol); code != http.StatusServiceUnavailable || !strings.Contains(body, "takes 1 client(s) at once") {
		t.Errorf("past MaxClients: %d %q", code, body)
	}
}

// A subscription follows the active world: when a training episode of the same robot becomes
// active, its channels keep their IDs and their messages come from the episode's world.
func TestLiveViewFollowsTheActiveWorld(t *testing.T) {
	_, h, addr := liveHost(t, &Face{})
	v := dial(t, "ws://"+addr+"/")
	const info = "/world/default/pose/info/foxglove"
	chans := v.listed(info)
	id := chans[info]["id"]
	v.send(`{"op":"subscribe","subscriptions":[{"id":3,"channelId":` + num(id) + `}]}`)

	plan := corridorPlan(t)
	plan.Agents[0].Name = "trainee"
	ep, err := h.Build(plan, app.BuildOptions{Lockstep: true, Kind: app.KindEpisode, Label: "episode 1", Agents: []string{"trainee"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.AddEpisode("episode-1", []*app.Sim{ep}, ep); err != nil {
		t.Fatal(err)
	}
	// The feed moves to the episode's bus on the server's goroutine: step the episode until
	// its transforms come, of its trainee.
	ctx := context.Background()
	var texts []string
	data := 0
	for steps := 0; ; steps++ {
		if steps == 20000 {
			t.Fatalf("no transforms of the episode's world after 20000 of its steps (%d messages, then %v)", data, texts)
		}
		if _, err := ep.Loop.Step(ctx, 1); err != nil {
			t.Fatal(err)
		}
		var msg []byte
		select {
		case msg = <-v.data:
			data++
		case m := <-v.text:
			texts = append(texts, fmt.Sprint(m["op"], m["message"]))
			continue
		case <-time.After(10 * time.Millisecond):
			continue
		}
		var tf foxglove.FrameTransforms
		if err := proto.Unmarshal(msg[messageHeader:], &tf); err != nil {
			t.Fatal(err)
		}
		if sub := binary.LittleEndian.Uint32(msg[1:]); sub != 3 || len(tf.Transforms) < 1 {
			t.Fatalf("subscription %d, %d transforms", sub, len(tf.Transforms))
		}
		// The robot's, then its cameras' under it.
		for _, f := range tf.Transforms[1:] {
			if f.ParentFrameId != tf.Transforms[0].ChildFrameId {
				t.Fatalf("transforms %v: want one robot's and its cameras'", tf.Transforms)
			}
		}
		if tf.Transforms[0].ChildFrameId == "trainee" {
			break // the episode's
		}
	}
	select {
	case m := <-v.text:
		if m["op"] == "unadvertise" && slices.Contains(m["channelIds"].([]any), id) {
			t.Errorf("the pose list's channel %v was unadvertised though the episode has it", id)
		}
	default:
	}
}

// Past MaxRobots, a robot's own channels are not listed, and viewers are told; the
// world's channels stay.
func TestLiveViewListsTheFirstRobots(t *testing.T) {
	sim, addr := liveWorld(t, &Face{MaxRobots: 1})
	v := dial(t, "ws://"+addr+"/")
	chans := v.listed("/model/ego/sensor/camera.front.rgb/image/foxglove")
	if chans["/model/ego/sensor/camera.front.rgb/image/foxglove"] == nil {
		t.Fatal("the first robot's camera is not listed")
	}
	ctx := context.Background()
	if err := sim.Loop.Call(ctx, func(w *world.World) error {
		_, err := w.Spawn(world.AgentSpec{Name: "guest", Vehicle: w.Models()[0].Vehicle})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	var told string
	for steps := 0; told == ""; steps++ {
		if steps == 20000 {
			t.Fatal("no status after 20000 steps")
		}
		if _, err := sim.Loop.Step(ctx, 1); err != nil {
			t.Fatal(err)
		}
		select {
		case m := <-v.text:
			switch m["op"] {
			case "status":
				told = m["message"].(string)
			case "advertise":
				for topic := range channels(t, m) {
					if strings.HasPrefix(topic, "/model/guest/") {
						t.Errorf("the second robot's %s listed past MaxRobots 1", topic)
					}
				}
			}
		case <-time.After(10 * time.Millisecond):
		}
	}
	if !strings.Contains(told, "the first 1 robots; 1 more") || v.conn == nil {
		t.Errorf("status %q, want the robots left out", told)
	}
	// A newcomer is told too, and still gets the world's channels.
	late := dial(t, "ws://"+addr+"/")
	lateChans := late.listed("/scene/foxglove", "/world/default/pose/info/foxglove")
	if lateChans["/scene/foxglove"] == nil || lateChans["/world/default/pose/info/foxglove"] == nil {
		t.Error("the world's channels are not listed")
	}
	for topic := range lateChans {
		if strings.HasPrefix(topic, "/model/guest/") {
			t.Errorf("the second robot's %s listed to a newcomer", topic)
		}
	}
	if st := late.next("status"); !strings.Contains(st["message"].(string), "1 more") {
		t.Errorf("newcomer's status %v", st)
	}
}

// The pushable boxes are in the scene, each locked to its frame, and the transforms move them.
func TestLiveViewFollowsTheBoxes(t *testing.T) {
	plan := corridorPlan(t)
	track := *plan.Track
	// Away from the corridor the generator lays: nothing touches it but the test.
	track.Elements = append(slices.Clone(track.Elements), plugins.Element{Kind: plugins.ElementBox, Name: "crate",
		X: 5, Y: 5, Length: 0.1, Width: 0.1, Height: 0.1, Movable: true, Mass: 0.3, Color: "#c08040"})
	plan.Track = &track
	sim, _, addr := liveHostOf(t, &Face{}, plan)
	v := dial(t, "ws://"+addr+"/")
	const info = "/world/default/pose/info/foxglove"
	chans := v.listed("/scene/foxglove", info)
	v.send(`{"op":"subscribe","subscriptions":[{"id":4,"channelId":` + num(chans["/scene/foxglove"]["id"]) + `},{"id":5,"channelId":` + num(chans[info]["id"]) + `}]}`)
	ctx := context.Background()
	scened := false
	// crateAt steps the world until the transforms put the crate at x (and the scene came).
	crateAt := func(x float64) {
		t.Helper()
		var seen []float64
		for steps := 0; ; steps++ {
			if steps == 20000 {
				t.Fatalf("the crate not at x = %g after 20000 steps (at %v; scene %v)", x, seen, scened)
			}
			if _, err := sim.Loop.Step(ctx, 1); err != nil {
				t.Fatal(err)
			}
			var msg []byte
			select {
			case msg = <-v.data:
			case <-time.After(time.Millisecond):
				continue
			}
			switch binary.LittleEndian.Uint32(msg[1:]) {
			case 4:
				var up foxglove.SceneUpdate
				if err := proto.Unmarshal(msg[messageHeader:], &up); err != nil {
					t.Fatal(err)
				}
				for _, e := range up.Entities {
					if e.Id == "box/crate" && e.FrameId == "box/crate" && e.FrameLocked && len(e.Triangles) > 0 {
						scened = true
					}
				}
			case 5:
				var tf foxglove.FrameTransforms
				if err := proto.Unmarshal(msg[messageHeader:], &tf); err != nil {
					t.Fatal(err)
				}
				for _, f := range tf.Transforms {
					if f.ChildFrameId == "box/crate" {
						seen = append(seen, f.Translation.X)
						if math.Abs(f.Translation.X-x) < 1e-9 && scened {
							return
						}
					}
				}
			}
		}
	}
	crateAt(5)
	if err := sim.Loop.Call(ctx, func(w *world.World) error {
		b := w.Boxes()[0]
		p := b.Pose()
		p.X += 0.25
		b.SetPose(p)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	crateAt(5.25)
}

// A client's queue holds server messages first, then each subscription's newest message,
// oldest subscription first; an ended subscription's message goes.
func TestClientQueue(t *testing.T) {
	c := newClient(nil)
	c.sendData(1, 10, []byte("a1"))
	c.sendData(2, 11, []byte("b1"))
	c.sendData(1, 12, []byte("a2")) // replaces a1, keeps its place
	c.sendData(3, 13, []byte("c1"))
	c.status(levelInfo, "hello")
	c.forget(3)
	var got []string
	for {
		text, data, ok := c.next()
		if !ok {
			break
		}
		if text != nil {
			got = append(got, "text")
			continue
		}
		sub := binary.LittleEndian.Uint32(data.header[1:])
		got = append(got, fmt.Sprintf("%d:%s@%d", sub, data.payload, binary.LittleEndian.Uint64(data.header[5:])))
	}
	if want := []string{"text", "1:a2@12", "2:b1@11"}; !slices.Equal(got, want) {
		t.Errorf("queue %v, want %v", got, want)
	}
	if c.dropped.Load() != 1 {
		t.Errorf("%d messages dropped, want a1", c.dropped.Load())
	}
}

// Past MaxClients, a newcomer takes the place of a client that has watched nothing for
// IdleGrace, which is told why; clients that watch keep theirs.
func TestLiveViewMakesRoom(t *testing.T) {
	srv, err := Listen(Options{Addr: "127.0.0.1:0", MaxClients: 1, IdleGrace: time.Nanosecond,
		Active: func() *app.Sim { return nil }, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve()
	t.Cleanup(func() { srv.Shutdown(context.Background()) })
	url := "ws://" + srv.Addr().String() + "/"
	idle := dial(t, url)
	idle.next("advertise")
	second := dial(t, url)
	second.next("advertise")
	// The first is closed with 1013 (try again later).
	for range idle.text {
	}
	if _, _, err := idle.conn.ReadMessage(); !websocket.IsCloseError(err, websocket.CloseTryAgainLater) {
		t.Errorf("the idle client's end: %v, want close code 1013", err)
	}
}

// A server that stops tells its clients so with a Close frame (1001, going away), rather than
// dropping their connections, which they would take for a failure (1006).
func TestLiveViewSaysGoodbye(t *testing.T) {
	srv, err := Listen(Options{Addr: "127.0.0.1:0", Active: func() *app.Sim { return nil }, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve()
	v := dial(t, "ws://"+srv.Addr().String()+"/")
	v.next("advertise")
	if err := srv.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	for range v.text {
	}
	if _, _, err := v.conn.ReadMessage(); !websocket.IsCloseError(err, websocket.CloseGoingAway) {
		t.Errorf("the client's end when the server stops: %v, want close code 1001", err)
	}
}
