package app

import (
	"errors"

	"simgui/app/markers"
	"simgui/app/sensors"
	_ "simgui/app/sensors/standard" // built-in sensor kinds register themselves
	"simgui/app/world"
)

// startSensors adds the sensors system to the world: every model's contract sensors fire on
// sim time after each step and publish on /model/<model>/sensor/<id>/<kind>. Cameras draw the
// other vehicles as the scenario says (agents.seeEachOther) and the markers of the control
// service (the world overlay markers.OverlayKey, read from the latest snapshot).
func (s *Sim) startSensors() error {
	sys := sensors.New(sensors.Options{
		Bus: s.Bus, Logger: s.log, HidePeers: !s.Plan.SeeEachOther,
		Markers: func() *markers.Set {
			if s.Loop == nil {
				return nil
			}
			set, _ := s.Loop.Snapshot().Overlays[markers.OverlayKey].(*markers.Set)
			return set
		},
	})
	if err := s.World.AddSystem(sys, world.SystemOptions{Name: "sensors"}); err != nil {
		return err
	}
	s.Sensors = sys
	return nil
}

// DumpSensors makes the sensors write every reading into dir from the next step on: camera
// and depth frames as PNG files, other readings as JSON lines (sensors.System.StartDump).
// Call it before Run.
func (s *Sim) DumpSensors(dir string) error {
	if s.Sensors == nil {
		return errors.New("sensor dump: the simulation has no sensors system")
	}
	return s.Sensors.StartDump(dir)
}

// SensorDumpFailed is closed when the sensor dump first fails to write
// (sensors.System.DumpFailed); nil when none runs.
func (s *Sim) SensorDumpFailed() <-chan struct{} {
	if s.Sensors == nil {
		return nil
	}
	return s.Sensors.DumpFailed()
}

// StopSensorDump waits for queued frames, closes the dump and says what it wrote. Call it
// after Run has returned.
func (s *Sim) StopSensorDump() (sensors.DumpSummary, error) {
	if s.Sensors == nil {
		return sensors.DumpSummary{}, nil
	}
	return s.Sensors.StopDump()
}

// DiscardSensorDump stops the sensor dump and removes what it wrote
// (sensors.System.DiscardDump): for a run that failed to start.
func (s *Sim) DiscardSensorDump() error {
	if s.Sensors == nil {
		return nil
	}
	return s.Sensors.DiscardDump()
}
