package api

import (
	"fmt"
	"testing"
)

// A world's label names its agents up to labelAgents and counts the rest: a shared world of
// 10,000 agents is labelled in a line, not in 69 KB.
func TestWorldLabelCountsAFleet(t *testing.T) {
	plan := func(n int, isolated bool) *episodePlan {
		ep := &episodePlan{isolated: isolated}
		var all []int
		for i := range n {
			ep.agents = append(ep.agents, agentPlan{id: fmt.Sprintf("agent-%d", i+1)})
			all = append(all, i)
		}
		if isolated {
			for i := range n {
				ep.owners = append(ep.owners, []int{i})
			}
		} else {
			ep.owners = [][]int{all}
		}
		return ep
	}
	for _, c := range []struct {
		ep   *episodePlan
		w    int
		want string
	}{
		{plan(1, false), 0, "episode 3 · agent-1"},
		{plan(8, false), 0, "episode 3 · agent-1, agent-2, agent-3, agent-4, agent-5, agent-6, agent-7, agent-8"},
		{plan(10000, false), 0, "episode 3 · agent-1, agent-2, agent-3, agent-4, agent-5, agent-6, agent-7, agent-8, and 9992 more"},
		{plan(256, true), 41, "episode 3 · agent-42 (isolated)"},
	} {
		if got := worldLabel("episode-3", c.ep, c.w); got != c.want {
			t.Errorf("%d agents, world %d: %q, want %q", len(c.ep.agents), c.w, got, c.want)
		}
	}
}
