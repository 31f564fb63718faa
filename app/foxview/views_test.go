package foxview

import (
	"testing"

	"simgui/app/sensors"
	"simgui/app/transport"
	"simgui/app/transport/msgs"
)

// A topic kind's view (ViewOf) is what Viewer.View makes of its messages.
func TestViewOfIsWhatViewMakes(t *testing.T) {
	for kind, m := range map[string]*transport.Message{
		sensors.TopicImage: {Topic: "/model/a/sensor/cam/image", Msg: &msgs.Image{Width: 2, Height: 2, Step: 6,
			PixelFormatType: msgs.PixelFormatType_RGB_INT8, Data: make([]byte, 12)}},
		sensors.TopicDepthImage: {Topic: "/model/a/sensor/depth/depth_image", Msg: &msgs.Image{Width: 2, Height: 2, Step: 8,
			PixelFormatType: msgs.PixelFormatType_R_FLOAT32, Data: make([]byte, 16)}},
		sensors.TopicScan:   {Topic: "/model/a/sensor/lidar/scan", Msg: &msgs.LaserScan{Count: 2, Ranges: []float64{1, 2}}},
		sensors.TopicIMU:    {Topic: "/model/a/sensor/imu/imu", Msg: &msgs.IMU{}},
		sensors.TopicScalar: {Topic: "/model/a/sensor/sonar/scalar", Msg: &msgs.Float_V{}},
	} {
		var v Viewer
		got, topic, err := v.View(*m)
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		want := ViewOf(kind)
		switch {
		case want == nil && got != nil:
			t.Errorf("%s: viewed as %s, but ViewOf says none", kind, got.ProtoReflect().Descriptor().FullName())
		case want != nil && (got == nil || got.ProtoReflect().Descriptor() != want || topic != m.Topic+ViewSuffix):
			t.Errorf("%s: viewed as %v on %q, want %s on %s", kind, got, topic, want.FullName(), m.Topic+ViewSuffix)
		}
		if md, ok := sensors.TopicMessage(kind); !ok || md != m.Msg.ProtoReflect().Descriptor() {
			t.Errorf("%s: TopicMessage %v, want %s", kind, md, m.Msg.ProtoReflect().Descriptor().FullName())
		}
	}
}
