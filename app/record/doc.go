// Package record writes every transport topic to an MCAP file that Foxglove Studio opens, and
// reads such files back.
//
// A [Recorder] subscribes to the bus with SubscribeAll and writes on its own goroutine: one MCAP
// channel per topic (message encoding "protobuf"), one schema per message type (encoding
// "protobuf", data = a FileDescriptorSet of the type's .proto file and all its imports, as
// Foxglove expects). Publish time is the message's sim-time stamp in nanoseconds, so a reset
// makes it start again from zero; log time follows it but never goes back: after a reset or a
// switch to another world it continues from the last one written. A reset is told by /clock
// going back, and the episode before it is written whole before the one after.
//
// The file is chunked (zstd by default, Options.ChunkSize uncompressed bytes per chunk, CRCs on)
// and written straight to its final name: if the process dies, every chunk written so far is
// readable ([ReadFile] stops at the first incomplete chunk), and at most one chunk's worth of
// messages is lost. Stop writes the summary section (statistics, chunk index) and the footer.
//
// # Slow disks
//
// The recorder never blocks publishers: its subscription queue (Options.QueueLen) drops the
// oldest message when the writer falls behind, and Stats reports how many were dropped. The
// first drop is logged as a warning, and the record face logs the count at the end.
//
// # Concurrency
//
// Stats and Stop may be called from any goroutine; Stop is idempotent.
package record
