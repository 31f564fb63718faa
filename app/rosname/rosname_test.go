package rosname

import "testing"

func TestOf(t *testing.T) {
	for in, want := range map[string]string{
		"ego": "ego", "agent-2": "agent_2", "lidar.top": "lidar_top", "3bot": "_3bot", "": "_", "ü-1": "__1", "a b": "a_b",
	} {
		if got := Of(in); got != want {
			t.Errorf("Of(%q) = %q, want %q", in, got, want)
		}
	}
}
