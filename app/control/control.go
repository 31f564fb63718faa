package control

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"simgui/app/rosname"
	"simgui/app/world"
	"simgui/physics/drive"
)

// Answers and limits of CLOiSim's SimulationControlService.
const (
	resultOK   = "ok"   // SimulationService.SUCCESS
	resultFail = "fail" // SimulationService.FAIL
	resultTrue = "True" // C#'s true.ToString(), start_record and stop_record

	maxFilterLength   = 256
	maxFilenameLength = 512
	// MaxSteps is the most steps one step command may ask for.
	MaxSteps = world.MaxStepRequest
)

// request holds the fields of a /control request. The fields of simgui's own commands are kept
// raw so that a wrong type is reported by their command, as CLOiSim reports teleport's;
// teleport decodes its fields from the whole request.
type request struct {
	Command     string          `json:"command"`
	Indent      bool            `json:"indent"`
	Filter      string          `json:"filter"`
	Filename    string          `json:"filename"`
	TargetModel string          `json:"target_model"`
	Steps       json.RawMessage `json:"steps"`
	Scale       json.RawMessage `json:"scale"`
}

// response is CLOiSim's answer: sim_version first, then command and result.
type response struct {
	SimVersion string `json:"sim_version"`
	Command    string `json:"command"`
	Result     any    `json:"result"`
}

// commandFunc answers one /control command. raw is the whole request (quotes fixed), for
// commands with fields of their own. The result is marshalled as the answer's "result".
type commandFunc func(s *Service, ctx context.Context, req *request, raw []byte) any

var commands = map[string]commandFunc{}

// registerCommand adds a /control command; it panics on a duplicate name.
func registerCommand(name string, fn commandFunc) {
	if _, dup := commands[name]; dup {
		panic("control: duplicate command " + name)
	}
	commands[name] = fn
}

// control answers one /control request.
func (s *Service) control(ctx context.Context, data []byte) []byte {
	data = fixQuotes(data)
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return s.controlError("request body is empty")
	}
	var req request
	if err := json.Unmarshal(data, &req); err != nil {
		return s.controlError("invalid json: " + err.Error())
	}
	empty := strings.TrimSpace(req.Command) == ""
	fn, ok := commands[req.Command]
	if !ok && len(req.Command) > maxEchoedCommand { // echoed in the answer: a long one cut short
		req.Command = strings.ToValidUTF8(req.Command[:maxEchoedCommand], "") + "…"
	}
	if empty {
		return s.reply(&req, "command is empty")
	}
	if !ok {
		return s.reply(&req, fmt.Sprintf("unsupported command '%s'", req.Command))
	}
	return s.reply(&req, fn(s, ctx, &req, data))
}

// maxEchoedCommand bounds an unknown command's name as the answer repeats it; every known one
// is far shorter.
const maxEchoedCommand = 64

// controlError answers a request that could not be read: no command, no indent.
func (s *Service) controlError(msg string) []byte { return s.reply(nil, msg) }

func (s *Service) reply(req *request, result any) []byte {
	r := response{SimVersion: s.opts.SimVersion, Result: result}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if req != nil {
		r.Command = req.Command
		if req.Indent {
			enc.SetIndent("", "  ")
		}
	}
	if err := enc.Encode(r); err != nil {
		s.log.Error("control: encoding an answer", "command", r.Command, "err", err)
		return s.controlError("internal error: " + err.Error())
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// errNoWorld answers world commands of a service without a loop.
const errNoWorld = "world is unavailable"

// withLoop runs fn holding one of the service's loop slots, so that however many sessions send
// world commands, at most loopSlots of them wait in the loop's queue.
//
// A command whose client leaves stops waiting for its answer, but it stays in the loop's queue
// until the loop gets to it, and a loop running a step batch gets to none: its slot is held
// until then. Released at once, a client that sent a command and hung up, again and again,
// queued commands without bound (833 get_model_info of a 1 MB name held 1.3 GB in 30 s).
func (s *Service) withLoop(ctx context.Context, fn func(l *world.Loop) any) any {
	loop, _ := s.world()
	if loop == nil {
		return errNoWorld
	}
	select {
	case s.slots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err().Error()
	}
	if err := ctx.Err(); err != nil { // the select may take the slot from a client already gone
		<-s.slots
		return err.Error()
	}
	res := fn(loop)
	if ctx.Err() == nil || !s.track() {
		<-s.slots
		return res
	}
	go func() {
		defer s.wg.Done()
		defer func() { <-s.slots }()
		// The loop runs its queue in order: once this has run, so has the command. Shutdown
		// (s.ctx) and a stopped loop end the wait too.
		_ = loop.Call(s.ctx, func(*world.World) error { return nil })
	}()
	return res
}

func filterOK(f string) bool { return utf8.RuneCountInString(f) <= maxFilterLength }

const filterTooLong = "filter is too long (max 256 characters)"

func init() {
	registerCommand("device_list", func(s *Service, _ context.Context, req *request, _ []byte) any {
		if !filterOK(req.Filter) {
			return filterTooLong
		}
		d := s.devices()
		if d == nil {
			return map[string]any{}
		}
		return d.DeviceList(req.Filter)
	})
	registerCommand("port_list", func(s *Service, _ context.Context, req *request, _ []byte) any {
		if !filterOK(req.Filter) {
			return filterTooLong
		}
		d := s.devices()
		if d == nil {
			return map[string]uint16{}
		}
		return d.PortList(req.Filter)
	})
	registerCommand("fps", cmdFPS)
	registerCommand("reset", cmdReset)
	registerCommand("start_record", cmdStartRecord)
	registerCommand("stop_record", cmdStopRecord)
	registerCommand("get_model_info", cmdModelInfo)
	registerCommand("teleport", cmdTeleport)
	registerCommand("pause", func(s *Service, ctx context.Context, _ *request, _ []byte) any {
		return s.withLoop(ctx, func(l *world.Loop) any { return okOr(l.Pause()) })
	})
	registerCommand("resume", func(s *Service, ctx context.Context, _ *request, _ []byte) any {
		return s.withLoop(ctx, func(l *world.Loop) any { return okOr(l.Resume()) })
	})
	registerCommand("step", cmdStep)
	registerCommand("set_time_scale", cmdSetTimeScale)
}

func okOr(err error) any {
	if err != nil {
		return err.Error()
	}
	return resultOK
}

// cmdFPS answers the achieved simulation rate in steps per wall-clock second (sim time per wall
// time over the last half second or so, divided by the step size), as a number in a string like
// CLOiSim's rendering FPS; "0" while paused, before the first measurement, and when no step
// has come for a second.
func cmdFPS(s *Service, _ context.Context, _ *request, _ []byte) any {
	loop, _ := s.world()
	if loop == nil {
		return "fps service is unavailable"
	}
	snap := loop.Snapshot()
	rate := 0.0
	if snap.StepSize > 0 {
		rate = snap.StepRateFactor(time.Now()) / snap.StepSize
	}
	return strconv.FormatFloat(math.Round(rate*100)/100, 'f', -1, 64)
}

// cmdReset resets the world (same seed) and answers at once: "ok", or "fail" while another
// reset is running. With clients on the device bridge's world Control port
// (ResetAnnouncer), it asks them first, as CLOiSim does, and resets the world after their
// answers: the reset runs on after the answer, and a reset asked for meanwhile fails. Without
// them the world is reset before the answer, so that a command sent after it sees the reset
// world.
func cmdReset(s *Service, ctx context.Context, _ *request, _ []byte) any {
	if !s.resetting.CompareAndSwap(false, true) {
		return resultFail
	}
	ann, _ := s.devices().(ResetAnnouncer)
	if ann == nil || ann.ControlClients() == 0 {
		defer s.resetting.Store(false)
		return s.resetWorld(ctx)
	}
	if l, _ := s.world(); l == nil {
		s.resetting.Store(false)
		return errNoWorld
	}
	if !s.track() {
		s.resetting.Store(false)
		return resultFail
	}
	go func() {
		defer s.wg.Done()
		defer s.resetting.Store(false)
		defer func() {
			if p := recover(); p != nil {
				s.log.Error("control: reset panicked", "panic", p)
			}
		}()
		wc := ann.AnnounceReset()
		if res := s.resetWorld(s.ctx); res != resultOK {
			ann.ResetFailed()
			s.log.Warn("control: reset after the world Control answers failed", "world_control", wc, "result", res)
		}
	}()
	return resultOK
}

// resetWorld resets the world with its seed.
func (s *Service) resetWorld(ctx context.Context) any {
	return s.withLoop(ctx, func(l *world.Loop) any {
		if err := l.Reset(ctx, l.Snapshot().Seed); err != nil {
			if ctx.Err() != nil {
				// The client left (or the service stops) before the loop's turn: the reset is
				// dropped as a step is, and nothing failed. A client that sent reset and hung
				// up during a long step once logged an ERROR each time.
				s.log.Debug("control: reset dropped", "err", err)
				return resultFail
			}
			s.log.Error("control: reset", "err", err)
			return resultFail
		}
		return resultOK
	})
}

// ResetAnnouncer is implemented by Devices that announce world resets to their clients, as
// the bridge's world Control channel does (CLOiSim's reset_simulation request).
type ResetAnnouncer interface {
	// ControlClients returns how many clients would be asked.
	ControlClients() int
	// AnnounceReset asks the clients before a reset and returns their answers; the reset
	// that follows is not announced again.
	AnnounceReset() string
	// ResetFailed withdraws an announcement whose reset did not happen.
	ResetFailed()
}

// stepResult is the answer to step.
type stepResult struct {
	// Steps is how many steps ran; Iterations the world's step count after them.
	Steps      int    `json:"steps"`
	Iterations uint64 `json:"iterations"`
	// SimTime is the sim time after the steps, in seconds.
	SimTime float64 `json:"sim_time"`
}

// cmdStep runs {steps: N} steps (default 1), also while paused or in lockstep, and answers once
// they have run.
func cmdStep(s *Service, ctx context.Context, req *request, _ []byte) any {
	n := 1
	if len(req.Steps) > 0 && string(req.Steps) != "null" {
		// A number as JSON writes it: 10.0 and 1e1 are the whole number 10.
		v, err := strconv.ParseFloat(string(req.Steps), 64)
		if err != nil || v != math.Trunc(v) || v < 1 || v > MaxSteps {
			return fmt.Sprintf("steps must be a whole number from 1 to %d", MaxSteps)
		}
		n = int(v)
	}
	return s.withLoop(ctx, func(l *world.Loop) any {
		// The steps that ran, which are fewer than asked when the run ends on the way
		// (--steps, --duration): counted from the step count right before them.
		var from uint64
		snap, err := l.StepAfter(ctx, func(w *world.World) { from = w.StepCount() }, n)
		if err != nil {
			return "step: " + err.Error()
		}
		return stepResult{Steps: int(snap.Step - from), Iterations: snap.Step, SimTime: snap.SimTime.Seconds()}
	})
}

// cmdSetTimeScale sets the loop's pace: {scale: x}, x as world.CheckTimeScale accepts it.
func cmdSetTimeScale(s *Service, ctx context.Context, req *request, _ []byte) any {
	x, err := strconv.ParseFloat(string(req.Scale), 64)
	if err == nil {
		err = world.CheckTimeScale(x)
	}
	if err != nil {
		return fmt.Sprintf("set_time_scale needs scale: 0 (as fast as possible) or a number from %g up to %.0f (1 is real time)",
			world.MinTimeScale, float64(world.MaxTimeScale))
	}
	return s.withLoop(ctx, func(l *world.Loop) any { return okOr(l.SetTimeScale(x)) })
}

// modelInfo is the answer to get_model_info.
type modelInfo struct {
	Name string `json:"name"`
	Pose struct {
		Position struct {
			X float64 `json:"x"`
			Y float64 `json:"y"`
			Z float64 `json:"z"`
		} `json:"position"`
		Orientation struct {
			Roll  float64 `json:"roll"`
			Pitch float64 `json:"pitch"`
			Yaw   float64 `json:"yaw"`
		} `json:"orientation"`
	} `json:"pose"`
}

// cmdModelInfo answers a model's pose in the world frame (metres, radians; roll and pitch are 0
// in simgui's planar world). It asks the loop rather than the snapshot so that a teleport just
// made is seen even in lockstep, before the next step publishes a snapshot.
func cmdModelInfo(s *Service, ctx context.Context, req *request, _ []byte) any {
	if req.TargetModel == "" {
		return "target_model is empty"
	}
	return s.withLoop(ctx, func(l *world.Loop) any {
		var p world.Pose
		err := l.Call(ctx, func(w *world.World) error {
			name, ok := modelNamed(w, req.TargetModel)
			if !ok {
				return errUnknownModel
			}
			var err error
			p, err = w.Pose(name)
			return err
		})
		if err != nil {
			return fmt.Sprintf("model '%s' not found", req.TargetModel)
		}
		var info modelInfo
		info.Name = req.TargetModel
		info.Pose.Position.X, info.Pose.Position.Y, info.Pose.Position.Z = p.X, p.Y, p.Z
		info.Pose.Orientation.Yaw = p.Yaw
		return info
	})
}

type teleportRequest struct {
	WorldReset bool `json:"world_reset"`
	Targets    []struct {
		Target string `json:"target"`
		Pose   *struct {
			X     float64 `json:"x"`
			Y     float64 `json:"y"`
			Z     float64 `json:"z"`
			Roll  float64 `json:"roll"`
			Pitch float64 `json:"pitch"`
			Yaw   float64 `json:"yaw"`
		} `json:"pose"`
		Reset bool `json:"reset"`
	} `json:"targets"`
}

var errUnknownModel = errors.New("unknown model")

// modelNamed returns the name of the model of w that name names: its own name, or the ROS 2
// name device_list lists its devices under ("agent_2" for rusim's "agent-2"). Loop goroutine.
func modelNamed(w *world.World, name string) (string, bool) {
	if w.Model(name) != nil {
		return name, true
	}
	for _, m := range w.Models() {
		if rosname.Of(m.Name) == name {
			return m.Name, true
		}
	}
	return "", false
}

// cmdTeleport places models: {targets:[{target, pose:{x,y,z,roll,pitch,yaw}, reset}],
// world_reset}. With world_reset the world is reset first (CLOiSim resets after teleporting,
// which puts the models back); reset on a target clears its command and drive state. Roll and
// pitch are ignored; z is the altitude of flying vehicles. All targets must exist, else nothing
// moves.
func cmdTeleport(s *Service, ctx context.Context, _ *request, raw []byte) any {
	var tr teleportRequest
	if err := json.Unmarshal(raw, &tr); err != nil {
		return "invalid teleport request: " + err.Error()
	}
	if len(tr.Targets) == 0 {
		return "targets list is empty"
	}
	for _, t := range tr.Targets {
		if t.Target == "" {
			return "one or more target model names are empty"
		}
		if t.Pose == nil {
			return "one or more pose information is null"
		}
		p := t.Pose
		if err := world.CheckPose(world.Pose{X: p.X, Y: p.Y, Z: p.Z, Yaw: p.Yaw}); err != nil {
			return fmt.Sprintf("teleport %s: %v", t.Target, err)
		}
		if !(math.Abs(p.Roll) <= world.MaxYaw && math.Abs(p.Pitch) <= world.MaxYaw) {
			return fmt.Sprintf("teleport %s: roll and pitch must be numbers within ±%.0f rad", t.Target, float64(world.MaxYaw))
		}
	}
	return s.withLoop(ctx, func(l *world.Loop) any {
		if tr.WorldReset {
			if err := l.Reset(ctx, l.Snapshot().Seed); err != nil {
				return "teleport: world reset: " + err.Error()
			}
		}
		missing := ""
		err := l.Call(ctx, func(w *world.World) error {
			names := make([]string, len(tr.Targets))
			for i, t := range tr.Targets {
				name, ok := modelNamed(w, t.Target)
				if !ok {
					missing = t.Target
					return errUnknownModel
				}
				names[i] = name
			}
			for i, t := range tr.Targets {
				m := w.Model(names[i])
				if t.Reset {
					m.Drive.Reset()
					m.Command = drive.Command{}
				}
				if err := w.SetPose(names[i], world.Pose{X: t.Pose.X, Y: t.Pose.Y, Z: t.Pose.Z, Yaw: t.Pose.Yaw}); err != nil {
					return err
				}
			}
			return nil
		})
		switch {
		case errors.Is(err, errUnknownModel):
			return fmt.Sprintf("model '%s' not found", missing)
		case err != nil:
			return "teleport: " + err.Error()
		}
		return resultOK
	})
}
