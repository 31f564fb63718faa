package world

import (
	"fmt"
	"math"
	"slices"

	"simgui/app/events"
	"simgui/physics"
	"simgui/physics/drive"
)

// Spawn adds a vehicle now (outside the configured agents: a reset removes it again) and
// emits AGENT_SPAWNED. Without a spawn pose it goes where a vehicle fits (see place.go).
func (w *World) Spawn(a AgentSpec) (*Model, error) {
	if a.Spawn == nil {
		p, err := w.freeSpawnPose(a.Vehicle)
		if err != nil {
			return nil, fmt.Errorf("spawn %s: %w", a.Name, err)
		}
		a.Spawn = &p
	}
	m, err := w.episode.spawn(a, w.step)
	if err != nil {
		return nil, err
	}
	ent := events.Entity{ID: m.ID, Name: m.Name, Kind: "vehicle"}
	w.bus.Emit(events.ObjectSpawned, ent)
	w.bus.Emit(events.AgentSpawned, ent)
	return m, nil
}

// spawn adds a vehicle to the episode's space at step.
func (w *episode) spawn(a AgentSpec, step uint64) (*Model, error) {
	if a.Name == "" {
		return nil, fmt.Errorf("spawn: the agent needs a name")
	}
	if _, dup := w.byName[a.Name]; dup {
		return nil, fmt.Errorf("spawn %s: a model with that name exists", a.Name)
	}
	v := a.Vehicle
	if v == nil || v.Body == nil || v.Drive == nil {
		return nil, fmt.Errorf("spawn %s: vehicle descriptor lacks body or drive data", a.Name)
	}
	dm, err := drive.New(v.Drive.Model, v.Drive.Params)
	if err != nil {
		return nil, fmt.Errorf("spawn %s (%s): %w", a.Name, v.ID, err)
	}
	spec := physics.VehicleSpec{
		Name: a.Name, Body: *v.Body,
		Pose: physics.Pose{X: a.Spawn.X, Y: a.Spawn.Y, Yaw: a.Spawn.Yaw},
		Base: startBase(a),
	}
	if _, ok := dm.(drive.Flyer); ok {
		spec.Flying = true
		w.flyers = true
	}
	body, err := w.space.AddVehicle(spec)
	if err != nil {
		return nil, fmt.Errorf("spawn %s (%s): %w", a.Name, v.ID, err)
	}
	m := &Model{
		ID: body.ID, Name: a.Name, Vehicle: v, Body: body, Drive: dm,
		Initial:   Pose{X: spec.Pose.X, Y: spec.Pose.Y, Z: spec.Base, Yaw: spec.Pose.Yaw},
		SpawnStep: step,
	}
	w.models = append(w.models, m)
	if int(body.ID) >= len(w.byBody) {
		w.byBody = append(w.byBody, make([]*Model, int(body.ID)+1-len(w.byBody))...)
	}
	w.byBody[body.ID] = m
	w.byName[m.Name] = m
	return m, nil
}

// Remove takes a vehicle out of the world and emits AGENT_REMOVED.
func (w *World) Remove(name string) error {
	m := w.byName[name]
	if m == nil {
		return fmt.Errorf("remove: no model %q", name)
	}
	w.space.Remove(m.Body)
	w.byBody[m.Body.ID] = nil
	delete(w.byName, name)
	for i, x := range w.models {
		if x == m {
			w.models = append(w.models[:i:i], w.models[i+1:]...)
			break
		}
	}
	for i := range w.pending {
		if w.pending[i].m == m {
			w.pending = append(w.pending[:i:i], w.pending[i+1:]...)
			break
		}
	}
	ent := events.Entity{ID: m.ID, Name: m.Name, Kind: "vehicle"}
	w.bus.Emit(events.AgentRemoved, ent)
	w.bus.Emit(events.ObjectRemoved, ent)
	delete(w.entities, m.ID)
	return nil
}

// Pose returns a vehicle's pose as the framework sees it: a pose set earlier in this step's
// phase 1 is returned even though the body has not moved yet.
func (w *World) Pose(name string) (Pose, error) {
	m := w.byName[name]
	if m == nil {
		return Pose{}, fmt.Errorf("no model %q", name)
	}
	for i := len(w.pending) - 1; i >= 0; i-- {
		if w.pending[i].m == m {
			return w.pending[i].pose, nil
		}
	}
	return bodyPose(m.Body), nil
}

func bodyPose(b *physics.Body) Pose {
	p := b.Pose()
	return Pose{X: p.X, Y: p.Y, Z: b.Base, Yaw: WrapAngle(p.Yaw)}
}

// WrapAngle maps an angle in radians to (-π, π]: cp accumulates turns, readers want a heading.
func WrapAngle(a float64) float64 {
	a = math.Mod(a, 2*math.Pi)
	switch {
	case a > math.Pi:
		a -= 2 * math.Pi
	case a <= -math.Pi:
		a += 2 * math.Pi
	}
	return a
}

// SetPose teleports a vehicle and stops it. During a step (phase 1) the pose is buffered and
// written to the body in phase 2; outside a step it applies at once. p must pass CheckPose.
// It is an action: ACTION_STARTED now, ACTION_COMPLETED when the pose reaches the body.
func (w *World) SetPose(name string, p Pose) error {
	m := w.byName[name]
	if m == nil {
		return fmt.Errorf("no model %q", name)
	}
	if err := CheckPose(p); err != nil {
		return err
	}
	if !w.inStep {
		a := w.BeginAction(events.ActionSetPose, name, "")
		applyPose(m, p)
		w.EndAction(a, nil)
		return nil
	}
	i := slices.IndexFunc(w.pending, func(pp pendingPose) bool { return pp.m == m })
	if i < 0 {
		i = len(w.pending)
		w.pending = append(w.pending, pendingPose{m: m})
	}
	w.pending[i].pose = p // buffered first, so that ACTION_STARTED's handlers see it in Pose
	a := w.BeginAction(events.ActionSetPose, name, "")
	w.pending[i].actions = append(w.pending[i].actions, a)
	return nil
}

func applyPose(m *Model, p Pose) {
	m.Body.SetPose(physics.Pose{X: p.X, Y: p.Y, Yaw: p.Yaw})
	m.Body.SetVelocity(0, 0)
	m.Body.SetAngularVelocity(0)
	if m.Body.Flying {
		m.Body.Base = p.Z
	}
}

// flushPoses is phase 2: buffered poses reach the bodies in the order they were set.
func (w *World) flushPoses() {
	for _, pp := range w.pending {
		applyPose(pp.m, pp.pose)
	}
	for _, pp := range w.pending {
		for _, a := range pp.actions {
			w.EndAction(a, nil)
		}
	}
	clear(w.pending)
	w.pending = w.pending[:0]
}
