package main

import (
	"fmt"
	"math"

	"simgui/app/world"
)

// checkFinite returns an error naming the first model whose pose or speed is not a finite
// number: a run that diverged must not end with exit status 0 and NaN in its summary.
func checkFinite(snap *world.Snapshot) error {
	for _, m := range snap.Models {
		for _, x := range []float64{m.Pose.X, m.Pose.Y, m.Pose.Z, m.Pose.Yaw, m.VX, m.VY, m.YawRate, m.Speed} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("the simulation diverged: model %s has pose x=%g y=%g z=%g yaw=%g and speed %g at step %d",
					m.Name, m.Pose.X, m.Pose.Y, m.Pose.Z, m.Pose.Yaw, m.Speed, snap.Step)
			}
		}
	}
	return nil
}
