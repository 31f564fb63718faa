package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// stopSignals are the signals that end a run cleanly: SIGTERM, SIGINT (Ctrl-C) and SIGHUP
// (the terminal or ssh session that started simgui went away), each unless simgui was started
// with it ignored. Go's signal.Notify would un-ignore it, so that a simgui started in the
// background of a script (whose jobs ignore SIGINT) ended on the Ctrl-C that ends the script,
// under a training process that ignored it and lived on, and one started under nohup would
// end at logout. Without SIGHUP here, a hangup killed simgui at once: its recordings lacked
// their MCAP footer and its fast-path socket stayed behind.
func stopSignals() []os.Signal {
	sigs := []os.Signal{syscall.SIGTERM}
	for _, s := range []os.Signal{os.Interrupt, syscall.SIGHUP} {
		if !signal.Ignored(s) {
			sigs = append(sigs, s)
		}
	}
	return sigs
}

// stopSignal is the cause of a context that a stop signal cancelled.
type stopSignal struct{ sig os.Signal }

func (s stopSignal) Error() string { return signalName(s.sig) + " received" }

// repeatWindow is how soon after the first stop signal another one counts as the same stop
// rather than a second one. One stop often arrives twice at once: timeout(1) signals its
// command and then its own process group, which holds the command; a CI runner or a parent
// that forwards Ctrl-C to a child in the terminal's process group does the same. Taken as a
// second signal, it made simgui exit at once, intermittently, without its summary (stdout
// empty) and with its recordings lacking their footer. A user pressing Ctrl-C again because
// the first seems to do nothing does so later than this.
var repeatWindow = 500 * time.Millisecond

// notifyStop is signal.NotifyContext for stopSignals, with the signal kept as the context's
// cause (context.Cause) so that the run can tell a signal from its own end. A second stop
// signal while the run is ending (after repeatWindow) exits at once, with the signal's status: a user whose
// Ctrl-C seems to do nothing (an ending held up by a stuck client or a slow disk) presses it
// again, and had to kill simgui from another terminal.
func notifyStop(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, stopSignals()...)
	stopped := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			cancel(stopSignal{s})
		case <-ctx.Done():
			return
		}
		first := time.Now()
		for {
			select {
			case s := <-ch:
				if time.Since(first) < repeatWindow {
					continue // the same stop, delivered twice (timeout(1), a process group's kill)
				}
				fmt.Fprintf(os.Stderr, "simgui: %s again: exiting at once, without finishing (recordings may lack their footer)\n", signalName(s))
				os.Exit(signalStatus(s))
			case <-stopped:
				return
			}
		}
	}()
	var once sync.Once
	return ctx, func() {
		signal.Stop(ch)
		once.Do(func() { close(stopped) })
		cancel(nil)
	}
}

// interruptedRun is the error of a run to --steps or --duration that a signal stopped short.
// Its summary is still printed, but a script or CI job must not take the shortened run (its
// state hash, its dump) for a finished one: it exited 0, as a finished run does. simgui exits
// with the status a shell gives a command killed by the signal, 128+n (130 for SIGINT, 143
// for SIGTERM, 129 for SIGHUP). A run without an end, which a signal is the way to stop,
// still exits 0.
type interruptedRun struct {
	sig       os.Signal
	steps, of uint64
}

func (e *interruptedRun) Error() string {
	return fmt.Sprintf("%s stopped the run after %d of its %d steps (the summary is of the shortened run)", signalName(e.sig), e.steps, e.of)
}

// ExitCode is the process's exit status for this error (main uses it).
func (e *interruptedRun) ExitCode() int { return signalStatus(e.sig) }

// signalStatus is the exit status a shell gives a command killed by s: 128+n.
func signalStatus(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 1
}

func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return s.String()
}
