package events

// Name is an event name. The built-in names follow PyBulletFleet's SimEvents; any other string is
// a custom event.
type Name string

// Built-in event names and the Data each carries.
const (
	PreStep          Name = "PRE_STEP"          // StepInfo, before phase 1 work
	PostStep         Name = "POST_STEP"         // StepInfo, after physics and contacts
	Paused           Name = "PAUSED"            // StepInfo at the moment of pausing
	Resumed          Name = "RESUMED"           // StepInfo
	Reset            Name = "RESET"             // ResetInfo
	ObjectSpawned    Name = "OBJECT_SPAWNED"    // Entity
	ObjectRemoved    Name = "OBJECT_REMOVED"    // Entity
	AgentSpawned     Name = "AGENT_SPAWNED"     // Entity
	AgentRemoved     Name = "AGENT_REMOVED"     // Entity
	CollisionStarted Name = "COLLISION_STARTED" // Collision
	CollisionEnded   Name = "COLLISION_ENDED"   // Collision
	ActionStarted    Name = "ACTION_STARTED"    // Action, when an action begins
	ActionCompleted  Name = "ACTION_COMPLETED"  // Action, when it has taken effect or failed
)

// StepInfo is the payload of step and pause events. Dt is in seconds; SimTime is the sim time
// after the step (POST_STEP) or before it (PRE_STEP), in nanoseconds.
type StepInfo struct {
	Step    uint64
	Dt      float64
	SimTime int64
}

// ResetInfo is the payload of RESET.
type ResetInfo struct {
	Seed int64
}

// Entity identifies a spawned or removed thing.
type Entity struct {
	ID   uint32
	Name string
	Kind string // "vehicle", "box", ...
}

// Collision is the payload of COLLISION_STARTED and COLLISION_ENDED: the two entities in
// ascending ID order. A static track element has ID 0 and its element name.
type Collision struct {
	A, B Entity
}

// Kinds of Action.
const (
	// ActionSetPose is a teleport (World.SetPose: the set_pose service, the control service's
	// teleport, a system): started when asked for, completed when the pose reaches the body
	// (at once outside a step, in phase 2 during one).
	ActionSetPose = "set_pose"
	// ActionServiceCall is a service call a timeline keyframe makes: started when the keyframe
	// fires, completed on the timeline's next step after the reply (or the failure).
	ActionServiceCall = "service_call"
)

// Action is the payload of ACTION_STARTED and ACTION_COMPLETED. ID pairs a completion with its
// start (unique within a world). Entity is the model acted on (ID 0 when the target is not an
// entity); events about an entity are also emitted on its own bus.
type Action struct {
	ID     uint64
	Kind   string
	Target string // the model moved, the service called
	Entity Entity
	Source string // who started it: a system's name, "" when not known
	// Err is set on ACTION_COMPLETED when the action failed; "" means it succeeded.
	Err string
}
