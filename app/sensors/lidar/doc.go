// Package lidar is the "lidar" sensor kind: a 2D scanning range finder, a fan of horizontal
// rays cast in the world's physics geometry at the mount's altitude.
//
// # Contract and mount
//
// Mount parameters (plugins.SensorParams("lidar")): samples (rays per scan), angleMinDeg and
// angleMaxDeg (first and last ray, counter-clockwise from the mount's forward axis; rays are
// evenly spaced, (max − min)/(samples − 1) apart), rangeMin and rangeMax (metres). The mount's
// yaw turns the fan; its pitch and roll are ignored (the scan is horizontal). The contract's
// shape, if given, must be [samples]; its noise (metres) is added to every return.
//
// # Output
//
// On /model/<model>/sensor/<id>/scan: gz.msgs.LaserScan with count = samples, ranges
// counter-clockwise from angle_min (radians), the REP-117 convention for what is not a
// return: +Inf when nothing is hit within rangeMax, −Inf when something is nearer than
// rangeMin. Noisy returns are clamped to [rangeMin, rangeMax]. world_pose is the mount's pose;
// frame is "<model>/<id>". The ray queries run on simgui/app/sensors/raycast, which agrees
// with physics.Space.RayCast and is about two orders of magnitude faster; a ray sees shapes
// whose vertical extent contains the mount's altitude, and never the lidar's own vehicle.
package lidar
