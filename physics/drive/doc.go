// Package drive holds the drive models that turn a vehicle's commands into body velocities,
// registered by name: "differential" (KS0223), "ackermann" (arcade and PROMETEO cars) and
// "quadcopter" (vehicle.drone.simple.v1). Each model's parameters — names, units, defaults,
// ranges — are declared once, in plugins' drive table (plugins.LookupDriveModel), which plugin
// validation checks descriptors against and New builds models from; an unknown parameter or
// one out of range is an error.
//
// A model runs on the step goroutine in phase 1 of every step: Update reads the body's current
// velocity (after last step's contacts), moves it toward what the command asks within the
// model's acceleration limits, and writes it back. Contacts in the following physics step then
// stop a vehicle at a wall or let it push a box.
package drive
