// Package camera is the "camera" sensor kind: an RGB (or grey) image of what a camera mounted
// on the vehicle sees, drawn by simgui/render without a GPU.
//
// # Contract and mount
//
// The contract entry gives the frame: shape [H, W, C] (C = 3 for RGB, 1 for grey; [H, W] means
// RGB), format raw, png, jpeg or jpeg_base64 (the format of frames rendered on request,
// sensors.System.Frame; the topic always carries raw pixels), rateHz, and noise in 0..255
// intensity units added to each channel of each pixel. The mount places the camera (pose in
// the vehicle frame, looking along its x axis, pitchDeg > 0 looking down) with parameters
// fovDeg (vertical field of view, degrees), near and far (clip distances, metres) and
// jpegQuality, with their defaults and ranges in plugins' sensor kind table
// (plugins.SensorParams("camera")).
//
// # Output
//
// On /model/<model>/sensor/<id>/image: gz.msgs.Image, RGB_INT8 (L_INT8 for C = 1), rows top
// first, step = W·C bytes, stamped with the sim time of the step the camera fired after. The
// frame is rendered on the sensor's worker goroutine from what the loop goroutine captured at
// that step (sensors.Pipeline), and only when the topic has subscribers or a dump runs.
package camera
