package bridge

import (
	"math"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"simgui/app/transport/msgs"
	"simgui/plugins"
)

func TestParseInfoRequest(t *testing.T) {
	// As cloisim_ros sends them: an empty Any, or a STRING Any with an empty string.
	for _, tc := range []struct {
		req        *msgs.Param
		name, want string
	}{
		{param(reqROS2, &msgs.Any{}), reqROS2, ""},
		{param(reqCameraInfo, anyString("")), reqCameraInfo, ""},
		{param(reqTransform, anyString("lidar_top")), reqTransform, "lidar_top"},
	} {
		b, err := proto.Marshal(tc.req)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := parseInfoRequest(b)
		if !ok || got.name != tc.name || got.value != tc.want {
			t.Errorf("parse %v: %+v %v, want %s %q", tc.req, got, ok, tc.name, tc.want)
		}
	}
	// Two entries: the first on the wire is the request, whatever its name's order.
	for _, order := range [][2]string{{"request_z", "request_a"}, {"request_a", "request_z"}} {
		var b []byte
		for _, name := range order {
			v, err := proto.Marshal(anyString("of " + name))
			if err != nil {
				t.Fatal(err)
			}
			var entry []byte
			entry = protowire.AppendTag(entry, 1, protowire.BytesType)
			entry = protowire.AppendString(entry, name)
			entry = protowire.AppendTag(entry, 2, protowire.BytesType)
			entry = protowire.AppendBytes(entry, v)
			b = protowire.AppendTag(b, 2, protowire.BytesType)
			b = protowire.AppendBytes(b, entry)
		}
		got, ok := parseInfoRequest(b)
		if !ok || got.name != order[0] || got.value != "of "+order[0] {
			t.Errorf("entries %v: %+v %v, want the first", order, got, ok)
		}
	}
	if _, ok := parseInfoRequest(nil); ok {
		t.Error("empty payload parsed as a request")
	}
	if _, ok := parseInfoRequest([]byte{0xff, 0xff}); ok {
		t.Error("garbage parsed as a request")
	}
}

func TestServeInfoUnknownRequestIsEmpty(t *testing.T) {
	h := serveInfo(func(req infoRequest) proto.Message {
		if req.name == reqROS2 {
			return ros2Reply("scan", "lidar_top")
		}
		return nil
	})
	b, _ := proto.Marshal(param("request_something", anyNone()))
	if rep := h(b); len(rep) != 0 {
		t.Errorf("unknown request answered with %d bytes", len(rep))
	}
	b, _ = proto.Marshal(param(reqROS2, anyNone()))
	var p msgs.Param
	if err := proto.Unmarshal(h(b), &p); err != nil {
		t.Fatal(err)
	}
	if _, ok := p.Params["ros2"]; !ok || len(p.Children) != 2 {
		t.Fatalf("ros2 reply %v", &p)
	}
	if v := p.Children[0].Params["topic_name"].GetStringValue(); v != "scan" {
		t.Errorf("topic_name %q", v)
	}
	last := p.Children[len(p.Children)-1].Params["frame_id"]
	if last.GetType() != msgs.Any_STRING || last.GetStringValue() != "lidar_top" {
		t.Errorf("last child frame_id %v", last)
	}
}

func TestStaticTransformsLayout(t *testing.T) {
	rep := staticTransformsReply([]link{{parent: "base_footprint", pose: identityPose("base_link")}})
	if rep.Params["static_transforms"].GetType() != msgs.Any_NONE || len(rep.Children) != 1 {
		t.Fatalf("reply %v", rep)
	}
	l := rep.Children[0]
	if l.Params["parent_frame_id"].GetStringValue() != "base_footprint" || len(l.Children) != 1 {
		t.Fatalf("link %v", l)
	}
	pose := l.Children[0].Params["pose"]
	if pose.GetType() != msgs.Any_POSE3D || pose.GetPose3DValue().GetName() != "base_link" || pose.GetPose3DValue().GetOrientation().GetW() != 1 {
		t.Errorf("pose %v", pose)
	}
}

func TestMountPoseQuaternion(t *testing.T) {
	p := mountPose("cam", plugins.Pose3{X: 0.2, Z: 0.18, PitchDeg: 90})
	q := p.Orientation
	// 90° about +y: (x, y, z, w) = (0, sin 45°, 0, cos 45°).
	if math.Abs(q.X) > 1e-12 || math.Abs(q.Y-math.Sqrt2/2) > 1e-12 || math.Abs(q.Z) > 1e-12 || math.Abs(q.W-math.Sqrt2/2) > 1e-12 {
		t.Errorf("pitch 90°: %v", q)
	}
	q = quatRPY(0, 0, math.Pi/2)
	if math.Abs(q.Z-math.Sqrt2/2) > 1e-12 || math.Abs(q.W-math.Sqrt2/2) > 1e-12 {
		t.Errorf("yaw 90°: %v", q)
	}
	// Yaw then pitch then roll: rotating x by q(roll=90°, pitch=0, yaw=90°) gives +y.
	q = quatRPY(math.Pi/2, 0, math.Pi/2)
	x := rotate(q, [3]float64{1, 0, 0})
	if math.Abs(x[0]) > 1e-12 || math.Abs(x[1]-1) > 1e-12 || math.Abs(x[2]) > 1e-12 {
		t.Errorf("x axis rotated to %v, want (0, 1, 0)", x)
	}
	z := rotate(q, [3]float64{0, 0, 1})
	// Roll 90° first turns z to -y, then yaw 90° turns -y to +x.
	if math.Abs(z[0]-1) > 1e-12 || math.Abs(z[1]) > 1e-12 || math.Abs(z[2]) > 1e-12 {
		t.Errorf("z axis rotated to %v, want (1, 0, 0)", z)
	}
	if p.Position.X != 0.2 || p.Position.Z != 0.18 || p.Name != "cam" {
		t.Errorf("pose %v", p)
	}
}

// rotate applies unit quaternion q to v.
func rotate(q *msgs.Quaternion, v [3]float64) [3]float64 {
	// v' = v + 2w(u×v) + 2u×(u×v), u = (x, y, z)
	u := [3]float64{q.X, q.Y, q.Z}
	cross := func(a, b [3]float64) [3]float64 {
		return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
	}
	t := cross(u, v)
	t2 := cross(u, t)
	return [3]float64{v[0] + 2*q.W*t[0] + 2*t2[0], v[1] + 2*q.W*t[1] + 2*t2[1], v[2] + 2*q.W*t[2] + 2*t2[2]}
}

func TestPartsName(t *testing.T) {
	for in, want := range map[string]string{
		"lidar.top":        "lidar_top",
		"camera.front.rgb": "camera_front_rgb",
		"imu":              "imu",
		"3d-cam":           "_3d_cam",
		"":                 "_",
	} {
		if got := partsName(in); got != want {
			t.Errorf("partsName(%q) = %q, want %q", in, got, want)
		}
	}
}
