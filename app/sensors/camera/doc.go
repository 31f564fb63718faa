// Package camera is the "camera" sensor kind: an RGB (or grey) image of what a camera mounted
// on the vehicle sees, drawn by simgui/render without a GPU.
//
// # Contract and mount
//
// The contract entry gives the frame: shape [H, W, C] (C = 3 for RGB, 1 for grey; [H, W] means
// RGB), format raw, png, jpeg or jpeg_base64 (the format of frames rendered on request,
// sensors.System.Frame; the topic always carries raw pixels), rateHz, and noise in 0..255
// intensity units added to each channel of each pixel after encoding. The mount places the
// camera (pose in the vehicle frame, looking along its x axis, pitchDeg > 0 looking down) with
// the parameters of plugins.SensorParams("camera"), each with its unit, default and range:
//
//   - fovDeg (vertical field of view), near and far (clip distances, metres), jpegQuality;
//   - the lens, in OpenCV's pixel convention for the contract's frame size: fx, fy, cx, cy
//     (0: from fovDeg and the image centre), fxScale, fyScale, cxShift, cyShift (jitter that
//     holds at any frame size), lensModel (0 plumb_bob, 1 equidistant) and k1..k4, p1, p2;
//   - the film, in linear light: exposure, wbR, wbG, wbB (white balance), vignette,
//     readNoise and shotNoise (standard deviations in linear 0..255 units, shot noise at
//     full scale), shutterS (motion blur from the body's motion during the exposure), gamma
//     (0: sRGB);
//   - the look the camera sees the scene in: realistic (1: materials, sun, shadows and film;
//     0: the flat look), sunAzimuthDeg, sunElevationDeg, sunIntensity, sunR, sunG, sunB,
//     ambient, shadows, contactShadow, and the scene's randomization lookSeed, textureSwap,
//     colorJitter, distractors.
//
// render.MountCamera turns them into the render.Camera (lens and film) and the
// render.Environment of the look; the sensors system keeps one Static of the layout per
// environment, so cameras with the same look share it. Domain randomization draws them per
// reset and per agent (app/scenario: sensors.camera_*, sensors.distortion_*, sensors.exposure,
// ..., visual.*).
//
// # Output
//
// On /model/<model>/sensor/<id>/image: gz.msgs.Image, RGB_INT8 (L_INT8 for C = 1), rows top
// first, step = W·C bytes, stamped with the sim time of the step the camera fired after. The
// frame is rendered on the sensor's worker goroutine from what the loop goroutine captured at
// that step (sensors.Pipeline), and only when the topic has subscribers or a dump runs. Each
// frame's noise (film and contract) is seeded from the sensor's random stream, so the same
// world seed gives the same bytes.
package camera
