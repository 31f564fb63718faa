// Package sensors runs the sensors of simgui's vehicles: it builds them from each vehicle's
// device contract and mounts, fires them on sim time, and delivers their readings as messages
// on the transport bus, to a dump directory and to callers on request.
//
// # Kinds
//
// Sensor implementations register by mount kind (plugins.SensorMount.Kind) with Register, one
// package per kind under app/sensors: camera, depth, lidar, imu and scalar (speedometer,
// odometry, ultrasonic, line_tracker, powertrain, altimeter). Import
// simgui/app/sensors/standard to link them all. A kind's parameters (names, units, defaults,
// ranges, the rules between them), the contract types it fills and its values per reading are
// declared once, in plugins' sensor kind table (plugins.LookupSensorKind); every mount is
// built from plugins.SensorSetup, the check plugin validation applies.
//
// # The system
//
// A System is a world system (World.AddSystem). At Init, at every reset and whenever the
// world's models change, it builds each model's sensors: one per contract sensor, in contract
// order, with the mount of the same ID, the contract's format, unit, shape, rate and noise.
// After each step (PostStep, after physics) it fires the sensors that are due, models in world
// order and sensors in contract order.
//
// # Timing
//
// A sensor of rate f fires on the first step at or after each boundary ceil(k·1e9/f) ns of sim
// time, k = 0, 1, 2, ... (see Schedule): no drift, whatever the step size. Schedules restart at
// reset. Readings are stamped
// with the sim time of the step they were taken after.
//
// # Topics
//
// Readings go to /model/<model>/sensor/<sensorId>/<kind> (Topic), stamped with sim time in
// the header and in the bus message: image (gz.msgs.Image RGB_INT8, rows top first; L_INT8
// for a one-channel camera), depth_image (gz.msgs.Image R_FLOAT32, metres, +Inf where nothing
// is hit), scan (gz.msgs.LaserScan), imu (gz.msgs.IMU), scalar (gz.msgs.Float_V). A reading
// is published only when the topic has subscribers (or a dump runs); the schedule and the
// random streams advance the same either way, so what a subscriber gets does not depend on
// when it subscribed.
//
// # Cameras
//
// Image sensors do not stall the step loop: when one fires, the loop goroutine captures what
// the frame needs (the static scene of the layout in the camera's look, built once per
// LayoutVersion and environment and shared; the poses and velocities of vehicles and pushable
// boxes; the marker mesh) and a per-sensor worker goroutine renders, adds noise and
// publishes, frames of one sensor in order (Pipeline). Frames are
// dropped, oldest first, when a worker falls behind by more than Options.QueueLen frames,
// unless the system is lossless (Options.Lossless, SetLossless while a recording runs, or
// while a dump runs). Frame renders a
// camera synchronously from the current world, in the contract's format (raw, png,
// jpeg_base64), for a training API; View captures the same scene, in the look of the model's
// first camera, for a renderer of your own (the window's chase view). SetPeerVisibility
// decides per observer whether other vehicles are drawn.
//
// # Ray sensors
//
// Lidar and ultrasonic rays are cast by simgui/app/sensors/raycast over the layout's static
// geometry (a grid built once per LayoutVersion) and the vehicles and pushable boxes of the
// step; the answers agree with physics.Space.RayCast, about 40 times faster for a 360-ray scan.
//
// # On request
//
// Latest returns a sensor's most recent reading; FireNow fires a sensor outside its schedule
// (tools and benchmarks; it advances the sensor's random stream).
//
// # Noise and determinism
//
// Each sensor draws its Gaussian noise (contract noise: mean, stddev, in the sensor's unit)
// from its own stream World.Rand("sensor/<model>/<id>"), which the world seeds from its seed
// and re-seeds at reset. Image sensors take one 64-bit seed per frame from that stream on the
// loop goroutine and the worker derives the frame's noise from it, so frames do not depend on
// worker scheduling: the same seed gives byte-identical frames.
//
// # Frames and units
//
// World frame x east, y north, z up, metres; mount poses in the vehicle frame x forward, y left,
// z up from the base of the body (docs/ARCHITECTURE.md). Bodies move in x, y and yaw: sensors
// see no roll or pitch of the vehicle.
//
// # Dumps
//
// StartDump writes camera and depth frames as PNG files and the other readings as JSON lines
// (see StartDump); `simgui run --headless --dump-sensors DIR` uses it.
//
// # Concurrency
//
// System methods run on the loop goroutine (they are world system hooks or called through
// Loop.Do), except where they say otherwise. Output and Pipeline are safe for concurrent use.
package sensors
