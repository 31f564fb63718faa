package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"simgui/app/world"
	"simgui/plugins"
)

// Messages rusim's runtime answers, word for word.
const (
	msgNotInitialized = "Active vehicle is not initialized. Call ResetSimulation first."
	timeBase          = "unix_ms"
)

// requestParamPrefix names where a refused parameter came from in the request's own words:
// the scenario a reset builds holds trackParams as world.params and, for a reset without
// agents, vehicleParams as agents.vehicles[0].params. An agent's (merged with the global
// ones, and in a world of its own when isolated) keeps the scenario's name.
func requestParamPrefix(p string, agents bool) string {
	switch {
	case p == "world.params":
		return "trackParams"
	case !agents && strings.HasPrefix(p, "agents.vehicles[") && strings.HasSuffix(p, "].params"):
		return "vehicleParams"
	}
	return p
}

// paramRefusal is the 400 of a refused parameter, named in the request's words
// (requestParamPrefix) without the scenario's wrapping; ok is false for other errors.
func paramRefusal(err error, agents bool) (*Error, bool) {
	var pe plugins.ParamErrors
	var one *plugins.ParamError
	switch {
	case errors.As(err, &pe):
		for _, e := range pe {
			e.Prefix = requestParamPrefix(e.Prefix, agents)
		}
		return badRequest("%v", pe), true
	case errors.As(err, &one):
		one.Prefix = requestParamPrefix(one.Prefix, agents)
		return badRequest("%v", one), true
	}
	return nil, false
}

// Reset builds a new episode as req asks (track, vehicles, params, agents, flags, seed),
// replaces the current one and returns the primary agent's first observation with a frame.
// The draws of domain randomization are in the reply's info. Errors are *Error.
//
// When ctx ends (the client left) before the episode is in place, it is not built, or not put
// in place: nobody waits for it, and a reset that waited for its turn behind a larger one
// would replace the episode of a client that reset after it (a small reset plans faster than
// a large one sent before it, and builds first).
func (s *Service) Reset(ctx context.Context, req *ResetRequest) (*StepResult, error) {
	plan, err := s.planReset(req)
	if err != nil {
		return nil, err
	}
	if err := checkEpisode(plan); err != nil {
		return nil, err
	}
	s.building.Lock()
	defer s.building.Unlock()
	if ctx.Err() != nil {
		return nil, errResetLeft
	}
	ep, err := buildEpisode(s.opts.Host, s.episodes.Add(1), plan)
	if err != nil {
		var room *world.NoRoomError
		var overlap *world.SpawnOverlapError
		if e, ok := paramRefusal(err, len(req.Agents) > 0); ok {
			return nil, e
		}
		if errors.As(err, &room) || errors.As(err, &overlap) {
			return nil, badRequest("%v", err)
		}
		return nil, internalError("Building the episode failed: %v", err)
	}
	if err := ep.readAll(ep.primary); err != nil {
		ep.stop()
		return nil, internalError("Reading the first state failed: %v", err)
	}
	s.noteUnused(plan)
	if ctx.Err() != nil {
		ep.stop()
		return nil, errResetLeft
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		ep.stop()
		return nil, errShuttingDown
	}
	// Resets build one at a time (building): the episode in place is always an earlier one.
	old := s.current
	s.current = ep
	s.mu.Unlock()
	s.touch(ep)
	if old != nil {
		old.stop()
	}
	return s.result(ep, ep.primary, []*agent{ep.primary}, ep.drawInfo()), nil
}

// errShuttingDown answers work that comes too late: the runtime is stopping.
var errShuttingDown = internalError("The runtime is shutting down.")

// errResetLeft answers a reset whose client left before its episode was in place.
var errResetLeft = internalError("The client left before the reset was done; the episode in place was kept.")

// noteUnused logs what the episode's vehicles are given but leave unused (a camera's drawn
// film in the flat look that realistic=0 keeps, say), each line once for the server's life:
// a training run resets thousands of times.
func (s *Service) noteUnused(plan *episodePlan) {
	for _, w := range plan.worlds {
		for _, line := range w.Unused("set in the reset or its scenario", "from the vehicle's descriptor or a draw") {
			if s.loggedUnused.first(line) {
				s.log.Warn("training API: reset: " + line)
			}
		}
	}
}

// noteUnknownTarget logs, once for the server's life, that steps for agent id, which the
// episode does not have, drive agent to instead. rusim does the same without a word, and its
// clients rely on it (a step for "ego" drives the primary whatever it is called, at every
// reset); but a typo in a fleet's ids then moves the wrong robot, which the log should tell.
func (s *Service) noteUnknownTarget(id, to string) {
	if s.loggedTargets.first(id) {
		s.log.Warn("training API: a step's targetAgentId is no agent of the episode; it drives another, as rusim's does",
			"targetAgentId", clipMessage(id), "drives", to)
	}
}

// stepFields and actionFields are the JSON names a step and one of its actions take, read
// from StepRequest and StepAction so that a field added there is known here.
var (
	stepFields   = jsonNames(reflect.TypeFor[StepRequest]())
	actionFields = jsonNames(reflect.TypeFor[StepAction]())
)

// jsonNames returns the JSON names of struct type t's fields.
func jsonNames(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

// maxFieldName bounds an unknown field's name as logged and remembered: it is the client's.
const maxFieldName = 64

// noteStepFields logs, once per name for the server's life, a field of a step body (top level,
// or one of its actions) that the API does not know. rusim ignores unknown fields and so does
// the API; but a drone's {"vertical": 1} then climbs nothing, and the log should say where the
// climb goes. body has decoded into a StepRequest.
func (s *Service) noteStepFields(body []byte) {
	var top map[string]json.RawMessage
	if json.Unmarshal(body, &top) != nil {
		return
	}
	for name, raw := range top {
		if !knownField(stepFields, name) {
			s.noteUnknownField("a step", name)
			continue
		}
		if !strings.EqualFold(name, "actions") {
			continue
		}
		var actions []map[string]json.RawMessage
		if json.Unmarshal(raw, &actions) != nil {
			continue
		}
		for _, a := range actions {
			for name := range a {
				if !knownField(actionFields, name) {
					s.noteUnknownField("an action of a step", name)
				}
			}
		}
	}
}

// knownField reports whether encoding/json fills a field of names from key: it matches
// names exactly or without case.
func knownField(names []string, key string) bool {
	return slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, key) })
}

func (s *Service) noteUnknownField(where, name string) {
	if len(name) > maxFieldName {
		name = strings.ToValidUTF8(name[:maxFieldName], "") + "…"
	}
	climb := strings.Contains(strings.ToLower(name), "vertical") || strings.Contains(strings.ToLower(name), "climb")
	if !s.loggedFields.first(where + " " + name) {
		// The hint where a climb goes is logged once whatever the budget: junk names spent it.
		if climb && !s.climbHinted.Swap(true) {
			s.log.Warn("training API: "+where+" has a field the API does not know; a climb goes in extensions as control.vertical_norm (−1..1)", "field", name)
		}
		if s.loggedFields.overflowed() {
			s.log.Warn("training API: steps bring more unknown fields than are logged; later ones are ignored without a line", "logged", maxOnce)
		}
		return
	}
	msg := "training API: " + where + " has a field the API does not know; it is ignored, as rusim ignores it"
	if climb {
		s.climbHinted.Store(true)
		msg += "; a climb goes in extensions as control.vertical_norm (−1..1)"
	}
	s.log.Warn(msg, "field", name)
}

// onceSet says which keys were seen before, for lines logged once for a server's life; it
// holds maxOnce of them, after which every key counts as seen (overflowed says so, once). Steps and resets use it at
// once.
type onceSet struct {
	mu         sync.Mutex
	seen       map[string]bool
	over, told bool // a key was refused for want of room; overflowed has said so
}

// maxOnce bounds the keys an onceSet holds (and so the lines logged through it).
const maxOnce = 128

// maxOnceKey bounds the bytes an onceSet keeps of a key: keys are clients' (an agent id a step
// names, up to a request's size), and 128 of them whole could hold a quarter of a gigabyte.
const maxOnceKey = 256

// first reports whether key is new, and notes it. A key longer than maxOnceKey is kept as its
// beginning, length and hash.
func (o *onceSet) first(key string) bool {
	if len(key) > maxOnceKey {
		h := fnv.New64a()
		h.Write([]byte(key))
		key = fmt.Sprintf("%s…%d:%x", key[:maxOnceKey-32], len(key), h.Sum64())
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.seen[key] {
		return false
	}
	if len(o.seen) >= maxOnce {
		o.over = true
		return false
	}
	if o.seen == nil {
		o.seen = map[string]bool{}
	}
	o.seen[key] = true
	return true
}

// overflowed reports, once, that first has refused a key for want of room: the caller logs
// that later lines of its kind are left out.
func (o *onceSet) overflowed() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.over && !o.told {
		o.told = true
		return true
	}
	return false
}

// readAll reads every world of the episode in parallel; framed gets a frame.
func (ep *episode) readAll(framed *agent) error {
	return parallel(ep.envs, func(e *env) error {
		if framed != nil && framed.env == e {
			return e.read([]*agent{framed})
		}
		return e.read(nil)
	})
}

// Step applies the command to its target agent (or, with the Actions extension, each action
// to its agent), advances the worlds concerned by one action period and returns the target's
// observation; every agent's state is in Agents, with frames for the agents commanded. Before
// any reset it fails with rusim's 500. Errors are *Error. When ctx ends (the client left)
// before the worlds' turn, they do not step for it.
func (s *Service) Step(ctx context.Context, req *StepRequest) (*StepResult, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ep := s.current
	if ep == nil {
		return nil, internalError(msgNotInitialized)
	}
	s.touch(ep)
	actions := req.Actions
	if len(actions) == 0 {
		actions = []StepAction{{Throttle: req.Throttle, Steer: req.Steer, Brake: req.Brake,
			TargetAgentID: req.TargetAgentID, TargetVehicleID: req.TargetVehicleID,
			Extensions: req.Extensions, DiscreteAction: req.DiscreteAction}}
	}
	byEnv := map[*env]*envWork{}
	var order []*envWork
	var targets []*agent
	for _, act := range actions {
		a, err := ep.target(act.TargetAgentID, act.TargetVehicleID)
		if err != nil {
			return nil, err
		}
		unknown := act.TargetAgentID != "" && a.id != act.TargetAgentID
		if len(req.Actions) > 0 {
			// rusim's fall-back to the primary is for its own one command; in the actions
			// list, simgui's, a typo moved the primary in place of the robot meant.
			switch {
			case unknown:
				return nil, badRequest("actions: targetAgentId '%s' is no agent of the episode (agents: %s).",
					clipMessage(act.TargetAgentID), ep.agentList())
			case act.TargetAgentID == "" && act.TargetVehicleID != "" && a.vehicleID != act.TargetVehicleID:
				return nil, badRequest("actions: targetVehicleId '%s' is no vehicle of the episode's agents.", clipMessage(act.TargetVehicleID))
			}
		} else if unknown {
			s.noteUnknownTarget(act.TargetAgentID, a.id)
		}
		if slices.Contains(targets, a) {
			if act.TargetAgentID == "" && act.TargetVehicleID == "" {
				return nil, badRequest("Two actions target agent '%s' (an action without targetAgentId or targetVehicleId drives the primary).", a.id)
			}
			return nil, badRequest("Two actions target agent '%s'.", a.id)
		}
		cmd, echo, err := commandFrom(act.Throttle, act.Steer, act.Brake, act.DiscreteAction, act.Extensions)
		if err != nil {
			var e *Error
			if errors.As(err, &e) {
				return nil, e
			}
			return nil, badRequest("%s", err.Error())
		}
		targets = append(targets, a)
		wk := byEnv[a.env]
		if wk == nil {
			wk = &envWork{env: a.env}
			byEnv[a.env] = wk
			order = append(order, wk)
		}
		wk.cmds = append(wk.cmds, agentCommand{agent: a, cmd: cmd, echo: echo})
		wk.frames = append(wk.frames, a)
	}
	if err := checkFrames(targets); err != nil {
		return nil, err
	}
	err := parallel(order, func(wk *envWork) error { return wk.env.step(ctx, wk.cmds, wk.frames) })
	if err != nil && s.opts.Host.Stopping() {
		// The worlds stopped with the runtime: say so, as a reset then does.
		return nil, errShuttingDown
	}
	if err != nil {
		return nil, internalError("Step failed: %v", err)
	}
	return s.result(ep, targets[0], targets, nil), nil
}

// envWork is what one step does to one world.
type envWork struct {
	env    *env
	cmds   []agentCommand
	frames []*agent
}

// parallel runs fn for every item, on their own goroutines when there are several, and
// returns the first error.
func parallel[T any](items []T, fn func(T) error) error {
	if len(items) == 1 {
		return fn(items[0])
	}
	errs := make([]error, len(items))
	var wg sync.WaitGroup
	for i, it := range items {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					errs[i] = fmt.Errorf("panic: %v", r)
				}
			}()
			errs[i] = fn(it)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// result builds a StepResult for active from the agents' latest readings; framed agents carry
// their frame. extra is appended to info.
func (s *Service) result(ep *episode, active *agent, framed []*agent, extra []KV) *StepResult {
	now := s.opts.Now().UnixMilli()
	res := &StepResult{ActiveAgentID: active.id, ActiveVehicleID: active.vehicleID, Agents: make([]AgentState, len(ep.agents))}
	for i, a := range ep.agents {
		rd := a.last.Load()
		as := AgentState{AgentID: a.id, VehicleID: a.vehicleID, State: stateOf(rd, now)}
		if slices.Contains(framed, a) && rd.frame != "" {
			as.Frame = Frame{FrameID: frameID, Width: rd.frameW, Height: rd.frameH, Format: "jpeg", Encoding: "base64",
				Timestamp: now, TimeBase: timeBase, BytesLength: rd.frameBytes, DataBase64: rd.frame}
		}
		res.Agents[i] = as
		if a == active {
			res.State, res.Frame = as.State, as.Frame
		}
	}
	prim := ep.primary.last.Load()
	res.Done = prim.done
	act := active.last.Load()
	info := make([]KV, 0, len(prim.route)+5+len(extra))
	info = append(info, prim.route...)
	info = append(info,
		KV{"agent.id", KVValue(active.id)},
		KV{"agent.vehicle_id", KVValue(active.vehicleID)},
		KV{"agents.active_count", KVValue(strconv.Itoa(len(ep.agents)))},
		KV{"sim.time_s", KVValue(fmtExact(act.simTime.Seconds()))},
		KV{"sim.step", KVValue(strconv.FormatUint(act.step, 10))},
	)
	res.Info = append(info, extra...)
	return res
}

// stateOf turns a reading into rusim's VehicleState, in Unity axes.
func stateOf(rd *reading, now int64) State {
	return State{
		Pose:            Pose{Position: unityPosition(rd.pose), Rotation: unityRotation(rd.pose.Yaw)},
		LinearVelocity:  unityVelocity(rd.vx, rd.vy, rd.climb),
		AngularVelocity: unityAngularVelocity(rd.yawRate),
		Speed:           Float(rd.speed),
		Timestamp:       now,
		TimeBase:        timeBase,
		Telemetry:       rd.telemetry,
	}
}

// drawInfo lists the episode's seed and each randomized agent's draws as info entries:
// randomization.<agentId>.seed, then randomization.<agentId>.<key> for every value, where key
// is the vehicle param (or track.<param>) that replays it.
func (ep *episode) drawInfo() []KV {
	out := []KV{{"episode.seed", KVValue(strconv.FormatInt(ep.seed, 10))}}
	if len(ep.envs) > 0 {
		// What one step advances sim time by: a client sizing its clock or its frame rate
		// need not step once to learn it.
		out = append(out, KV{"sim.action_period_s", KVValue(fmtExact(ep.envs[0].plan.ActionPeriod))})
	}
	for _, a := range ep.agents {
		if len(a.draw.Values) == 0 {
			continue
		}
		p := fmt.Sprintf("randomization.%s.", a.id)
		out = append(out, KV{p + "seed", KVValue(strconv.FormatInt(a.draw.Seed, 10))})
		for _, v := range a.draw.Values {
			out = append(out, KV{p + v.Key, KVValue(fmtExact(v.Value))})
		}
	}
	return out
}
