// Package foxglove holds the protobuf messages of Foxglove's own schemas that simgui writes
// beside its gz.msgs topics (in recordings, to live viewers), so that Foxglove's Image and 3D
// panels draw them (they draw foxglove.* and ROS types, not gz.msgs): CompressedImage,
// RawImage, CameraCalibration, LaserScan, FrameTransforms and SceneUpdate, with the types they
// use.
//
// The .proto files under proto/foxglove carry Foxglove's message names and field numbers;
// the .pb.go files are generated and committed (`go generate` in this folder, with Debian's
// protoc and libprotobuf-dev; see ../../transport/msgs/generate.sh).
package foxglove
