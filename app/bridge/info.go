package bridge

import (
	"math"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"simgui/app/rosname"
	"simgui/app/transport/msgs"
	"simgui/plugins"
)

// Info request names cloisim_ros sends (cloisim_ros's Info service).
const (
	reqROS2             = "request_ros2"
	reqTransform        = "request_transform"
	reqStaticTransforms = "request_static_transforms"
	reqCameraInfo       = "request_camera_info"
	reqOutputType       = "request_output_type"
	reqResetOdometry    = "reset_odometry"
)

// infoRequest is a decoded Info request: its name and its string argument, if any.
type infoRequest struct {
	name  string
	value string
}

// parseInfoRequest decodes a Param request. The request is its one map entry; should a client
// send several, the first on the wire wins, as in CLOiSim (whose maps keep their entries'
// order; Go's do not). ok is false for bytes that are not a Param or a Param without entries.
func parseInfoRequest(payload []byte) (infoRequest, bool) {
	var p msgs.Param
	if err := proto.Unmarshal(payload, &p); err != nil || len(p.GetParams()) == 0 {
		return infoRequest{}, false
	}
	name, ok := firstParamKey(payload)
	if _, known := p.GetParams()[name]; !ok || !known {
		return infoRequest{}, false
	}
	return infoRequest{name: name, value: p.GetParams()[name].GetStringValue()}, true
}

// firstParamKey is the key of the first params entry (Param field 2, an entry's key field 1)
// in a Param's wire bytes, which proto.Unmarshal has accepted.
func firstParamKey(b []byte) (string, bool) {
	const paramsField, keyField = 2, 1
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return "", false
		}
		b = b[n:]
		if num != paramsField || typ != protowire.BytesType {
			if n = protowire.ConsumeFieldValue(num, typ, b); n < 0 {
				return "", false
			}
			b = b[n:]
			continue
		}
		entry, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return "", false
		}
		key := "" // an entry without a key has the empty one
		for len(entry) > 0 {
			num, typ, n := protowire.ConsumeTag(entry)
			if n < 0 {
				return "", false
			}
			entry = entry[n:]
			if num == keyField && typ == protowire.BytesType {
				v, n := protowire.ConsumeBytes(entry)
				if n < 0 {
					return "", false
				}
				key, entry = string(v), entry[n:]
				continue
			}
			if n = protowire.ConsumeFieldValue(num, typ, entry); n < 0 {
				return "", false
			}
			entry = entry[n:]
		}
		return key, true
	}
	return "", false
}

// infoHandler answers one device's Info requests; a nil reply means "no answer for this request",
// sent as an empty payload (an empty Param), which clients read as "nothing known".
type infoHandler func(req infoRequest) proto.Message

// serveInfo adapts an infoHandler to a REP socket's request callback.
func serveInfo(h infoHandler) func([]byte) []byte {
	return func(payload []byte) []byte {
		req, ok := parseInfoRequest(payload)
		if !ok {
			return nil
		}
		m := h(req)
		if m == nil {
			return nil
		}
		b, err := proto.Marshal(m)
		if err != nil {
			return nil
		}
		return b
	}
}

func anyNone() *msgs.Any { return &msgs.Any{Type: msgs.Any_NONE} }

func anyString(s string) *msgs.Any {
	return &msgs.Any{Type: msgs.Any_STRING, Value: &msgs.Any_StringValue{StringValue: s}}
}

func anyBool(b bool) *msgs.Any {
	return &msgs.Any{Type: msgs.Any_BOOLEAN, Value: &msgs.Any_BoolValue{BoolValue: b}}
}

func anyPose(p *msgs.Pose) *msgs.Any {
	return &msgs.Any{Type: msgs.Any_POSE3D, Value: &msgs.Any_Pose3DValue{Pose3DValue: p}}
}

// param is a Param with one entry and children.
func param(key string, v *msgs.Any, children ...*msgs.Param) *msgs.Param {
	return &msgs.Param{Params: map[string]*msgs.Any{key: v}, Children: children}
}

// ros2Reply is the request_ros2 answer: {"ros2"} with a topic_name child (omitted when empty)
// and one frame_id child.
func ros2Reply(topic, frameID string) *msgs.Param {
	p := param("ros2", anyNone())
	if topic != "" {
		p.Children = append(p.Children, param("topic_name", anyString(topic)))
	}
	p.Children = append(p.Children, param("frame_id", anyString(frameID)))
	return p
}

// transformReply is the request_transform answer: the device pose in its parent frame.
func transformReply(pose *msgs.Pose, parent string) *msgs.Param {
	return param("transform", anyPose(pose), param("parent_frame_id", anyString(parent)))
}

// staticTransformsReply is the request_static_transforms answer: one child per link,
// {"parent_frame_id": parent} with the single child {"pose": pose named after the link}.
func staticTransformsReply(links []link) *msgs.Param {
	p := param("static_transforms", anyNone())
	for _, l := range links {
		p.Children = append(p.Children, param("parent_frame_id", anyString(l.parent), param("pose", anyPose(l.pose))))
	}
	return p
}

// link is a named frame and its pose in a parent frame.
type link struct {
	parent string
	pose   *msgs.Pose // Name is the link's frame
}

// mountPose converts a sensor mount (vehicle frame: x forward, y left, z up; roll, pitch, yaw
// in degrees applied yaw, then pitch, then roll) to a Pose named name.
func mountPose(name string, p plugins.Pose3) *msgs.Pose {
	return &msgs.Pose{
		Name:        name,
		Position:    &msgs.Vector3D{X: p.X, Y: p.Y, Z: p.Z},
		Orientation: quatRPY(p.RollDeg*math.Pi/180, p.PitchDeg*math.Pi/180, p.YawDeg*math.Pi/180),
	}
}

// quatRPY is the quaternion of Rz(yaw)·Ry(pitch)·Rx(roll), angles in radians.
func quatRPY(roll, pitch, yaw float64) *msgs.Quaternion {
	sr, cr := math.Sincos(roll / 2)
	sp, cp := math.Sincos(pitch / 2)
	sy, cy := math.Sincos(yaw / 2)
	return &msgs.Quaternion{
		W: cr*cp*cy + sr*sp*sy,
		X: sr*cp*cy - cr*sp*sy,
		Y: cr*sp*cy + sr*cp*sy,
		Z: cr*cp*sy - sr*sp*cy,
	}
}

// rosName is the name a model's devices are listed under: cloisim_ros makes it the namespace
// of the robot's nodes, so rusim's "agent-2" is served as "agent_2" (package rosname).
func rosName(model string) string { return rosname.Of(model) }

// partsName turns a sensor id into a CLOiSim parts name. cloisim_ros names a ROS node after
// the parts and rebuilds the hashKey from that node name: "lidar.top" → "lidar_top".
func partsName(id string) string { return rosname.Of(id) }
