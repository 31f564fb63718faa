package bridge

import (
	"fmt"
	"math"

	"simgui/app/transport/msgs"
)

// MaxTwist bounds every component of a micom Rx Twist: linear in m/s, angular in rad/s. The
// drive models clamp to the vehicle's own top speed and yaw rate, far below; the bound only
// keeps absurd values (and NaN and ±Inf, which no clamp removes) away from the physics.
const MaxTwist = 1000

// checkTwist refuses a Twist with a component that is not a finite number within ±MaxTwist.
func checkTwist(tw *msgs.Twist) error {
	lin, ang := tw.GetLinear(), tw.GetAngular()
	for _, c := range [...]struct {
		name string
		v    float64
	}{
		{"linear.x", lin.GetX()}, {"linear.y", lin.GetY()}, {"linear.z", lin.GetZ()},
		{"angular.x", ang.GetX()}, {"angular.y", ang.GetY()}, {"angular.z", ang.GetZ()},
	} {
		if math.IsNaN(c.v) || math.Abs(c.v) > MaxTwist {
			return fmt.Errorf("twist %s = %g is not a number within ±%d", c.name, c.v, MaxTwist)
		}
	}
	return nil
}
