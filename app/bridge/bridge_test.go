package bridge

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"slices"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
	"google.golang.org/protobuf/proto"

	"simgui/app/systems/odometry"
	"simgui/app/transport/msgs"
	"simgui/app/world"
	"simgui/plugins"
)

// TestDevicesFollowModels: the device map lists the world clock and car0's micom and served
// sensors with the ports actually listening; a spawned model gets ports, a removed one loses
// them, and Close releases everything.
func TestDevicesFollowModels(t *testing.T) {
	tw := startWorld(t)
	m := tw.bridge.Manager()
	dm := m.GetDeviceMapList("")
	names := func(keys map[string]uint16) []string {
		var out []string
		for k := range keys {
			out = append(out, k)
		}
		slices.Sort(out)
		return out
	}
	want := map[string]map[DeviceType]map[string][]string{
		"World": {DeviceWorld: {"SimulationWorld": {"Clock", "Control"}}},
		"car0": {
			DeviceMicom:       {"Micom": {"Info", "Rx", "Tf", "Tx"}},
			DeviceLaser:       {"lidar_top": {"Data", "Info"}},
			DeviceIMU:         {"imu": {"Data", "Info"}},
			DeviceCamera:      {"camera_front": {"Data", "Info"}},
			DeviceDepthCamera: {"depth_front": {"Data", "Info"}},
		},
	}
	got := map[string]map[DeviceType]map[string][]string{}
	for model, types := range dm {
		got[model] = map[DeviceType]map[string][]string{}
		for typ, parts := range types {
			got[model][typ] = map[string][]string{}
			for p, keys := range parts {
				got[model][typ][p] = names(keys)
			}
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		js, _ := json.Marshal(dm)
		t.Fatalf("device map\n got %v\nwant %v\n%s", got, want, js)
	}
	// Every listed port is served: a TCP connection succeeds, and the port list agrees.
	pl := m.GetDevicePortList("")
	if len(pl) != 2+4+4*2 {
		t.Errorf("port list has %d entries, want 14 (world clock and control, micom, 4 sensors): %v", len(pl), pl)
	}
	for key, port := range pl {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err != nil {
			t.Errorf("%s: port %d not listening: %v", key, port, err)
			continue
		}
		c.Close()
	}
	if got := pl["car0lidar_topData"]; got != dm["car0"][DeviceLaser]["lidar_top"]["Data"] || got == 0 {
		t.Errorf("port list and device map disagree on car0lidar_topData: %d", got)
	}

	// Spawn car1: it gets its own ports.
	if err := tw.loop.Call(context.Background(), func(w *world.World) error {
		_, err := w.Spawn(world.AgentSpec{Name: "car1", Vehicle: testCar})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	// A robot's ports appear one after the other; car1 has 12 when it is complete.
	waitFor(t, "car1's 12 ports", func() bool { return len(m.GetDevicePortList("car1")) == 12 })
	if _, ok := m.SearchSensorPort("car1MicomRx"); !ok {
		t.Error("no car1MicomRx")
	}

	// Remove car0: its ports leave both maps and stop listening.
	car0Ports := m.GetDevicePortList("car0")
	if err := tw.loop.Call(context.Background(), func(w *world.World) error { return w.Remove("car0") }); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "car0's removal", func() bool { return len(m.GetDevicePortList("car0")) == 0 })
	if _, ok := m.GetDeviceMapList("")["car0"]; ok {
		t.Error("car0 still in the device map")
	}
	for key, port := range car0Ports {
		// Nothing was allocated since, so none of these ports is ours any more.
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			c.Close()
			t.Errorf("%s: port %d still accepts connections after removal", key, port)
		}
	}

	if err := tw.bridge.Close(); err != nil {
		t.Fatal(err)
	}
	if pl := m.GetDevicePortList(""); len(pl) != 0 {
		t.Errorf("ports left after Close: %v", pl)
	}
	if dm := m.GetDeviceMapList(""); len(dm) != 0 {
		t.Errorf("device map left after Close: %v", dm)
	}
}

// TestClockAndMicom: the clock advances; a Twist on micom Rx drives the robot, which Tx
// odometry and the world agree on; reset_odometry restarts odometry at zero.
func TestClockAndMicom(t *testing.T) {
	tw := startWorld(t)
	clock := tw.subscribe(t, "WorldSimulationWorldClock")
	var s1, s2 msgs.WorldStatistics
	recvProto(t, clock, "WorldSimulationWorldClock", &s1)
	recvProto(t, clock, "WorldSimulationWorldClock", &s2)
	if !(s2.GetSimTime().AsDuration() > s1.GetSimTime().AsDuration()) {
		t.Fatalf("clock did not advance: %v then %v", s1.GetSimTime().AsDuration(), s2.GetSimTime().AsDuration())
	}
	if s2.GetRealTime() == nil {
		t.Error("clock without real_time")
	}

	tx := tw.subscribe(t, "car0MicomTx")
	tf := tw.subscribe(t, "car0MicomTf")
	start, _ := tw.loop.Snapshot().Model("car0")
	pub := zmq4.NewPub(context.Background(), zmq4.WithLogger(zlog))
	defer pub.Close()
	if err := pub.Dial(endpoint(tw.port(t, "car0MicomRx"))); err != nil {
		t.Fatal(err)
	}
	twist, _ := proto.Marshal(&msgs.Twist{Linear: &msgs.Vector3D{X: 0.4}})
	var odom msgs.Micom
	deadline := time.Now().Add(10 * time.Second)
	for {
		if err := pub.Send(zmq4.NewMsg(tagged("car0MicomRx", twist))); err != nil {
			t.Fatal(err)
		}
		recvProto(t, tx, "car0MicomTx", &odom)
		if odom.GetOdom().GetPose().GetX() > 0.15 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("odometry x %.3f after 10 s of Twist 0.4 m/s", odom.GetOdom().GetPose().GetX())
		}
	}
	now, _ := tw.loop.Snapshot().Model("car0")
	// car0 faces +x (spawn yaw 0), so odometry x is world x travelled.
	if moved := now.Pose.X - start.Pose.X; moved < 0.15 {
		t.Errorf("world says car0 moved %.3f m", moved)
	}
	o := odom.GetOdom()
	if o.GetTwist().GetLinear().GetX() < 0.1 || math.Abs(o.GetPose().GetY()) > 0.05 {
		t.Errorf("odometry %v", o)
	}
	if l, r := o.GetLinearVelocity().GetLeft(), o.GetLinearVelocity().GetRight(); l < 0.1 || math.Abs(l-r) > 0.05 {
		t.Errorf("wheel speeds %.3f %.3f for a straight run", l, r)
	}
	if got, want := o.GetAngularVelocity().GetLeft(), o.GetLinearVelocity().GetLeft()/odometry.DefaultWheelRadius; math.Abs(got-want) > 1e-9 {
		t.Errorf("left wheel rate %.3f rad/s, want %.3f", got, want)
	}
	var wheel msgs.Pose
	// An empty transform may come first, on a machine too busy for a step within KeepAlive
	// of subscribing (see TestMicomTfWithoutLinks).
	for recvProto(t, tf, "car0MicomTf", &wheel); wheel.GetName() == ""; {
		recvProto(t, tf, "car0MicomTf", &wheel)
	}
	if wheel.GetName() != "wheel_left_link" && wheel.GetName() != "wheel_right_link" {
		t.Errorf("Tf pose named %q", wheel.GetName())
	}
	if d := wheel.GetHeader().GetData(); len(d) != 1 || d[0].GetKey() != "parent_frame_id" || d[0].GetValue()[0] != "base_link" {
		t.Errorf("Tf header data %v", d)
	}
	// One link a message, in turn (CLOiSim's rate is for all links together).
	names := []string{wheel.GetName()}
	for range 5 {
		recvProto(t, tf, "car0MicomTf", &wheel)
		names = append(names, wheel.GetName())
	}
	for i := 1; i < len(names); i++ {
		if names[i] == names[i-1] {
			t.Errorf("Tf links in turn: got %v", names)
			break
		}
	}

	// Stop, then reset odometry: the next Tx starts near zero.
	stop, _ := proto.Marshal(&msgs.Twist{})
	pub.Send(zmq4.NewMsg(tagged("car0MicomRx", stop)))
	var rep msgs.Param
	if err := proto.Unmarshal(tw.info(t, "car0MicomInfo", reqResetOdometry, nil), &rep); err != nil {
		t.Fatal(err)
	}
	if a := rep.Params[reqResetOdometry]; a.GetType() != msgs.Any_BOOLEAN || !a.GetBoolValue() {
		t.Fatalf("reset_odometry reply %v", &rep)
	}
	waitFor(t, "odometry near zero after reset", func() bool {
		recvProto(t, tx, "car0MicomTx", &odom)
		return math.Abs(odom.GetOdom().GetPose().GetX()) < 0.05
	})
}

// TestMicomInfo: static transforms and ros2 answers.
func TestMicomInfo(t *testing.T) {
	tw := startWorld(t)
	var st msgs.Param
	if err := proto.Unmarshal(tw.info(t, "car0MicomInfo", reqStaticTransforms, nil), &st); err != nil {
		t.Fatal(err)
	}
	if _, ok := st.Params["static_transforms"]; !ok || len(st.Children) == 0 {
		t.Fatalf("static transforms %v", &st)
	}
	var tr msgs.Param
	if err := proto.Unmarshal(tw.info(t, "car0MicomInfo", reqTransform, anyString("lidar.top")), &tr); err != nil {
		t.Fatal(err)
	}
	if p := tr.Params["transform"].GetPose3DValue(); p.GetPosition().GetZ() != 0.2 || p.GetName() != "lidar_top" {
		t.Errorf("micom transform of lidar.top: %v", p)
	}
	// An unknown request gets an empty reply rather than none.
	if rep := tw.info(t, "car0MicomInfo", "request_wheel_info", nil); len(rep) != 0 {
		t.Errorf("unknown request answered with %d bytes", len(rep))
	}
}

// TestLidarForwarding: the lidar topic is read only while a client subscribes; scans arrive
// with misses and hits nearer than range_min as NaN, as CLOiSim sends every range outside its
// limits, and intensities as long as ranges; Info answers output type and mount.
func TestLidarForwarding(t *testing.T) {
	tw := startWorld(t)
	topic := SensorTopic("car0", "lidar.top", "scan")
	if tw.bus.HasSubscribers(topic) {
		t.Fatal("lidar topic read with no client")
	}
	sub := tw.subscribe(t, "car0lidar_topData")
	waitFor(t, "the bridge to read the lidar topic", func() bool { return tw.bus.HasSubscribers(topic) })
	inf := math.Inf(1)
	scan := &msgs.LaserScan{
		Header:   &msgs.Header{Stamp: msgs.NewTime(1500 * time.Millisecond)},
		AngleMin: -math.Pi, AngleMax: math.Pi, AngleStep: math.Pi / 2, RangeMax: 12,
		Ranges: []float64{1, inf, 2.5, -inf}, Intensities: []float64{0.5},
	}
	if err := tw.bus.Publish(topic, scan, 1500*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	var got msgs.LaserScan
	recvProto(t, sub, "car0lidar_topData", &got)
	r, in := got.GetRanges(), got.GetIntensities()
	if len(r) != 4 || r[0] != 1 || !math.IsNaN(r[1]) || r[2] != 2.5 || !math.IsNaN(r[3]) {
		t.Errorf("ranges %v, want [1 NaN 2.5 NaN]", r)
	}
	if len(in) != 4 || in[0] != 0.5 || !math.IsNaN(in[3]) {
		t.Errorf("intensities %v, want 4 values starting 0.5 then NaN", in)
	}
	if got.GetCount() != 4 || got.GetVerticalCount() != 1 || got.GetFrame() != "lidar_top" {
		t.Errorf("count %d vertical %d frame %q", got.GetCount(), got.GetVerticalCount(), got.GetFrame())
	}
	if got.GetHeader().GetStamp().AsDuration() != 1500*time.Millisecond {
		t.Errorf("stamp %v", got.GetHeader().GetStamp().AsDuration())
	}
	if !math.IsInf(scan.Ranges[1], 1) {
		t.Error("the published scan was modified")
	}

	var ot msgs.Param
	proto.Unmarshal(tw.info(t, "car0lidar_topInfo", reqOutputType, nil), &ot)
	if ot.Params["output_type"].GetStringValue() != "LaserScan" {
		t.Errorf("output type %v", &ot)
	}
	var tr msgs.Param
	proto.Unmarshal(tw.info(t, "car0lidar_topInfo", reqTransform, nil), &tr)
	if p := tr.Params["transform"].GetPose3DValue(); p.GetPosition().GetZ() != 0.2 || tr.Children[0].Params["parent_frame_id"].GetStringValue() != "base_link" {
		t.Errorf("transform %v", &tr)
	}
	var ros2 msgs.Param
	proto.Unmarshal(tw.info(t, "car0lidar_topInfo", reqROS2, nil), &ros2)
	if last := ros2.Children[len(ros2.Children)-1]; last.Params["frame_id"].GetStringValue() != "lidar_top" {
		t.Errorf("ros2 %v", &ros2)
	}

	sub.Close()
	waitFor(t, "the bridge to stop reading the lidar topic", func() bool { return !tw.bus.HasSubscribers(topic) })
}

// recvStamped returns the next RAWI frame on sub stamped sec whole seconds: the world's own
// cameras publish on the same topics (stamped with its time, a few ms), and on a loaded machine
// their frames can come first.
func recvStamped(t *testing.T, sub zmq4.Socket, sec uint32) []byte {
	t.Helper()
	var f []byte
	for range 100 {
		if f = recvTimeout(t, sub, 3*time.Second).Frames[0]; len(f) >= 16 && binary.LittleEndian.Uint32(f[12:]) == sec {
			break
		}
	}
	return f
}

// TestCameraForwarding: RGB frames go out as RAWI, depth with +Inf as NaN, and
// request_camera_info answers a bare CameraSensor with the horizontal field of view.
func TestCameraForwarding(t *testing.T) {
	tw := startWorld(t)
	const key = "car0camera_frontData"
	topic := SensorTopic("car0", "camera.front", "image")
	sub := tw.subscribe(t, key)
	waitFor(t, "the bridge to read the camera topic", func() bool { return tw.bus.HasSubscribers(topic) })
	const w, h = 64, 48
	pix := make([]byte, w*h*3)
	for i := range pix {
		pix[i] = byte(i * 7)
	}
	img := &msgs.Image{Header: &msgs.Header{Stamp: msgs.NewTime(2 * time.Second)}, Width: w, Height: h, Step: w * 3, Data: pix, PixelFormatType: msgs.PixelFormatType_RGB_INT8}
	if err := tw.bus.Publish(topic, img, 2*time.Second); err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	f := recvStamped(t, sub, 2)
	if !hasTag(f, key) || len(f) != 8+28+len(pix) {
		t.Fatalf("frame of %d bytes", len(f))
	}
	if le.Uint32(f[8:]) != rawiMagic || le.Uint32(f[12:]) != 2 || le.Uint32(f[20:]) != w || le.Uint32(f[24:]) != h || le.Uint32(f[28:]) != 3 || le.Uint32(f[32:]) != w*3 {
		t.Errorf("RAWI header % x", f[8:36])
	}
	if string(f[36:]) != string(pix) {
		t.Error("pixels differ")
	}

	var cs msgs.CameraSensor
	if err := proto.Unmarshal(tw.info(t, "car0camera_frontInfo", reqCameraInfo, anyString("")), &cs); err != nil {
		t.Fatal(err)
	}
	wantH := 2 * math.Atan(math.Tan(30*math.Pi/180)*64/48)
	if cs.GetImageSize().GetX() != w || cs.GetImageSize().GetY() != h || math.Abs(cs.GetHorizontalFov()-wantH) > 1e-12 {
		t.Errorf("camera info %v (want hfov %.4f)", &cs, wantH)
	}
	if cs.GetNearClip() != 0.05 || cs.GetFarClip() != 20 || cs.GetPixelFormat() != msgs.PixelFormatType_RGB_INT8 || cs.GetIsDepthCamera() {
		t.Errorf("camera info %v", &cs)
	}

	// Depth: size from the contract (16×12) until a frame says otherwise; +Inf becomes NaN.
	var dcs msgs.CameraSensor
	proto.Unmarshal(tw.info(t, "car0depth_frontInfo", reqCameraInfo, anyString("")), &dcs)
	if !dcs.GetIsDepthCamera() || dcs.GetImageSize().GetX() != 16 || dcs.GetPixelFormat() != msgs.PixelFormatType_R_FLOAT32 || dcs.GetDepthFarClip().GetData() != 10 {
		t.Errorf("depth camera info %v", &dcs)
	}
	dsub := tw.subscribe(t, "car0depth_frontData")
	dtopic := SensorTopic("car0", "depth.front", "depth_image")
	waitFor(t, "the bridge to read the depth topic", func() bool { return tw.bus.HasSubscribers(dtopic) })
	depth := make([]byte, 0, 8)
	depth = le.AppendUint32(depth, math.Float32bits(3))
	depth = le.AppendUint32(depth, math.Float32bits(float32(math.Inf(1))))
	tw.bus.Publish(dtopic, &msgs.Image{Width: 2, Height: 1, Step: 8, Data: depth, PixelFormatType: msgs.PixelFormatType_R_FLOAT32}, time.Second)
	df := recvStamped(t, dsub, 1)[8:]
	if len(df) < 36 {
		t.Fatalf("depth frame of %d bytes", len(df))
	}
	if le.Uint32(df[4:]) != 1 || le.Uint32(df[20:]) != 13 {
		t.Errorf("depth header % x", df[:28])
	}
	if v := math.Float32frombits(le.Uint32(df[28:])); v != 3 {
		t.Errorf("depth[0] %v", v)
	}
	if v := math.Float32frombits(le.Uint32(df[32:])); !math.IsNaN(float64(v)) {
		t.Errorf("depth[1] %v, want NaN", v)
	}
}

// TestPartsNameCollision: two sensor ids that sanitise to the same parts name leave the
// second unserved; the rest of the robot is served.
func TestPartsNameCollision(t *testing.T) {
	v := *testCar
	v.Sensors = []plugins.SensorMount{
		{ID: "cam.a", Kind: "camera"},
		{ID: "cam_a", Kind: "camera"},
		{ID: "lidar", Kind: "lidar"},
	}
	tw := startWorldWith(t, &v)
	dm := tw.bridge.Manager().GetDeviceMapList("car0")["car0"]
	if len(dm[DeviceCamera]) != 1 || dm[DeviceCamera]["cam_a"]["Data"] == 0 {
		t.Errorf("cameras %v, want one cam_a", dm[DeviceCamera])
	}
	if dm[DeviceMicom]["Micom"]["Rx"] == 0 || dm[DeviceLaser]["lidar"]["Data"] == 0 {
		t.Errorf("device map %v lacks the micom or the lidar", dm)
	}
}

// TestModelsGetROSNames: cloisim_ros makes a model's name the namespace of its nodes, so the
// devices of rusim's "agent-2" (and of a name starting with a digit) are listed under a ROS 2
// name, and their hash tags are made from it.
func TestModelsGetROSNames(t *testing.T) {
	tw := startWorldOpts(t, testCar, Config{Logger: quiet}, "car0", "agent-2", "2nd")
	var models []string
	waitFor(t, "three robots served", func() bool {
		models = models[:0]
		for m := range tw.bridge.Manager().GetDeviceMapList("") {
			models = append(models, m)
		}
		return len(models) == 4
	})
	slices.Sort(models)
	if want := []string{"World", "_2nd", "agent_2", "car0"}; !slices.Equal(models, want) {
		t.Fatalf("models %v, want %v", models, want)
	}
	tx := tw.subscribe(t, "agent_2MicomTx")
	var odom msgs.Micom
	recvProto(t, tx, "agent_2MicomTx", &odom)
}

// TestMicomTfWithoutLinks: a model without wheels (the built-in drone) has nothing for its
// micom's Tf port, which sends an empty transform every KeepAlive instead, as CLOiSim's does;
// cloisim_ros's micom node drops it, where silence made it warn of a receive timeout.
func TestMicomTfWithoutLinks(t *testing.T) {
	drone, err := plugins.Builtin().Vehicle("vehicle.drone.simple.v1")
	if err != nil {
		t.Fatal(err)
	}
	tw := startWorldOpts(t, drone, Config{Logger: quiet, KeepAlive: 100 * time.Millisecond})
	tf := tw.subscribe(t, "car0MicomTf")
	var first, second msgs.Pose
	recvProto(t, tf, "car0MicomTf", &first)
	recvProto(t, tf, "car0MicomTf", &second)
	for _, p := range []*msgs.Pose{&first, &second} {
		if d := p.GetHeader().GetData(); p.GetName() != "" || len(d) != 1 || d[0].GetKey() != "parent_frame_id" || len(d[0].GetValue()) != 0 {
			t.Fatalf("Tf of a model without links: %v, want an empty transform", p)
		}
	}
	if !(second.GetHeader().GetStamp().AsDuration() > first.GetHeader().GetStamp().AsDuration()) {
		t.Errorf("empty transforms stamped %v then %v: want the sim time as it runs", first.GetHeader().GetStamp().AsDuration(), second.GetHeader().GetStamp().AsDuration())
	}
}
