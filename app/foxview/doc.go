// Package foxview makes Foxglove's views of a world: its bus messages in Foxglove's own types
// (a camera frame as a JPEG foxglove.CompressedImage, a depth frame as a foxglove.RawImage, a
// lidar scan as a foxglove.LaserScan, the world's pose list as foxglove.FrameTransforms with
// each camera's frame under its robot's, a camera's calibration as foxglove.CameraCalibration) and
// its scene (a foxglove.SceneUpdate of the track and the robots), which Foxglove's Image and
// 3D panels draw where they draw no gz.msgs. A recording writes the views beside the messages
// (app/record), and the live viewer (app/foxglovews) serves them.
//
// A view goes on its message's topic with ViewSuffix appended, and is placed in WorldFrame or
// a robot's frame (RobotFrame) under it.
package foxview
