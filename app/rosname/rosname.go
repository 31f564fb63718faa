// Package rosname gives robots and their parts the names ROS 2 tools know them by. A ROS 2
// name holds letters, digits and '_' and does not begin with a digit; cloisim_ros names a
// robot's nodes after the model and its parts, so the device bridge serves rusim's agent
// "agent-2" as "agent_2" and a sensor "lidar.top" as "lidar_top". The control socket takes
// either name for a model, and two robots whose names are one ROS 2 name are refused.
package rosname

import "strings"

// Of returns s as a ROS 2 name: every other character becomes '_', and a leading digit gets a
// '_' in front ("" becomes "_").
func Of(s string) string {
	var b strings.Builder
	for i, c := range s {
		if i == 0 && c >= '0' && c <= '9' {
			b.WriteByte('_')
		}
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}
