package world

import (
	"math"
	"strconv"
	"time"

	"simgui/physics"
	"simgui/physics/drive"
	"simgui/plugins"
)

// Snapshot is an immutable picture of the world after a step. Readers on any goroutine may
// keep it as long as they like; nothing in it is modified after it is published.
type Snapshot struct {
	World   string
	Step    uint64
	SimTime time.Duration
	Seed    int64
	// StepSize is the fixed step in seconds.
	StepSize float64

	// Loop state, filled by the Loop.
	Paused    bool
	Lockstep  bool
	TimeScale float64
	// RealTime is wall time since the loop started; RealTimeFactor is sim time over wall
	// time across the last second or so (0 until measured).
	RealTime       time.Duration
	RealTimeFactor float64
	// Published is when the loop published the snapshot (the zero time outside a loop).
	Published time.Time

	// Track and Layout are shared with the world and never modified; LayoutVersion changes
	// when the layout is rebuilt so readers can cache what they derive from it.
	Track         *plugins.TrackDescriptor
	Layout        *plugins.Layout
	LayoutVersion uint64

	Models []ModelState
	Boxes  []BoxState

	// Overlays are named immutable values other parts of the process attach to the world
	// (markers from /markers, for example); see World.SetOverlay.
	Overlays map[string]any
}

// ModelState is one vehicle in a snapshot.
type ModelState struct {
	ID        uint32
	Name      string
	VehicleID string
	// Vehicle is shared with the world and never modified.
	Vehicle *plugins.VehicleDescriptor
	Pose    Pose
	// VX, VY are the world-frame velocity in m/s, YawRate in rad/s, Speed the planar speed.
	VX, VY, YawRate, Speed float64
	// Forward is the signed speed along the vehicle's heading, m/s.
	Forward float64
	// Climb is the rate the altitude (Pose.Z) changes at, m/s, up positive: a flying vehicle's
	// drive sets it (drive.Flyer); it is 0 on the ground.
	Climb   float64
	Command drive.Command
}

// BoxState is a pushable box in a snapshot.
type BoxState struct {
	ID                    uint32
	Name                  string
	Pose                  Pose
	Length, Width, Height float64
	Color                 string // the element's "#rrggbb", empty for the default
	// Element is the layout element the box was built from (at its place in the layout,
	// not where the box is now); shared with the world and never modified.
	Element *plugins.Element
}

// BoxPoseName is a pushable box's name in the world's pose list (and its frame in Foxglove's
// views): "box/" and its element's name, or its body's number for a box without one, apart
// from the robots' names.
func BoxPoseName(name string, id uint32) string {
	if name == "" {
		name = strconv.FormatUint(uint64(id), 10)
	}
	return BoxPosePrefix + name
}

// BoxPosePrefix begins every pushable box's name in the pose list.
const BoxPosePrefix = "box/"

// PoseName is b's name in the world's pose list (BoxPoseName).
func (b *BoxState) PoseName() string { return BoxPoseName(b.Name, b.ID) }

// BoxPose is where a pushable box's body stands: its base's height as Z.
func BoxPose(b *physics.Body) Pose { return bodyPose(b) }

// Snapshot builds a snapshot of the current state.
func (w *World) Snapshot() *Snapshot {
	s := &Snapshot{
		World: w.cfg.Name, Step: w.step, SimTime: w.simTime, Seed: w.seed, StepSize: w.dt,
		Track: w.cfg.Track, Layout: w.layout, LayoutVersion: w.layoutVersion,
		Models: make([]ModelState, len(w.models)),
	}
	for i, m := range w.models {
		vx, vy := m.Body.Velocity()
		fwd, _ := m.Body.LocalVelocity()
		climb := 0.0
		if f, ok := m.Drive.(drive.Flyer); ok {
			climb = f.ClimbRate()
		}
		s.Models[i] = ModelState{
			ID: m.ID, Name: m.Name, VehicleID: m.Vehicle.ID, Vehicle: m.Vehicle,
			Pose: bodyPose(m.Body), VX: vx, VY: vy, YawRate: m.Body.AngularVelocity(),
			Speed: math.Hypot(vx, vy), Forward: fwd, Climb: climb, Command: m.Command,
		}
	}
	if len(w.boxes) > 0 {
		s.Boxes = make([]BoxState, len(w.boxes))
		for i, b := range w.boxes {
			e := &w.boxElems[i]
			s.Boxes[i] = BoxState{ID: b.ID, Name: b.Name, Pose: bodyPose(b), Length: e.Length, Width: e.Width, Height: b.Height, Color: e.Color, Element: &w.boxElems[i]}
		}
	}
	if len(w.overlays) > 0 {
		s.Overlays = make(map[string]any, len(w.overlays))
		for k, v := range w.overlays {
			s.Overlays[k] = v
		}
	}
	return s
}

// Model returns the named model's state, or false.
func (s *Snapshot) Model(name string) (ModelState, bool) {
	for _, m := range s.Models {
		if m.Name == name {
			return m, true
		}
	}
	return ModelState{}, false
}

// SetOverlay attaches an immutable value to the world under key; it appears in every snapshot
// until replaced or removed with a nil value. The value must not be modified afterwards.
func (w *World) SetOverlay(key string, v any) {
	if v == nil {
		delete(w.overlays, key)
		return
	}
	if w.overlays == nil {
		w.overlays = map[string]any{}
	}
	w.overlays[key] = v
}

// StepRateFactor is RealTimeFactor while the loop steps: 0 when paused or when no step has
// been published for a second (a time scale so small that steps stall, a lockstep world nobody
// steps), where the factor measured last would stand for a rate that has stopped.
func (s *Snapshot) StepRateFactor(now time.Time) float64 {
	if s.Paused || !s.Published.IsZero() && now.Sub(s.Published) > time.Second {
		return 0
	}
	return s.RealTimeFactor
}
