package scenario

// MaxAgents is the most agents one world holds: a scenario's agents.count, and the agents of
// a training API reset into a shared world. rusim's fleet benchmarks go to 2,000 agents; at
// 10,000 a step of a shared world still takes tens of milliseconds.
const MaxAgents = 10000
