package main

import "testing"

// The plain summary names the sensors that dropped readings, the most first, and says
// nothing when none did.
func TestDroppedLine(t *testing.T) {
	if got := droppedLine([]sensorSummary{{Topic: "/a", Readings: 30}}); got != "" {
		t.Fatalf("no drops: %q, want nothing", got)
	}
	ss := []sensorSummary{
		{Topic: "/a", Readings: 30, Dropped: 2},
		{Topic: "/b", Readings: 10},
		{Topic: "/c", Readings: 20, Dropped: 10},
		{Topic: "/d", Readings: 28, Dropped: 2},
		{Topic: "/e", Readings: 29, Dropped: 1},
	}
	want := "15 sensor readings dropped (their frames took longer to draw than their rates allow; --json counts every sensor's):" +
		" /c 10 of 30, /a 2 of 32, /d 2 of 30 and 1 more sensor"
	if got := droppedLine(ss); got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}
