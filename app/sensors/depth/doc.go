// Package depth is the "depth" sensor kind: a depth camera mounted on the vehicle, drawn by
// simgui/render without a GPU.
//
// # Contract and mount
//
// The contract entry gives the frame: shape [H, W] (or [H, W, 1]), format float32 (or raw:
// little-endian float32 metres) or png (16-bit grey, millimetres, 0 where nothing is hit) for
// frames rendered on request (sensors.System.Frame), rateHz, and noise in metres added to
// every finite depth (kept >= 0). The mount places the camera (pose in the vehicle frame,
// looking along its x axis, pitchDeg > 0 looking down) with parameters fovDeg (vertical field
// of view), near and far (metres), defaults from plugins.SensorParams("depth").
//
// # Output
//
// On /model/<model>/sensor/<id>/depth_image: gz.msgs.Image, R_FLOAT32, step = 4·W bytes, rows
// top first: planar depth in metres (distance along the optical axis), +Inf where nothing is
// hit within far. Rendered on the sensor's worker goroutine, only when wanted (see package
// camera). Dumps false-colour it from near (blue) to far (red).
package depth
