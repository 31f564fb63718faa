package drive

// latency delays commands by a fixed time, as a real robot's radio and control loop do.
// Commands are kept in a ring with their age; the newest one at least `delay` old is applied.
type latency struct {
	wait  float64
	queue []timed
	now   float64
	last  Command
}

type timed struct {
	at  float64
	cmd Command
}

func newLatency(seconds float64) *latency {
	if seconds <= 0 {
		return nil
	}
	return &latency{wait: seconds}
}

func (l *latency) reset() {
	l.queue, l.now, l.last = l.queue[:0], 0, Command{}
}

// delay records cmd at the current time and returns the command that is due, one the
// latency keeps.
func (l *latency) delay(cmd *Command, dt float64) *Command {
	l.queue = append(l.queue, timed{at: l.now, cmd: *cmd})
	l.now += dt
	i := 0
	for i < len(l.queue) && l.now-l.queue[i].at >= l.wait-1e-12 {
		l.last = l.queue[i].cmd
		i++
	}
	l.queue = append(l.queue[:0], l.queue[i:]...)
	return &l.last
}
