package transport

import (
	"testing"

	"simgui/app/transport/msgs"
)

func TestBuiltinType(t *testing.T) {
	for _, c := range []struct{ topic, want string }{
		{ClockTopic, "gz.msgs.Clock"},
		{CmdVelTopic("ego"), "gz.msgs.Twist"},
		{CmdDriveTopic("ego"), "gz.msgs.Param"},
		{PoseTopic("ego"), "gz.msgs.Pose"},
		{OdometryTopic("ego"), "gz.msgs.Micom"},
		{WheelsTopic("ego"), "gz.msgs.Pose_V"},
		{PoseInfoTopic("w"), "gz.msgs.Pose_V"},
		{StatsTopic("w"), "gz.msgs.WorldStatistics"},
		{ResetTopic("w"), "gz.msgs.Int64"},
		{"/model/ego/lights", ""},
		{"/model//pose", ""},
		{"/world/w", ""},
		{"/clock/x", ""},
		{"/ego/pose", ""},
	} {
		got, ok := BuiltinType(c.topic)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("BuiltinType(%q) = %q, %v; want %q", c.topic, got, ok, c.want)
		}
		if ok {
			if _, err := msgs.Lookup(got); err != nil {
				t.Errorf("%s: %v", c.topic, err)
			}
		}
	}
}
