package transport

import "strings"

// Topic and service names of a world on its bus, as gz-sim names them (gz-sim's DiffDrive,
// PosePublisher and UserCommands systems) plus the micom odometry of CLOiSim robots.
// Every part of the process that names a world's topic calls these.

// CmdVelTopic carries gz.msgs.Twist velocity targets for a model.
func CmdVelTopic(model string) string { return "/model/" + model + "/cmd_vel" }

// CmdDriveTopic carries gz.msgs.Param normalised commands (throttle, steer, ...) for a model.
func CmdDriveTopic(model string) string { return "/model/" + model + "/cmd_drive" }

// CommandTopic carries gz.msgs.Param with the command a model's last step ran with (whoever
// gave it: a key, the training API, cmd_vel or cmd_drive), so that a recording holds the actions
// beside the frames; its header is stamped with that step's sim time.
func CommandTopic(model string) string { return "/model/" + model + "/command" }

// PoseTopic carries a model's gz.msgs.Pose after each step, its header stamped with the
// step's sim time.
func PoseTopic(model string) string { return "/model/" + model + "/pose" }

// OdometryTopic carries a model's gz.msgs.Micom (wheel odometry on sim time).
func OdometryTopic(model string) string { return "/model/" + model + "/micom" }

// ResetOdometryService (gz.msgs.Empty → gz.msgs.Boolean) restarts a model's odometry at its
// current pose.
func ResetOdometryService(model string) string { return "/model/" + model + "/reset_odometry" }

// PoseInfoTopic carries gz.msgs.Pose_V with every model of a world, stamped as PoseTopic: the
// robots, then the pushable boxes (named by world.BoxPoseName).
func PoseInfoTopic(world string) string { return "/world/" + world + "/pose/info" }

// StatsTopic carries gz.msgs.WorldStatistics of a world.
func StatsTopic(world string) string { return "/world/" + world + "/stats" }

// ControlService is a world's gz.msgs.WorldControl → gz.msgs.Boolean service.
func ControlService(world string) string { return "/world/" + world + "/control" }

// SetPoseService is a world's gz.msgs.Pose → gz.msgs.Boolean teleport service.
func SetPoseService(world string) string { return "/world/" + world + "/set_pose" }

// ClockTopic carries gz.msgs.Clock with sim time, as in gz-sim.
const ClockTopic = "/clock"

// WheelsTopic carries a model's gz.msgs.Pose_V of wheel link poses (parent frame in each
// header), published with its odometry.
func WheelsTopic(model string) string { return "/model/" + model + "/wheels" }

// ResetTopic carries a gz.msgs.Int64 with the seed each time the world is reset.
func ResetTopic(world string) string { return "/world/" + world + "/reset" }

// BuiltinType returns the full message type of a topic named above (the simulator
// publishes or reads it with that type whether or not it is declared yet), and whether name is
// one: a timeline publishing another type there would be refused at its first message.
func BuiltinType(name string) (string, bool) {
	if name == ClockTopic {
		return "gz.msgs.Clock", true
	}
	for _, k := range []struct {
		prefix string
		types  map[string]string
	}{{"/model/", modelTopicTypes}, {"/world/", worldTopicTypes}} {
		if rest, ok := strings.CutPrefix(name, k.prefix); ok {
			owner, suffix, _ := strings.Cut(rest, "/")
			if typ, known := k.types[suffix]; known && owner != "" {
				return typ, true
			}
			return "", false
		}
	}
	return "", false
}

// The types of a model's and a world's topics by the part of the name after the model or world.
var (
	modelTopicTypes = map[string]string{
		"cmd_vel": "gz.msgs.Twist", "cmd_drive": "gz.msgs.Param", "command": "gz.msgs.Param", "pose": "gz.msgs.Pose",
		"micom": "gz.msgs.Micom", "wheels": "gz.msgs.Pose_V",
	}
	worldTopicTypes = map[string]string{
		"pose/info": "gz.msgs.Pose_V", "stats": "gz.msgs.WorldStatistics", "reset": "gz.msgs.Int64",
	}
)
