package foxview

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/timestamppb"

	"simgui/app/foxview/foxglove"
	"simgui/app/sensors"
	"simgui/app/sensors/jpegenc"
	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/app/world"
	"simgui/plugins"
)

// ViewSuffix ends the topic of a message's Foxglove view: a camera's frames on
// /model/<m>/sensor/<id>/image are also on /model/<m>/sensor/<id>/image/foxglove.
const ViewSuffix = "/foxglove"

// viewQuality is the JPEG quality of a camera frame's view: close to the frame to the eye
// (the gz.msgs.Image beside it keeps the exact pixels), a tenth of its size or less.
const viewQuality = 90

// WorldFrame is the frame the views place things in: the world's (x east, y north, z up).
const WorldFrame = "world"

// Viewer makes the Foxglove views of bus messages: Foxglove's Image and 3D
// panels draw only its own types (and ROS's), not gz.msgs. A camera's frame (gz.msgs.Image,
// RGB_INT8 or L_INT8) is viewed as a foxglove.CompressedImage, a JPEG; a lidar scan
// (gz.msgs.LaserScan, one layer) as a foxglove.LaserScan placed in the world frame at the
// sensor's pose; a depth frame (R_FLOAT32) as a foxglove.RawImage of 16-bit millimetres; the
// world's pose list (/world/<w>/pose/info, gz.msgs.Pose_V) as
// foxglove.FrameTransforms, a frame per model under the world frame, and with World a frame
// per camera under its robot's. Other messages have none. A camera's frame has a calibration
// too (Calibration). The zero Viewer is ready; one goroutine at a time: the views share its
// buffers.
type Viewer struct {
	// World returns the world the messages come from as it is now, whose robots' sensor
	// mounts place their cameras' frames and give their calibrations; nil leaves both out.
	World func() *world.Snapshot

	enc           jpegenc.Encoder
	rgb, jpg, raw []byte
	img           foxglove.CompressedImage
	rawImg        foxglove.RawImage
	calib         foxglove.CameraCalibration
	ts            timestamppb.Timestamp
	// rigByName holds the vehicles of rigSnap's robots by name.
	rigSnap   *world.Snapshot
	rigByName map[string]*plugins.VehicleDescriptor
}

// View returns m's view and its topic, or nil when m has none (another type, or a frame
// whose sizes do not match its data: the bus carries what scenarios and clients publish
// too). The view holds the Viewer's buffers until the next call, and its stamps are the
// Viewer's stamp (SetStamp) when it is marshalled.
func (v *Viewer) View(m transport.Message) (proto.Message, string, error) {
	switch msg := m.Msg.(type) {
	case *msgs.Image:
		return v.image(m.Topic, msg)
	case *msgs.LaserScan:
		return v.scan(msg), m.Topic + ViewSuffix, nil
	case *msgs.Pose_V:
		if !IsPoseInfo(m.Topic) {
			return nil, "", nil
		}
		return v.transforms(msg), m.Topic + ViewSuffix, nil
	}
	return nil, "", nil
}

// SetStamp sets the stamp of the views, in nanoseconds since the Unix epoch: a recording's
// log time, a live viewer's clock. Foxglove orders transforms by their stamps, and a world's
// sim time starts again at each reset and in each training episode, so the views are not
// stamped with it.
func (v *Viewer) SetStamp(ns uint64) {
	v.ts = timestamppb.Timestamp{Seconds: int64(ns / uint64(time.Second)), Nanos: int32(ns % uint64(time.Second))}
}

// ViewOf returns the message of the view of a sensor topic kind's messages (sensors.TopicImage,
// ...), or nil for a kind without one.
func ViewOf(kind string) protoreflect.MessageDescriptor {
	switch kind {
	case sensors.TopicImage:
		return (&foxglove.CompressedImage{}).ProtoReflect().Descriptor()
	case sensors.TopicDepthImage:
		return (&foxglove.RawImage{}).ProtoReflect().Descriptor()
	case sensors.TopicScan:
		return (&foxglove.LaserScan{}).ProtoReflect().Descriptor()
	}
	return nil
}

// image views a camera frame as a JPEG.
func (v *Viewer) image(topic string, msg *msgs.Image) (proto.Message, string, error) {
	w, h, step := int(msg.GetWidth()), int(msg.GetHeight()), int(msg.GetStep())
	var bpp int
	switch msg.GetPixelFormatType() {
	case msgs.PixelFormatType_RGB_INT8:
		bpp = 3
	case msgs.PixelFormatType_L_INT8:
		bpp = 1
	case msgs.PixelFormatType_R_FLOAT32:
		return v.depth(topic, msg)
	default:
		return nil, "", nil
	}
	// The sizes come from whoever published: checked against the data before anything is
	// read or allocated (so their product cannot overflow either).
	data := msg.GetData()
	if w <= 0 || h <= 0 || step < w*bpp || len(data)/step < h || w > 1<<15 || h > 1<<15 {
		return nil, "", nil
	}
	pix := data
	if bpp == 1 {
		// The encoder takes RGB: a grey frame's pixels, three times over.
		step = 3 * w
		v.rgb = v.rgb[:0]
		for y := range h {
			for _, g := range data[y*int(msg.GetStep()):][:w] {
				v.rgb = append(v.rgb, g, g, g)
			}
		}
		pix = v.rgb
	}
	if v.enc == nil {
		v.enc = jpegenc.Default()
	}
	var err error
	if v.jpg, err = v.enc.Encode(v.jpg[:0], pix, w, h, step, viewQuality); err != nil {
		return nil, "", fmt.Errorf("view of %s: %w", topic, err)
	}
	v.img = foxglove.CompressedImage{Timestamp: &v.ts, FrameId: CameraFrame(topic), Data: v.jpg, Format: "jpeg"}
	return &v.img, topic + ViewSuffix, nil
}

// IsPoseInfo says whether topic is a world's pose list, /world/<world>/pose/info.
func IsPoseInfo(topic string) bool {
	return strings.HasPrefix(topic, "/world/") && strings.HasSuffix(topic, "/pose/info")
}

// depth views a depth frame as 16-bit millimetres (16UC1, 0 = no return), as the depth
// images of a sensor dump: Foxglove draws 32FC1 as brightness from 0 to 1, and colours
// 16UC1 by a range its Image panel sets.
func (v *Viewer) depth(topic string, msg *msgs.Image) (proto.Message, string, error) {
	w, h, step, data := int(msg.GetWidth()), int(msg.GetHeight()), int(msg.GetStep()), msg.GetData()
	if w <= 0 || h <= 0 || step < 4*w || len(data)/step < h || w > 1<<15 || h > 1<<15 {
		return nil, "", nil
	}
	v.raw = v.raw[:0]
	for y := range h {
		row := data[y*step:][:4*w]
		for x := range w {
			d := math.Float32frombits(binary.LittleEndian.Uint32(row[4*x:]))
			v.raw = binary.LittleEndian.AppendUint16(v.raw, sensors.DepthMillimetres(d))
		}
	}
	v.rawImg = foxglove.RawImage{Timestamp: &v.ts, FrameId: CameraFrame(topic), Width: uint32(w), Height: uint32(h),
		Encoding: "16UC1", Step: uint32(2 * w), Data: v.raw}
	return &v.rawImg, topic + ViewSuffix, nil
}

// CameraFrame names a camera's frame after its topic: /model/<m>/sensor/<id>/image gives
// "<m>/<id>".
func CameraFrame(topic string) string {
	model, id, ok := sensorOf(topic)
	if !ok {
		return ""
	}
	return model + "/" + id
}

// sensorOf returns the robot and the sensor of a sensor's topic, /model/<m>/sensor/<id>/....
func sensorOf(topic string) (model, id string, ok bool) {
	rest, ok := strings.CutPrefix(topic, "/model/")
	if !ok {
		return "", "", false
	}
	model, rest, ok = strings.Cut(rest, "/sensor/")
	if !ok {
		return "", "", false
	}
	id, _, _ = strings.Cut(rest, "/")
	return model, id, true
}

// scan views a lidar scan in the world frame, from the sensor's world pose. A scan of several
// layers has only its first: Foxglove's LaserScan is planar.
func (v *Viewer) scan(msg *msgs.LaserScan) proto.Message {
	ranges := msg.GetRanges()
	if n := int(msg.GetCount()); msg.GetVerticalCount() > 1 && n > 0 && n < len(ranges) {
		ranges = ranges[:n]
	}
	p := msg.GetWorldPose()
	var inten []float64
	if len(msg.GetIntensities()) >= len(ranges) {
		inten = msg.GetIntensities()[:len(ranges)]
	}
	end := msg.GetAngleMax()
	if len(ranges) > 1 && msg.GetAngleStep() != 0 {
		// The last ray's bearing: Foxglove spaces the rays evenly from start to end.
		end = msg.GetAngleMin() + msg.GetAngleStep()*float64(len(ranges)-1)
	}
	return &foxglove.LaserScan{
		Timestamp: &v.ts, FrameId: WorldFrame, Pose: fgPose(p.GetPosition(), p.GetOrientation()),
		StartAngle: msg.GetAngleMin(), EndAngle: end, Ranges: ranges, Intensities: inten,
	}
}

// transforms views the world's pose list as a frame per model under the world frame, and a
// frame per camera of a robot in the Viewer's world under the robot's.
func (v *Viewer) transforms(msg *msgs.Pose_V) proto.Message {
	out := &foxglove.FrameTransforms{Transforms: make([]*foxglove.FrameTransform, 0, len(msg.GetPose()))}
	rigs := v.rigs()
	for _, p := range msg.GetPose() {
		if p.GetName() == "" {
			continue
		}
		fp := fgPose(p.GetPosition(), p.GetOrientation())
		out.Transforms = append(out.Transforms, &foxglove.FrameTransform{
			Timestamp: &v.ts, ParentFrameId: WorldFrame, ChildFrameId: RobotFrame(p.GetName()),
			Translation: fp.Position, Rotation: fp.Orientation,
		})
		if rig := rigs[p.GetName()]; rig != nil {
			out.Transforms = v.cameraFrames(out.Transforms, rig, p.GetName())
		}
	}
	return out
}

// RobotFrame is the frame of the robot named name: its name, but for a robot named as the
// world frame, whose frame would be its own parent.
func RobotFrame(name string) string {
	if name == WorldFrame {
		return "robot/" + name
	}
	return name
}

// fgPose is a gz position and orientation as Foxglove's pose; a missing orientation is the
// identity (gz's unset quaternion is all zeros).
func fgPose(pos *msgs.Vector3D, q *msgs.Quaternion) *foxglove.Pose {
	out := &foxglove.Pose{
		Position:    &foxglove.Vector3{X: pos.GetX(), Y: pos.GetY(), Z: pos.GetZ()},
		Orientation: &foxglove.Quaternion{X: q.GetX(), Y: q.GetY(), Z: q.GetZ(), W: q.GetW()},
	}
	if q.GetX() == 0 && q.GetY() == 0 && q.GetZ() == 0 && q.GetW() == 0 {
		out.Orientation.W = 1
	}
	return out
}
