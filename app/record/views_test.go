package record

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/jpeg"
	"log/slog"
	"math"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"

	"simgui/app/foxview"
	"simgui/app/foxview/foxglove"
	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/app/world"
	"simgui/plugins"
)

// recordViews publishes, once each: an RGB and a grey camera frame, a depth frame, a frame whose
// sizes do not match its data, a lidar scan, the world's pose list and another Pose_V, and
// returns what the recording of it, of world w, wrote.
func recordViews(t *testing.T, foxgloveViews bool, w World) *Recording {
	t.Helper()
	bus := transport.NewBus(transport.Options{Logger: slog.New(slog.DiscardHandler)})
	defer bus.Close()
	path := filepath.Join(t.TempDir(), "views.mcap")
	rec, err := Start(bus, path, Options{Foxglove: foxgloveViews, World: w, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	stamp := 1500 * time.Millisecond
	pub := func(topic string, m proto.Message) {
		t.Helper()
		if err := bus.Publish(topic, m, stamp); err != nil {
			t.Fatal(err)
		}
	}
	pub("/model/car0/sensor/camera/image", testFrame(64, 48, 3))
	pub("/model/car0/sensor/grey/image", testFrame(40, 30, 1))
	// 3×2 metres, rows padded by 4 bytes: no return, far beyond 16 bits of millimetres.
	depth := []float32{0.5, float32(math.Inf(1)), 1.2345, 70, 0, 2}
	var dd []byte
	for i, d := range depth {
		dd = binary.LittleEndian.AppendUint32(dd, math.Float32bits(d))
		if i%3 == 2 {
			dd = append(dd, 0, 0, 0, 0)
		}
	}
	pub("/model/car0/sensor/depth/depth_image", &msgs.Image{Width: 3, Height: 2, Step: 16,
		Data: dd, PixelFormatType: msgs.PixelFormatType_R_FLOAT32})
	bad := testFrame(64, 48, 3)
	bad.Height = 4800 // more rows than its data has
	pub("/model/car0/sensor/bad/image", bad)
	pub("/model/car0/sensor/lidar/scan", &msgs.LaserScan{
		Frame: "car0::lidar", WorldPose: &msgs.Pose{Position: &msgs.Vector3D{X: 1, Y: 2, Z: 0.1},
			Orientation: &msgs.Quaternion{Z: math.Sin(0.25), W: math.Cos(0.25)}},
		AngleMin: -1, AngleMax: 1, AngleStep: 0.5, Count: 5, VerticalCount: 1,
		Ranges: []float64{0.5, 1, math.Inf(1), 2, 0.25},
	})
	pub("/world/corridor/pose/info", &msgs.Pose_V{Pose: []*msgs.Pose{
		{Name: "car0", Position: &msgs.Vector3D{X: 3, Y: -1}, Orientation: &msgs.Quaternion{W: 1}},
		{Name: "car1", Position: &msgs.Vector3D{X: 4, Y: 5, Z: 0.5}}, // no orientation: identity
	}})
	pub("/model/car0/wheels", &msgs.Pose_V{Pose: []*msgs.Pose{{Name: "left"}}})
	if _, err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(path)
	if err != nil || !got.Complete {
		t.Fatalf("read back: %v (complete %v)", err, got != nil && got.Complete)
	}
	return got
}

// testFrame is a w×h frame of c channels (3: RGB_INT8, 1: L_INT8) with a gradient in each
// channel, its rows padded by 8 bytes.
func testFrame(w, h, c int) *msgs.Image {
	step := w*c + 8
	data := make([]byte, step*h)
	for y := range h {
		for x := range w {
			for k := range c {
				data[y*step+x*c+k] = byte(x*2 + y + k*30) // smooth: JPEG keeps it close
			}
		}
	}
	f := msgs.PixelFormatType_RGB_INT8
	if c == 1 {
		f = msgs.PixelFormatType_L_INT8
	}
	return &msgs.Image{Width: uint32(w), Height: uint32(h), Step: uint32(step), Data: data, PixelFormatType: f}
}

func viewsOf(rec *Recording) map[string]Message {
	out := map[string]Message{}
	for _, m := range rec.Messages {
		out[m.Topic] = m
	}
	return out
}

func TestFoxgloveViews(t *testing.T) {
	rec := recordViews(t, true, World{})
	byTopic := viewsOf(rec)
	want := map[string]string{
		"/model/car0/sensor/camera/image/foxglove":      "foxglove.CompressedImage",
		"/model/car0/sensor/grey/image/foxglove":        "foxglove.CompressedImage",
		"/model/car0/sensor/depth/depth_image/foxglove": "foxglove.RawImage",
		"/model/car0/sensor/lidar/scan/foxglove":        "foxglove.LaserScan",
		"/world/corridor/pose/info/foxglove":            "foxglove.FrameTransforms",
	}
	var views []string
	for topic, m := range byTopic {
		if len(topic) > len(foxview.ViewSuffix) && topic[len(topic)-len(foxview.ViewSuffix):] == foxview.ViewSuffix {
			views = append(views, topic)
			if want[topic] != m.Type {
				t.Errorf("%s: type %q, want %q", topic, m.Type, want[topic])
			}
			src := byTopic[topic[:len(topic)-len(foxview.ViewSuffix)]]
			if m.Sequence != src.Sequence || m.PublishTime != src.PublishTime || m.LogTime != src.LogTime {
				t.Errorf("%s: sequence %d, times %v %v; its message's %d, %v %v", topic, m.Sequence,
					m.PublishTime, m.LogTime, src.Sequence, src.PublishTime, src.LogTime)
			}
		}
	}
	if len(views) != len(want) {
		t.Errorf("views on %v, want those of %v (none for a bad frame, other pose lists; no calibrations without the world)", views, want)
	}

	var raw foxglove.RawImage
	if err := proto.Unmarshal(byTopic["/model/car0/sensor/depth/depth_image/foxglove"].Data, &raw); err != nil {
		t.Fatal(err)
	}
	var mm []uint16
	for i := 0; i+1 < len(raw.Data); i += 2 {
		mm = append(mm, binary.LittleEndian.Uint16(raw.Data[i:]))
	}
	if raw.Encoding != "16UC1" || raw.Width != 3 || raw.Height != 2 || raw.Step != 6 || raw.FrameId != "car0/depth" ||
		!slices.Equal(mm, []uint16{500, 0, 1235, 65535, 0, 2000}) {
		t.Errorf("depth view %s %dx%d step %d frame %q, millimetres %v", raw.Encoding, raw.Width, raw.Height, raw.Step, raw.FrameId, mm)
	}

	for topic, c := range map[string]int{"/model/car0/sensor/camera/image": 3, "/model/car0/sensor/grey/image": 1} {
		var img foxglove.CompressedImage
		if err := proto.Unmarshal(byTopic[topic+foxview.ViewSuffix].Data, &img); err != nil {
			t.Fatal(err)
		}
		if img.Format != "jpeg" || img.Timestamp.GetSeconds() != 1 || img.Timestamp.GetNanos() != 5e8 {
			t.Errorf("%s: format %q, timestamp %v", topic, img.Format, img.Timestamp)
		}
		var src msgs.Image
		if err := proto.Unmarshal(byTopic[topic].Data, &src); err != nil {
			t.Fatal(err)
		}
		if d := jpegDiff(t, img.Data, &src, c); d > 4 {
			t.Errorf("%s: the JPEG differs from the frame by %.1f levels on average", topic, d)
		}
	}
	var cam foxglove.CompressedImage
	_ = proto.Unmarshal(byTopic["/model/car0/sensor/camera/image/foxglove"].Data, &cam)
	if cam.FrameId != "car0/camera" {
		t.Errorf("camera frame %q, want car0/camera", cam.FrameId)
	}

	var scan foxglove.LaserScan
	if err := proto.Unmarshal(byTopic["/model/car0/sensor/lidar/scan/foxglove"].Data, &scan); err != nil {
		t.Fatal(err)
	}
	p := scan.GetPose()
	if scan.FrameId != foxview.WorldFrame || scan.StartAngle != -1 || scan.EndAngle != 1 ||
		!slices.Equal(scan.Ranges, []float64{0.5, 1, math.Inf(1), 2, 0.25}) ||
		p.GetPosition().GetX() != 1 || p.GetPosition().GetY() != 2 || p.GetOrientation().GetZ() != math.Sin(0.25) {
		t.Errorf("scan view %v", &scan)
	}

	var tf foxglove.FrameTransforms
	if err := proto.Unmarshal(byTopic["/world/corridor/pose/info/foxglove"].Data, &tf); err != nil {
		t.Fatal(err)
	}
	if len(tf.Transforms) != 2 {
		t.Fatalf("transforms %v", &tf)
	}
	for i, w := range []struct {
		child   string
		x, y, z float64
	}{{"car0", 3, -1, 0}, {"car1", 4, 5, 0.5}} {
		f := tf.Transforms[i]
		if f.ParentFrameId != foxview.WorldFrame || f.ChildFrameId != w.child || f.Translation.GetX() != w.x ||
			f.Translation.GetY() != w.y || f.Translation.GetZ() != w.z || f.Rotation.GetW() != 1 {
			t.Errorf("transform %d: %v", i, f)
		}
	}

	// The schema is Foxglove's message by name, with every file it imports.
	var set descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(rec.Schemas["foxglove.LaserScan"], &set); err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, f := range set.File {
		files = append(files, f.GetName())
	}
	for _, f := range []string{"google/protobuf/timestamp.proto", "foxglove/Pose.proto", "foxglove/LaserScan.proto"} {
		if !slices.Contains(files, f) {
			t.Errorf("foxglove.LaserScan's schema has %v, not %s", files, f)
		}
	}
}

// jpegDiff decodes j and returns its mean absolute difference from src's pixels (c channels).
func jpegDiff(t *testing.T, j []byte, src *msgs.Image, c int) float64 {
	t.Helper()
	img, err := jpeg.Decode(bytes.NewReader(j))
	if err != nil {
		t.Fatal(err)
	}
	w, h := int(src.Width), int(src.Height)
	if img.Bounds() != image.Rect(0, 0, w, h) {
		t.Fatalf("JPEG of %v, want %dx%d", img.Bounds(), w, h)
	}
	var sum, n float64
	for y := range h {
		for x := range w {
			r, g, b, _ := img.At(x, y).RGBA()
			got := []uint32{r >> 8, g >> 8, b >> 8}
			for k := range 3 {
				want := src.Data[y*int(src.Step)+x*c+min(k, c-1)]
				sum += math.Abs(float64(got[k]) - float64(want))
				n++
			}
		}
	}
	return sum / n
}

func TestNoFoxgloveViews(t *testing.T) {
	for topic, m := range viewsOf(recordViews(t, false, World{})) {
		if len(m.Type) >= 9 && m.Type[:9] == "foxglove." {
			t.Errorf("%s: a %s without Options.Foxglove", topic, m.Type)
		}
	}
}

// A view is stamped with its message's log time, which goes on through a reset, where the
// world's sim time starts again: Foxglove orders transforms by their stamps.
func TestViewStampsFollowTheFile(t *testing.T) {
	quiet := slog.New(slog.DiscardHandler)
	bus := transport.NewBus(transport.Options{Logger: quiet})
	defer bus.Close()
	path := filepath.Join(t.TempDir(), "reset.mcap")
	rec, err := Start(bus, path, Options{Foxglove: true, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []time.Duration{2 * time.Second, 500 * time.Millisecond} { // a reset between
		bus.Publish(transport.ClockTopic, &msgs.Clock{}, at)
		bus.Publish("/world/w/pose/info", &msgs.Pose_V{Pose: []*msgs.Pose{{Name: "world"}, {Name: "car"}}}, at)
	}
	if _, err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var stamps []time.Duration
	for _, m := range got.Messages {
		if m.Topic != "/world/w/pose/info/foxglove" {
			continue
		}
		var tf foxglove.FrameTransforms
		if err := proto.Unmarshal(m.Data, &tf); err != nil || len(tf.Transforms) != 2 {
			t.Fatalf("view %v (%v)", &tf, err)
		}
		ts := tf.Transforms[0].Timestamp.AsTime().Sub(time.Unix(0, 0))
		if ts != m.LogTime {
			t.Errorf("a view stamped %v, logged at %v", ts, m.LogTime)
		}
		stamps = append(stamps, ts)
		// A robot named as the world frame gets a frame of its own, not one that is its own parent.
		if f := tf.Transforms[0]; f.ChildFrameId == f.ParentFrameId {
			t.Errorf("transform from %q to itself", f.ChildFrameId)
		}
	}
	if len(stamps) != 2 || stamps[1] <= stamps[0] {
		t.Errorf("view stamps %v, want them going on through the reset", stamps)
	}
}

// A view whose topic a publisher has taken is left out: one topic, one schema.
func TestViewTopicTaken(t *testing.T) {
	quiet := slog.New(slog.DiscardHandler)
	bus := transport.NewBus(transport.Options{Logger: quiet})
	defer bus.Close()
	path := filepath.Join(t.TempDir(), "taken.mcap")
	rec, err := Start(bus, path, Options{Foxglove: true, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	bus.Publish("/world/w/pose/info/foxglove", &msgs.Clock{}, 0)
	bus.Publish("/world/w/pose/info", &msgs.Pose_V{Pose: []*msgs.Pose{{Name: "car"}}}, 0)
	if _, err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range got.Messages {
		if m.Topic == "/world/w/pose/info/foxglove" && m.Type != "gz.msgs.Clock" {
			t.Errorf("a %s on the publisher's topic", m.Type)
		}
	}
	if n := got.Counts()["/world/w/pose/info/foxglove"]; n != 1 {
		t.Errorf("%d messages on the taken topic, want the publisher's 1", n)
	}
}

// With the world's robots known, each camera frame has its camera's calibration beside it, and
// the pose list's view places the cameras' frames under their robots.
func TestCameraCalibrationsBesideTheirFrames(t *testing.T) {
	car := &plugins.VehicleDescriptor{ID: "vehicle.test.car.v1", Sensors: []plugins.SensorMount{
		{ID: "camera", Kind: plugins.SensorCamera, Pose: plugins.Pose3{X: 0.1, Z: 0.08, PitchDeg: 6}, Params: map[string]float64{"fovDeg": 68}},
		{ID: "depth", Kind: plugins.SensorDepth, Pose: plugins.Pose3{X: 0.1, Z: 0.05}},
	}}
	snap := &world.Snapshot{Models: []world.ModelState{{Name: "car0", VehicleID: car.ID, Vehicle: car}}}
	rec := recordViews(t, true, World{ID: "w", Snapshot: func() *world.Snapshot { return snap }})
	byTopic := viewsOf(rec)
	for topic, src := range map[string]string{
		"/model/car0/sensor/camera/calibration/foxglove": "/model/car0/sensor/camera/image",
		"/model/car0/sensor/depth/calibration/foxglove":  "/model/car0/sensor/depth/depth_image",
	} {
		m, ok := byTopic[topic]
		if !ok || m.Type != "foxglove.CameraCalibration" {
			t.Fatalf("%s: %q (written %v)", topic, m.Type, ok)
		}
		if f := byTopic[src]; m.Sequence != f.Sequence || m.LogTime != f.LogTime {
			t.Errorf("%s: sequence %d at %d, its frame's %d at %d", topic, m.Sequence, m.LogTime, f.Sequence, f.LogTime)
		}
		var c foxglove.CameraCalibration
		if err := proto.Unmarshal(m.Data, &c); err != nil {
			t.Fatal(err)
		}
		var img msgs.Image
		if err := proto.Unmarshal(byTopic[src].Data, &img); err != nil {
			t.Fatal(err)
		}
		if c.FrameId != foxview.CameraFrame(src) || c.Width != img.Width || c.Height != img.Height || c.Timestamp.AsTime().UnixNano() != int64(m.LogTime) {
			t.Errorf("%s: %v, want frame %q, %dx%d, stamped %d", topic, &c, foxview.CameraFrame(src), img.Width, img.Height, m.LogTime)
		}
	}
	// The camera's: fy for 68° over its 48 rows.
	var c foxglove.CameraCalibration
	_ = proto.Unmarshal(byTopic["/model/car0/sensor/camera/calibration/foxglove"].Data, &c)
	if fy := 24 / math.Tan(34*math.Pi/180); math.Abs(c.K[4]-fy) > 1e-9 {
		t.Errorf("camera fy %g, want %g", c.K[4], fy)
	}
	var tf foxglove.FrameTransforms
	if err := proto.Unmarshal(byTopic["/world/corridor/pose/info/foxglove"].Data, &tf); err != nil {
		t.Fatal(err)
	}
	var children []string
	for _, f := range tf.Transforms {
		children = append(children, f.ParentFrameId+">"+f.ChildFrameId)
	}
	if !slices.Equal(children, []string{"world>car0", "car0>car0/camera", "car0>car0/depth", "world>car1"}) {
		t.Errorf("frames %v, want each robot's and car0's cameras under it", children)
	}
	n := 0
	for _, m := range rec.Messages {
		if m.Topic == "/model/car0/sensor/camera/calibration/foxglove" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d calibrations of the camera's one frame", n)
	}
}
