package window

import (
	"strings"
	"testing"

	"simgui/app/scenario"
)

// A saved world leaves out what says nothing: a step size and action period of 0 (the
// defaults) are not written, set ones are, and the file reads back the same.
func TestSavedScenarioLeavesOutDefaults(t *testing.T) {
	sc := scenario.Default()
	sc.Runtime.StepSize, sc.Runtime.ActionPeriod = 0, 0
	b, err := marshalScenario(sc)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(b); strings.Contains(s, "stepSize") || strings.Contains(s, "actionPeriod") {
		t.Errorf("defaults written:\n%s", s)
	}
	sc.Runtime.StepSize, sc.Runtime.ActionPeriod = 0.01, 0.1
	if b, err = marshalScenario(sc); err != nil {
		t.Fatal(err)
	}
	back, err := scenario.Parse(b, "saved.yaml")
	if err != nil || back.Runtime.StepSize != 0.01 || back.Runtime.ActionPeriod != 0.1 {
		t.Errorf("read back %+v (%v) from:\n%s", back.Runtime, err, b)
	}
}
