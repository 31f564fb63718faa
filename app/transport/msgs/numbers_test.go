package msgs

import (
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// wireNumbers is cloisim.msgs' proto3 numbering as listed in
// CLOiSim's cloisim.msgs .proto files ("name=number" per field), for the
// messages the bridge forwards. A schema edit that moves a number fails here.
var wireNumbers = map[string]string{
	"Pose":            "header=1 name=2 id=3 position=4 orientation=5",
	"Quaternion":      "header=1 x=2 y=3 z=4 w=5",
	"Color":           "header=1 r=2 g=3 b=4 a=5",
	"Joystick":        "header=1 translation=2 rotation=3 buttons=4",
	"Any":             "header=1 type=2 double_value=3 int_value=4 string_value=5 bool_value=6 vector3d_value=7 color_value=8 pose3d_value=9 quaternion_value=10 time_value=11",
	"Param_V":         "header=1 param=2",
	"WorldStatistics": "header=1 sim_time=2 pause_time=3 real_time=4 paused=5 iterations=6 model_count=7 log_playback_stats=8 real_time_factor=9 step_size=10 stepping=11",
	"LaserScan":       "header=1 frame=2 world_pose=3 angle_min=4 angle_max=5 angle_step=6 range_min=7 range_max=8 count=9 vertical_angle_min=10 vertical_angle_max=11 vertical_angle_step=12 vertical_count=13 ranges=14 intensities=15",
	"IMU":             "header=1 entity_name=2 orientation=3 orientation_covariance=4 angular_velocity=5 angular_velocity_covariance=6 linear_acceleration=7 linear_acceleration_covariance=8",
	"Micom":           "time=1 odom=2 uss=3 ir=4 magnet=5 bumper=6 battery=7 pose=8",
	"Micom.Odometry":  "angular_velocity=1 linear_velocity=2 pose=3 twist=4",
	"Micom.Bumper":    "bumped=1 contacts=2",
	"Sonar":           "header=1 frame=2 world_pose=3 range_min=4 range_max=5 radius=6 range=7 geometry=8 contact=9",
	"Contact":         "header=1 collision1=2 collision2=3 position=4 normal=5 depth=6 wrench=7 world=8",
	"Entity":          "header=1 id=2 name=3 type=4",
	"CameraSensor":    "header=1 horizontal_fov=2 image_size=3 image_format=4 near_clip=5 far_clip=6 save_enabled=7 save_path=8 distortion=9 depth_near_clip=11 depth_far_clip=12 bounding_box_type=13 segmentation_type=14 triggered=16 triggered_topic=17 anti_aliasing=18 visibility_mask=19 is_depth_camera=20 pixel_format=21",
	"Distortion":      "header=1 center=2 k1=3 k2=4 k3=5 p1=6 p2=7",
	"Image":           "header=1 width=2 height=3 step=4 data=5 pixel_format_type=6",
	"Marker":          "header=1 action=2 ns=3 id=4 layer=5 type=6 lifetime=7 pose=8 scale=9 material=10 point=11 text=12 parent=13 visibility=14 materials=15",
}

func TestWireNumbers(t *testing.T) {
	for msg, spec := range wireNumbers {
		mt, err := protoregistry.GlobalTypes.FindMessageByName(protoreflect.FullName("gz.msgs." + msg))
		if err != nil {
			t.Errorf("%s: %v", msg, err)
			continue
		}
		fds := mt.Descriptor().Fields()
		pairs := strings.Fields(spec)
		if fds.Len() != len(pairs) {
			t.Errorf("%s has %d fields, reference lists %d", msg, fds.Len(), len(pairs))
		}
		for _, p := range pairs {
			name, num, _ := strings.Cut(p, "=")
			fd := fds.ByName(protoreflect.Name(name))
			if fd == nil {
				t.Errorf("%s.%s missing", msg, name)
				continue
			}
			if got := fd.Number(); strconv.Itoa(int(got)) != num {
				t.Errorf("%s.%s = %d, want %s", msg, name, got, num)
			}
		}
	}
}

func TestEnumNumbers(t *testing.T) {
	if PixelFormatType_R_FLOAT32 != 13 || PixelFormatType_RGB_INT8 != 3 || PixelFormatType_BAYER_GRBG8 != 18 || PixelFormatType_L_INT16 != 2 {
		t.Fatal("PixelFormatType numbers differ from CLOiSim's")
	}
	if Any_TIME != 9 || Any_POSE3D != 7 || Any_STRING != 3 || Any_BOOLEAN != 4 {
		t.Fatal("Any.ValueType numbers differ from CLOiSim's")
	}
	if Entity_WORLD != 9 || Marker_LINE_LIST != 4 || Marker_LINE_STRIP != 3 || Marker_TEXT != 7 {
		t.Fatal("Entity/Marker enum numbers differ from the references")
	}
}
