package main

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"simgui/app/sensors"
)

// runSummary is the --json output.
type runSummary struct {
	Scenario string `json:"scenario"`
	// ScenarioID, DisplayName, Version and Description are the scenario's own; LoggingTag its
	// logging tag when logging is on.
	ScenarioID     string               `json:"scenarioId,omitempty"`
	DisplayName    string               `json:"displayName,omitempty"`
	Version        int                  `json:"version,omitempty"`
	Description    string               `json:"description,omitempty"`
	LoggingTag     string               `json:"loggingTag,omitempty"`
	Seed           int64                `json:"seed"`
	Steps          uint64               `json:"steps"`
	SimTime        float64              `json:"simTime"`
	WallTime       float64              `json:"wallTime"`
	RealTimeFactor float64              `json:"realTimeFactor"`
	Models         []modelSummary       `json:"models"`
	StateHash      string               `json:"stateHash"`
	JPEGEncoder    string               `json:"jpegEncoder"`
	SensorDump     *sensors.DumpSummary `json:"sensorDump,omitempty"`
	Recording      *recordingSummary    `json:"recording,omitempty"`
	// Sensors counts each sensor's readings and those dropped because its frames took longer
	// to draw than its rate allows.
	Sensors []sensorSummary `json:"sensors"`
}

type sensorSummary struct {
	Model    string  `json:"model"`
	Sensor   string  `json:"sensor"`
	Kind     string  `json:"kind"`
	Topic    string  `json:"topic"`
	RateHz   float64 `json:"rateHz"`
	Readings uint64  `json:"readings"`
	Dropped  uint64  `json:"dropped"`
}

type modelSummary struct {
	Name      string      `json:"name"`
	VehicleID string      `json:"vehicleId"`
	Pose      poseSummary `json:"pose"`
	Speed     float64     `json:"speed"`
}

type poseSummary struct {
	X   float64 `json:"x"`
	Y   float64 `json:"y"`
	Z   float64 `json:"z"`
	Yaw float64 `json:"yaw"`
}

// droppedLine names the sensors that dropped readings, the most first, or is "" when none did.
func droppedLine(ss []sensorSummary) string {
	var drops []sensorSummary
	var total uint64
	for _, s := range ss {
		if s.Dropped > 0 {
			drops = append(drops, s)
			total += s.Dropped
		}
	}
	if len(drops) == 0 {
		return ""
	}
	slices.SortStableFunc(drops, func(a, b sensorSummary) int { return cmp.Compare(b.Dropped, a.Dropped) })
	var b strings.Builder
	fmt.Fprintf(&b, "%d sensor readings dropped (their frames took longer to draw than their rates allow; --json counts every sensor's):", total)
	for i, s := range drops {
		if i == 3 {
			more := len(drops) - i
			fmt.Fprintf(&b, " and %d more sensor%s", more, map[bool]string{true: "s"}[more > 1])
			break
		}
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %s %d of %d", s.Topic, s.Dropped, s.Dropped+s.Readings)
	}
	return b.String()
}
