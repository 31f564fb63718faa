// Package imu is the "imu" sensor kind: an accelerometer and gyroscope with an orientation
// estimate, at the mount point of a vehicle.
//
// # What it measures
//
// Linear acceleration is the specific force a real accelerometer reads: the acceleration of
// the mount point minus gravity, so +9.80665 m/s² on z at rest. The acceleration is the change
// of the mount point's world velocity between two readings divided by the time between them
// (0 at a model's first reading); the mount point's velocity includes the lever-arm term ω × r
// and the vertical speed of flying vehicles (from the altitude of the base, step to step).
// Angular velocity is the body's yaw rate. Both are expressed in the sensor frame (the
// vehicle frame turned by the mount's roll, pitch and yaw). Orientation is the sensor frame's
// rotation in the world frame as a quaternion. Bodies move in x, y and yaw only, so a vehicle
// never tilts: a drone's IMU reads no attitude change when it accelerates.
//
// # Contract
//
// Shape [6] (or none): values ax, ay, az (m/s²), wx, wy, wz (rad/s), each with the contract's
// noise added (one draw per value per reading). The orientation is not noisy.
//
// # Output
//
// On /model/<model>/sensor/<id>/imu: gz.msgs.IMU with entity_name "<model>/<id>",
// orientation, angular_velocity and linear_acceleration.
package imu
