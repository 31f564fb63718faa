package foxview

import (
	"path"

	"github.com/go-gl/mathgl/mgl64"
	"google.golang.org/protobuf/proto"

	"simgui/app/foxview/foxglove"
	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/plugins"
	"simgui/render"
)

// CalibrationTopic is the topic of the Foxglove calibration of the camera whose frames are on
// topic: /model/<m>/sensor/<id>/image (or depth_image) gives
// /model/<m>/sensor/<id>/calibration/foxglove.
func CalibrationTopic(topic string) string {
	return path.Dir(topic) + "/calibration" + ViewSuffix
}

// opticalAxes turns a camera's frame as the renderer has it (x forward, y left, z up) into its
// optical frame as Foxglove's and ROS's images have it (x right, y down, z forward): the
// columns are the optical axes in the camera's frame.
var opticalAxes = mgl64.Mat3{0, -1, 0, 0, 0, -1, 1, 0, 0}

// rigs looks up the robots' vehicles in the Viewer's world, rebuilt when the world has moved
// on to another snapshot.
func (v *Viewer) rigs() map[string]*plugins.VehicleDescriptor {
	if v.World == nil {
		return nil
	}
	snap := v.World()
	if snap == nil {
		return nil
	}
	if snap != v.rigSnap {
		v.rigSnap = snap
		clear(v.rigByName)
		if v.rigByName == nil {
			v.rigByName = make(map[string]*plugins.VehicleDescriptor, len(snap.Models))
		}
		for _, m := range snap.Models {
			if m.Vehicle != nil {
				v.rigByName[m.Name] = m.Vehicle
			}
		}
	}
	return v.rigByName
}

// isCamera says whether a mount draws images: a camera or a depth camera.
func isCamera(mt *plugins.SensorMount) bool {
	return mt.Kind == plugins.SensorCamera || mt.Kind == plugins.SensorDepth
}

// cameraFrames appends to out, for each camera of the robot name rides, the transform from the
// robot's frame to the camera's optical frame (CameraFrame of its topics), stamped as the
// views are.
func (v *Viewer) cameraFrames(out []*foxglove.FrameTransform, rig *plugins.VehicleDescriptor, name string) []*foxglove.FrameTransform {
	for i := range rig.Sensors {
		mt := &rig.Sensors[i]
		if !isCamera(mt) {
			continue
		}
		p := render.PoseFromPose3(mt.Pose)
		q := mgl64.Mat4ToQuat(p.Rotation().Mul3(opticalAxes).Mat4()).Normalize()
		out = append(out, &foxglove.FrameTransform{
			Timestamp: &v.ts, ParentFrameId: RobotFrame(name), ChildFrameId: name + "/" + mt.ID,
			Translation: &foxglove.Vector3{X: p.X, Y: p.Y, Z: p.Z},
			Rotation:    &foxglove.Quaternion{X: q.V[0], Y: q.V[1], Z: q.V[2], W: q.W},
		})
	}
	return out
}

// Calibration returns the Foxglove calibration of the camera whose frame m is, and its topic
// (CalibrationTopic), or nil when m is not a camera's frame or its camera is not in the
// Viewer's world (World). It is the camera's calibration as its vehicle describes it, at the
// frame's size: the intrinsics and distortion its mount parameters give, without what a
// scenario's randomization jitters, as a real camera's calibration file is. The message holds
// the Viewer's buffers until the next call.
func (v *Viewer) Calibration(m transport.Message) (proto.Message, string) {
	img, ok := m.Msg.(*msgs.Image)
	if !ok {
		return nil, ""
	}
	w, h := int(img.GetWidth()), int(img.GetHeight())
	if w <= 0 || h <= 0 || w > 1<<15 || h > 1<<15 {
		return nil, ""
	}
	model, id, ok := sensorOf(m.Topic)
	if !ok {
		return nil, ""
	}
	rig := v.rigs()[model]
	if rig == nil {
		return nil, ""
	}
	var mt *plugins.SensorMount
	for i := range rig.Sensors {
		if s := &rig.Sensors[i]; s.ID == id && isCamera(s) {
			mt = s
		}
	}
	if mt == nil {
		return nil, ""
	}
	cam, err := mountCamera(mt, w, h)
	if err != nil {
		return nil, ""
	}
	fx, fy, cx, cy := cam.Intrinsics()
	l := cam.Lens
	c := &v.calib
	*c = foxglove.CameraCalibration{Timestamp: &v.ts, FrameId: model + "/" + id, Width: uint32(w), Height: uint32(h),
		DistortionModel: "plumb_bob", D: append(c.D[:0], l.K1, l.K2, l.P1, l.P2, l.K3),
		K: append(c.K[:0], fx, 0, cx, 0, fy, cy, 0, 0, 1),
		R: append(c.R[:0], 1, 0, 0, 0, 1, 0, 0, 0, 1),
		P: append(c.P[:0], fx, 0, cx, 0, 0, fy, cy, 0, 0, 0, 1, 0)}
	if l.Model == render.Equidistant {
		// OpenCV's fisheye model, which Foxglove calls kannala_brandt.
		c.DistortionModel, c.D = "kannala_brandt", append(c.D[:0], l.K1, l.K2, l.K3, l.K4)
	}
	return c, CalibrationTopic(m.Topic)
}

// mountCamera is the camera a mount describes at w×h: a camera's lens from its parameters, a
// depth camera's pinhole from its field of view.
func mountCamera(mt *plugins.SensorMount, w, h int) (render.Camera, error) {
	if mt.Kind == plugins.SensorCamera {
		cam, _, err := render.MountCamera(mt.Params, w, h, nil)
		return cam, err
	}
	fov, ok := mt.Params["fovDeg"]
	if !ok {
		specs, err := plugins.SensorParams(plugins.SensorDepth)
		if err != nil {
			return render.Camera{}, err
		}
		for _, s := range specs {
			if s.Name == "fovDeg" {
				fov = s.Default
			}
		}
	}
	return render.Camera{FovYDeg: fov, Width: w, Height: h}, nil
}
