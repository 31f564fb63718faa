// Package msgs holds simgui's protobuf messages, in protobuf package gz.msgs so
// that their full names are the ones gz tools and scenario files use
// ("gz.msgs.Double", "gz.msgs.Twist", ...).
//
// Every message CLOiSim also has carries cloisim.msgs' proto3 field numbers
// (CLOiSim >= 5.1.1), so the bridge puts these messages on CLOiSim's wire
// unchanged: protobuf bytes depend only on field numbers and types, not on the
// package name. Messages CLOiSim lacks (Double, WorldControl, Clock, Marker, ...)
// carry gz-msgs' numbers. Each .proto file under proto/gz/msgs says where its
// numbers come from.
//
// The .pb.go files are generated and committed; `go generate` in this folder
// regenerates them (see generate.sh: Debian's protoc and protoc-gen-go built
// from the google.golang.org/protobuf version in go.mod).
//
// New makes an empty message from a full type name, for code that reads type
// names from text (scenario files, the timeline publisher).
package msgs
