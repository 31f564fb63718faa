package foxview

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"simgui/app/foxview/foxglove"
	"simgui/app/systems/gztopics"
	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/app/world"
	"simgui/plugins"
	"simgui/render"
)

// camVehicle has a tilted, turned camera with a distorting lens off-centre, a fisheye and a
// depth camera.
var camVehicle = &plugins.VehicleDescriptor{
	ID: "vehicle.test.cameras.v1", Version: plugins.ContractVersion{Major: 1},
	Body:  testVehicle.Body,
	Drive: testVehicle.Drive,
	Sensors: []plugins.SensorMount{
		{ID: "front", Kind: plugins.SensorCamera, Pose: plugins.Pose3{X: 0.08, Y: 0.01, Z: 0.09, RollDeg: 4, PitchDeg: 12, YawDeg: -20},
			Params: map[string]float64{"fovDeg": 60, "k1": -0.12, "k2": 0.03, "p1": 0.001, "p2": -0.002, "k3": 0.004, "cx": 330, "cy": 235}},
		{ID: "fish", Kind: plugins.SensorCamera, Pose: plugins.Pose3{X: -0.05, Z: 0.1},
			Params: map[string]float64{"lensModel": 1, "fx": 150, "k1": 0.05, "k2": -0.01, "k3": 0.002, "k4": -0.0005}},
		{ID: "depth", Kind: plugins.SensorDepth, Pose: plugins.Pose3{X: 0.1, Z: 0.05}},
		{ID: "sonar", Kind: "ultrasonic", Pose: plugins.Pose3{X: 0.1}},
	},
}

func camSnapshot() *world.Snapshot {
	return &world.Snapshot{Models: []world.ModelState{
		{Name: "rover", VehicleID: camVehicle.ID, Vehicle: camVehicle, Pose: world.Pose{X: 1.5, Y: -0.7, Z: 0.02, Yaw: 0.9}},
		{Name: "plain", VehicleID: testVehicle.ID, Vehicle: testVehicle},
	}}
}

func frameOf(topic string, w, h int) transport.Message {
	return transport.Message{Topic: topic, Msg: &msgs.Image{Width: uint32(w), Height: uint32(h), Step: uint32(3 * w),
		PixelFormatType: msgs.PixelFormatType_RGB_INT8}}
}

// A camera placed by the pose list's view and its calibration projects a world point to the
// pixel the renderer draws it at: the robot's frame, the camera's optical frame under it, K
// and plumb_bob's D in Foxglove's order.
func TestCameraFrameAndCalibrationProjectAsTheRenderer(t *testing.T) {
	snap := camSnapshot()
	v := Viewer{World: func() *world.Snapshot { return snap }}
	rover := snap.Models[0]
	list := &msgs.Pose_V{Pose: []*msgs.Pose{gztopics.PoseMsg(rover.Name, 1, rover.Pose), gztopics.PoseMsg("plain", 2, world.Pose{})}}
	tf := v.transforms(list).(*foxglove.FrameTransforms)
	frames := map[string]*foxglove.FrameTransform{}
	for _, f := range tf.Transforms {
		frames[f.ChildFrameId] = f
	}
	// Both robots, and the rover's three cameras (not its sonar).
	if len(tf.Transforms) != 5 || frames["rover/front"] == nil || frames["rover/fish"] == nil || frames["rover/depth"] == nil {
		t.Fatalf("transforms %v, want rover, plain and rover's three cameras", tf.Transforms)
	}
	if p := frames["rover/front"].ParentFrameId; p != "rover" {
		t.Errorf("rover/front's parent %q, want rover", p)
	}

	m, topic := v.Calibration(frameOf("/model/rover/sensor/front/image", 640, 480))
	c, ok := m.(*foxglove.CameraCalibration)
	if !ok || topic != "/model/rover/sensor/front/calibration/foxglove" {
		t.Fatalf("calibration %v on %q", m, topic)
	}
	if c.FrameId != "rover/front" || c.Width != 640 || c.Height != 480 || c.DistortionModel != "plumb_bob" || len(c.D) != 5 || len(c.K) != 9 || len(c.P) != 12 {
		t.Fatalf("calibration %v", c)
	}

	cam, _, err := render.MountCamera(camVehicle.Sensors[0].Params, 640, 480, nil)
	if err != nil {
		t.Fatal(err)
	}
	body := render.Pose{X: rover.Pose.X, Y: rover.Pose.Y, Z: rover.Pose.Z, Yaw: rover.Pose.Yaw}
	cam.Pose = body.Compose(render.PoseFromPose3(camVehicle.Sensors[0].Pose))
	for _, pw := range []mgl64.Vec3{{3, 0.5, 0.3}, {2.2, 0.2, -0.1}, {2.5, 1.4, 0.6}} {
		col, row, _, ok := cam.Project(pw)
		if !ok {
			t.Fatalf("%v is behind the camera", pw)
		}
		// World -> robot -> optical frame, by the transforms as Foxglove chains them.
		po := inverse(frames["rover/front"], inverse(frames["rover"], pw))
		x, y := po[0]/po[2], po[1]/po[2]
		k1, k2, p1, p2, k3 := c.D[0], c.D[1], c.D[2], c.D[3], c.D[4]
		r2 := x*x + y*y
		radial := 1 + k1*r2 + k2*r2*r2 + k3*r2*r2*r2
		xd := x*radial + 2*p1*x*y + p2*(r2+2*x*x)
		yd := y*radial + p1*(r2+2*y*y) + 2*p2*x*y
		u, vv := c.K[0]*xd+c.K[2], c.K[4]*yd+c.K[5]
		// OpenCV's pixel u is the renderer's column less half a pixel.
		if math.Abs(u+0.5-col) > 1e-6 || math.Abs(vv+0.5-row) > 1e-6 {
			t.Errorf("%v: Foxglove's pixel (%.4f, %.4f), the renderer's (%.4f, %.4f)", pw, u+0.5, vv+0.5, col, row)
		}
	}
}

// inverse maps a point in f's parent frame into f's child frame.
func inverse(f *foxglove.FrameTransform, p mgl64.Vec3) mgl64.Vec3 {
	r, t := f.Rotation, f.Translation
	q := mgl64.Quat{W: r.W, V: mgl64.Vec3{r.X, r.Y, r.Z}}
	return q.Conjugate().Rotate(p.Sub(mgl64.Vec3{t.X, t.Y, t.Z}))
}

// A fisheye is Foxglove's kannala_brandt with OpenCV's fisheye k1..k4; a depth camera a
// pinhole of its field of view; frames of a sensor, robot or size the world does not have get
// no calibration.
func TestCalibrationOfEachCameraKind(t *testing.T) {
	snap := camSnapshot()
	v := Viewer{World: func() *world.Snapshot { return snap }}
	m, _ := v.Calibration(frameOf("/model/rover/sensor/fish/image", 320, 240))
	c, ok := m.(*foxglove.CameraCalibration)
	if !ok || c.DistortionModel != "kannala_brandt" || len(c.D) != 4 || c.D[0] != 0.05 || c.D[3] != -0.0005 || c.K[0] != 150 || c.K[4] != 150 {
		t.Errorf("fisheye calibration %v", m)
	}
	m, topic := v.Calibration(transport.Message{Topic: "/model/rover/sensor/depth/depth_image",
		Msg: &msgs.Image{Width: 160, Height: 120, Step: 640, PixelFormatType: msgs.PixelFormatType_R_FLOAT32}})
	c, ok = m.(*foxglove.CameraCalibration)
	specs, _ := plugins.SensorParams(plugins.SensorDepth)
	fov := 0.0
	for _, s := range specs {
		if s.Name == "fovDeg" {
			fov = s.Default
		}
	}
	fy := 60 / math.Tan(fov*math.Pi/360)
	if !ok || topic != "/model/rover/sensor/depth/calibration/foxglove" || math.Abs(c.K[4]-fy) > 1e-9 || c.K[2] != 79.5 || c.K[5] != 59.5 || c.D[0] != 0 {
		t.Errorf("depth calibration %v on %q, want fy %g, the centre (79.5, 59.5)", m, topic, fy)
	}
	for _, msg := range []transport.Message{
		frameOf("/model/rover/sensor/sonar/image", 64, 48),   // not a camera
		frameOf("/model/ghost/sensor/front/image", 64, 48),   // no such robot
		frameOf("/model/rover/sensor/front/image", 0, 48),    // no size
		frameOf("/model/rover/sensor/front/image", 1<<16, 2), // a size no frame has
		frameOf("/elsewhere/image", 64, 48),                  // not a sensor's
		{Topic: "/model/rover/sensor/front/image", Msg: &msgs.Pose{}},
	} {
		if m, _ := v.Calibration(msg); m != nil {
			t.Errorf("%s (%T): calibration %v, want none", msg.Topic, msg.Msg, m)
		}
	}
	if m, _ := (&Viewer{}).Calibration(frameOf("/model/rover/sensor/front/image", 64, 48)); m != nil {
		t.Errorf("a Viewer without a world gave calibration %v", m)
	}
}
