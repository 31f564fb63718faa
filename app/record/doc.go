// Package record writes every transport topic to an MCAP file that Foxglove Studio opens, and
// reads such files back.
//
// A [Recorder] subscribes to the bus with SubscribeAll and writes on its own goroutine: one MCAP
// channel per topic (message encoding "protobuf"), one schema per message type (encoding
// "protobuf", data = a FileDescriptorSet of the type's .proto file and all its imports, as
// Foxglove expects). Publish time is the message's sim-time stamp in nanoseconds, so a reset
// makes it start again from zero; log time follows it but never goes back: after a reset or a
// switch to another world it continues a nanosecond after the last one written. A reset is
// told by /clock going back, and the episode before it is written whole before the one after.
// The scenario's world and every training episode publish the same topics, so a metadata
// record "simgui.world" (id, kind, label and logTime) marks the log time from which each
// world's messages are in the file ([Recording.Worlds]).
//
// # Foxglove's views
//
// Foxglove's Image and 3D panels draw only its own types (and ROS's), so with
// Options.Foxglove (the record face's default) a camera frame, a lidar scan and the world's
// pose list are also written in Foxglove's types, on the topic with [foxview.ViewSuffix]: a JPEG
// foxglove.CompressedImage (a depth frame: a foxglove.RawImage of 16-bit millimetres), a
// foxglove.LaserScan in the [foxview.WorldFrame] at the sensor's pose, and
// foxglove.FrameTransforms with a frame per model under it and, given World.Snapshot, a frame
// per camera under its robot's (package foxglove holds the messages). Given World.Snapshot, a
// camera or depth frame has its camera's foxglove.CameraCalibration beside it too
// ([foxview.CalibrationTopic]). A view has its message's sequence and times. Where a world's messages begin, its
// scene (World.Scene, a foxglove.SceneUpdate on [foxview.SceneTopic]: the track, and each robot's shape
// and each pushable box locked to its frame) replaces the last one.
//
// The file is chunked (zstd by default, Options.ChunkSize uncompressed bytes per chunk, CRCs on)
// and written straight to its final name: if the process dies, every chunk written so far is
// readable ([ReadFile] stops at the first incomplete chunk), and at most one chunk's worth of
// messages is lost. Stop writes the summary section (statistics, chunk index) and the footer.
//
// # Camera frames
//
// While the record face records a world, that world's cameras keep every frame they take
// (sensors.System.SetLossless), as during a --dump-sensors run: a world stepped faster than
// its cameras draw (lockstep, a step batch, time scale 0, a training episode) waits for them
// instead of dropping frames, and stopping the recording first waits for the frames already
// taken. A 400-step batch of the default scenario is recorded with all 31 of its camera's
// frames, not 1. A real-time world whose cameras cannot keep up runs behind real time while
// it is recorded: 100 KS0223s with their cameras ran at 0.06× on two cores (their frames,
// 84 MB/s, then outrun the writer too; record fleets with sensors.camera.enabled: false).
//
// # A writer behind
//
// The world the record face records also waits for the writer: at each step, while a
// recording's queue is half full ([Recorder.Behind]), the step waits ([Recorder.WaitWriter]),
// so that a world faster than the writer (a run to --steps as fast as possible: 60 s of the
// default scenario, its JPEG views encoded on the writer, lost a fifth of its messages) is
// recorded whole, at the writer's pace. A real-time world that the writer keeps up with never
// waits.
//
// The recorder itself never blocks publishers: the other publishers on the bus (clients, a
// camera's worker between two steps) fill its subscription queue (Options.QueueLen) up to the
// end, where the oldest message is dropped, and Stats reports how many were dropped. The
// first drop is logged as a warning, and the record face logs the count at the end. The file
// says so too: a message's MCAP sequence is its topic's publish count since the recording
// began (continuing across worlds), so dropped ones are gaps in their channel's sequence, and
// Stop writes a metadata record "simgui.recording" with the totals (messages, dropped, cut).
//
// # Concurrency
//
// Stats and Stop may be called from any goroutine; Stop is idempotent.
package record
