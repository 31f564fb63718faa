// Package scalar holds the sensor kinds whose readings are a few numbers, published as
// gz.msgs.Float_V on /model/<model>/sensor/<id>/scalar with the contract's shape flattened.
// The contract's noise is added to every value (one Gaussian draw per value per reading)
// unless a kind says otherwise.
//
//	kind          values (unit)
//	speedometer   forward speed (m/s, signed: negative when reversing)
//	odometry      left and right wheel distance since the model appeared (m, signed)
//	ultrasonic    range to the nearest echo in a narrow cone (m); rangeMax when no echo
//	line_tracker  count probe values 1 − d/0.12 clamped to [0, 1], d the distance (m) from a
//	              probe to the nearest route or road centreline
//	powertrain    battery voltage (V), battery current (A), motor power (W), estimated
//	altimeter     altitude of the mount above the ground plane (m)
//
// # Details
//
// Speedometer: the body's velocity along its heading. Odometry: integrated every step from
// the body's motion, left = s − θ·b/2 and right = s + θ·b/2 for a forward distance s and turn θ
// over a step, b the track width (body width, or diameter of a round body); a jump of more
// than TeleportDistance in one step (a reset of the pose) is not counted.
//
// Ultrasonic (plugins.SensorParams("ultrasonic"): rangeMin, rangeMax, coneDeg): UltrasonicRays
// horizontal rays spread evenly over the cone (one ray when coneDeg is 0) from the mount at its
// altitude; the reading is the nearest hit, clamped to [rangeMin, rangeMax], or rangeMax (3.5 m
// for the KS0223, as rusim) when nothing echoes. Noise is drawn every reading and added to
// echoes only.
//
// Line tracker (count, ahead, span): probes on a row ahead metres in front of the mount,
// spread evenly over ±span across it, listed left to right; centrelines are the layout's route
// (closed when it loops) and the centre polylines of its road elements. With no centreline
// every probe reads 0.
//
// Powertrain: an estimate from the body's motion for a small 2S battery car (constants below):
// mechanical power P = max(0, m·a·v) + Crr·m·g·|v| + Cturn·m·g·|ω|·b/2 (acceleration,
// rolling, and the scrub of a skid-steered turn), motor power Pm = P/Efficiency, current
// I = IdleCurrent + Pm/NominalVoltage, voltage V = OpenVoltage − InternalResistance·I.
// Values: V, I, Pm.
//
// Altimeter (no parameters): altitude of the body's base plus the mount's z.
package scalar
