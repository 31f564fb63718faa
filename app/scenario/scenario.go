package scenario

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"simgui/app/systems"
	"simgui/assets"
)

// Scenario is one scenario file.
type Scenario struct {
	ScenarioID string `yaml:"scenarioId"`
	// DisplayName, Version (rusim's integer revision of the file) and Description describe
	// the scenario to people: the window's title, `run --json`. They change nothing in the world.
	DisplayName string `yaml:"displayName,omitempty"`
	Version     int    `yaml:"version,omitempty"`
	Description string `yaml:"description"`
	// Axes says which frame positions and yaws are in: AxesWorld, AxesRusim, or "" to let the
	// file's shape decide (RusimAxes).
	Axes    string       `yaml:"axes,omitempty"`
	Runtime Runtime      `yaml:"runtime"`
	World   WorldSpec    `yaml:"world"`
	Vehicle *VehicleSpec `yaml:"vehicle"`
	Agents  *Agents      `yaml:"agents"`
	Sensors *Sensors     `yaml:"sensors"`
	Route   *Route       `yaml:"route"`
	Logging *Logging     `yaml:"logging"`
	// Plugins are systems to load (the scenario's plugins: entries).
	Plugins []systems.Entry `yaml:"plugins"`
	// Randomization is domain randomization (see the training API); kept raw here.
	Randomization yaml.Node `yaml:"randomization"`
	// Faces turns the process's faces on or off and configures them, by name: false, true or
	// a mapping of the face's settings (app.FaceSettings; the command line's flags win).
	Faces map[string]any `yaml:"faces"`

	// Source names where the scenario came from, for error messages.
	Source string `yaml:"-"`
}

// Runtime holds the run's clock settings.
type Runtime struct {
	// RuntimeMode is rusim's mode label (training, demo, ...); informational.
	RuntimeMode string `yaml:"runtimeMode"`
	// Headless asks for no window when the scenario is run with plain `simgui run`.
	Headless bool `yaml:"headless"`
	// Seed seeds every random source (default 0).
	Seed int64 `yaml:"seed"`
	// TimeScale paces sim time against wall time in the window and paced runs (default 1;
	// 0 = as fast as possible).
	TimeScale *float64 `yaml:"timeScale"`
	// StepSize is the fixed physics step in seconds (default 0.005).
	StepSize float64 `yaml:"stepSize,omitempty"` // 0 (the default) is left out of a saved file
	// ActionPeriod is the sim time one training-API step advances, in seconds (default 0.05).
	ActionPeriod float64 `yaml:"actionPeriod,omitempty"`
	// Lockstep starts the world in lockstep: it advances only when a client steps it.
	Lockstep bool `yaml:"lockstep"`
	// Physics is the world's physics mode: "dynamic" (rigid bodies, the default) or
	// "kinematic" (bodies follow their drives exactly, contacts resolved geometrically: the
	// mode for large fleets). See physics.Mode.
	Physics string `yaml:"physics"`
}

// WorldSpec selects the track.
type WorldSpec struct {
	// Name is the world's name in topics and services (default "default").
	Name    string         `yaml:"name"`
	TrackID string         `yaml:"trackId"`
	Params  map[string]any `yaml:"params"`
}

// VehicleSpec selects the vehicle of a single-agent scenario (agent "ego").
type VehicleSpec struct {
	VehicleID string         `yaml:"vehicleId"`
	Params    map[string]any `yaml:"params"`
}

// Agents describes a multi-agent scenario.
type Agents struct {
	Count             *int           `yaml:"count"` // nil: one, or as many as Vehicles lists
	Isolated          bool           `yaml:"isolated"`
	SeeEachOther      *bool          `yaml:"seeEachOther"`
	CollisionsEnabled *bool          `yaml:"collisionsEnabled"`
	Vehicles          []AgentVehicle `yaml:"vehicles"`
}

// LeadVehicle is the vehicle a face that runs one agent (a training API reset that names no
// vehicle, a fast path session) takes from the scenario, with its params (the scenario's, not
// a copy): vehicle's, else that of agents.vehicles' primary agent (primary or isPrimary), else
// the first listed with a vehicleId. ok is false when the scenario names none.
func (s *Scenario) LeadVehicle() (id string, params map[string]any, ok bool) {
	if s.Vehicle != nil && s.Vehicle.VehicleID != "" {
		return s.Vehicle.VehicleID, s.Vehicle.Params, true
	}
	if s.Agents == nil {
		return "", nil, false
	}
	var first *AgentVehicle
	for i := range s.Agents.Vehicles {
		v := &s.Agents.Vehicles[i]
		if v.VehicleID == "" {
			continue
		}
		if v.Primary || v.IsPrimary {
			return v.VehicleID, v.Params, true
		}
		if first == nil {
			first = v
		}
	}
	if first == nil {
		return "", nil, false
	}
	return first.VehicleID, first.Params, true
}

// AgentVehicle is one agent of agents.vehicles.
type AgentVehicle struct {
	AgentID     string         `yaml:"agentId"`
	VehicleID   string         `yaml:"vehicleId"`
	Primary     bool           `yaml:"primary"`
	IsPrimary   bool           `yaml:"isPrimary"`
	Params      map[string]any `yaml:"params"`
	TrackParams map[string]any `yaml:"trackParams"`
	SpawnPose   *SpawnPose     `yaml:"spawnPose"`
}

// SpawnPose places an agent: position [x, y, z] (also {x, y, z} or "x,y,z"), yaw in degrees.
// In rusim's axes (Scenario.RusimAxes) the position is [x, y up, z north] or [x, z] and the yaw
// is clockwise from north; yaw_deg is rusim's other spelling of yawDeg.
type SpawnPose struct {
	Position Vec3    `yaml:"position"`
	YawDeg   float64 `yaml:"yawDeg"`
	// components is how many numbers the position was written with (2 or 3); hasYaw whether
	// the yaw was written at all.
	components int
	hasYaw     bool
}

// SpawnAt is a spawn pose at world x, y facing yawDeg (counter-clockwise from east).
func SpawnAt(x, y, yawDeg float64) *SpawnPose {
	return &SpawnPose{Position: Vec3{x, y, 0}, YawDeg: yawDeg, components: 3, hasYaw: true}
}

// HeadingOnly is a spawn pose that gives the heading alone (degrees): the agent is placed
// where it would be without one, facing so.
func HeadingOnly(yawDeg float64) *SpawnPose {
	return &SpawnPose{YawDeg: yawDeg, hasYaw: true}
}

// UnmarshalYAML implements yaml.Unmarshaler, keeping the decoding strict.
func (p *SpawnPose) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: spawnPose must be a mapping {position, yawDeg}", n.Line)
	}
	yawKey := ""
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "position":
			pos, c, err := parseVec3(v)
			if err != nil {
				return err
			}
			p.Position, p.components = pos, c
		case "yawDeg", "yaw_deg":
			var yaw float64
			if err := v.Decode(&yaw); err != nil {
				return err
			}
			// Both spellings with different values: the one written last won without a
			// word, so the agent faced a way the file also said it did not.
			if yawKey != "" && yaw != p.YawDeg {
				return fmt.Errorf("line %d: spawnPose gives %s %g and %s %g: give one (yaw_deg is another name for yawDeg)",
					k.Line, yawKey, p.YawDeg, k.Value, yaw)
			}
			p.YawDeg, p.hasYaw, yawKey = yaw, true, k.Value
		default:
			return fmt.Errorf("line %d: field %s not found in type scenario.SpawnPose", k.Line, k.Value)
		}
	}
	return nil
}

// checkPrimarySpellings refuses an agents.vehicles entry that gives primary and isPrimary
// (rusim's spelling) with different values: decoded, the two were or-ed, so "primary: true,
// isPrimary: false" made the agent primary without a word, as the file also said it was not.
func checkPrimarySpellings(data []byte) error {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return nil // Decode has reported it
	}
	vehicles := mappingValue(mappingValue(doc.Content[0], "agents"), "vehicles")
	if vehicles == nil || vehicles.Kind != yaml.SequenceNode {
		return nil
	}
	for i, item := range vehicles.Content {
		primary, isPrimary := mappingValue(item, "primary"), mappingValue(item, "isPrimary")
		if primary == nil || isPrimary == nil {
			continue
		}
		var a, b bool
		if primary.Decode(&a) == nil && isPrimary.Decode(&b) == nil && a != b {
			return fmt.Errorf("line %d: agents.vehicles[%d] gives primary: %t and isPrimary: %t: give one (isPrimary is another name for primary)",
				isPrimary.Line, i, a, b)
		}
	}
	return nil
}

// mappingValue returns the value of key in the mapping n (aliases followed), nil when n is
// not a mapping or has no such key.
func mappingValue(n *yaml.Node, key string) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			v := n.Content[i+1]
			for v.Kind == yaml.AliasNode && v.Alias != nil {
				v = v.Alias
			}
			return v
		}
	}
	return nil
}

// Sensors holds scenario-wide sensor settings, rusim's sensors block: each sensor can be
// turned off for every agent (enabled: false takes it off the vehicles), and the camera's
// profile is the default camera.profile of every vehicle.
type Sensors struct {
	Camera      *CameraSettings      `yaml:"camera"`
	Telemetry   *TelemetrySettings   `yaml:"telemetry"`
	LineTracker *LineTrackerSettings `yaml:"lineTracker"`
	Ultrasonic  *UltrasonicSettings  `yaml:"ultrasonic"`
}

// CameraSettings is sensors.camera.
type CameraSettings struct {
	Enabled *bool  `yaml:"enabled"`
	Profile string `yaml:"profile"`
}

// TelemetrySettings is sensors.telemetry: which telemetry keys the training API reports.
// rusim has one profile, TelemetryDefault (every key).
type TelemetrySettings struct {
	Profile string `yaml:"profile"`
}

// TelemetryDefault is the one telemetry profile: every telemetry key of the vehicle's sensors.
const TelemetryDefault = "default"

// LineTrackerSettings is sensors.lineTracker.
type LineTrackerSettings struct {
	Enabled *bool `yaml:"enabled"`
}

// UltrasonicSettings is sensors.ultrasonic.
type UltrasonicSettings struct {
	Enabled *bool `yaml:"enabled"`
}

// Logging is rusim's logging block: whether the run's episodes are logged, and the tag they
// are logged under. In simgui the tag labels the run's log lines and its `run --json`
// summary.
type Logging struct {
	Enabled *bool  `yaml:"enabled"`
	Tag     string `yaml:"tag"`
}

// Title is how people see the scenario: its display name, else its id, else its source.
func (s *Scenario) Title() string {
	for _, t := range []string{s.DisplayName, s.ScenarioID, s.Source} {
		if strings.TrimSpace(t) != "" {
			return t
		}
	}
	return DefaultName
}

// LogTag is the logging tag when logging is on, else "".
func (s *Scenario) LogTag() string {
	if s.Logging == nil || s.Logging.Enabled != nil && !*s.Logging.Enabled {
		return ""
	}
	return s.Logging.Tag
}

// Route is rusim's route block; its values become track params (route.*).
type Route struct {
	Params         map[string]any `yaml:"params"`
	Waypoints      [][]float64    `yaml:"waypoints"`
	Loop           *bool          `yaml:"loop"`
	ReachDistanceM float64        `yaml:"reachDistanceM"`
}

// Vec3 is a position that accepts a list, a map or a "x,y,z" string in YAML.
type Vec3 [3]float64

// UnmarshalYAML implements yaml.Unmarshaler.
func (v *Vec3) UnmarshalYAML(n *yaml.Node) error {
	p, _, err := parseVec3(n)
	*v = p
	return err
}

// parseVec3 reads [x, y] or [x, y, z], {x, y, z} or "x,y,z" and says how many numbers it had.
func parseVec3(n *yaml.Node) (Vec3, int, error) {
	var v Vec3
	switch n.Kind {
	case yaml.SequenceNode:
		var xs []float64
		if err := n.Decode(&xs); err != nil {
			return v, 0, err
		}
		if len(xs) < 2 || len(xs) > 3 {
			return v, 0, fmt.Errorf("line %d: position needs 2 or 3 numbers, got %d", n.Line, len(xs))
		}
		copy(v[:], xs)
		return v, len(xs), nil
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			j := strings.Index("xyz", k.Value)
			if len(k.Value) != 1 || j < 0 {
				return v, 0, fmt.Errorf("line %d: position has x, y and z, not %q", k.Line, k.Value)
			}
			if err := val.Decode(&v[j]); err != nil {
				return v, 0, err
			}
		}
		return v, 3, nil
	case yaml.ScalarNode:
		parts := strings.Split(n.Value, ",")
		if len(parts) < 2 || len(parts) > 3 {
			return v, 0, fmt.Errorf("line %d: position %q needs \"x,y\" or \"x,y,z\"", n.Line, n.Value)
		}
		for i, p := range parts {
			f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
			if err != nil {
				return v, 0, fmt.Errorf("line %d: position %q: %q is not a number", n.Line, n.Value, p)
			}
			v[i] = f
		}
		return v, len(parts), nil
	}
	return v, 0, fmt.Errorf("line %d: position must be [x, y, z]", n.Line)
}

// DefaultName is the embedded default scenario's source name.
const DefaultName = "default scenario"

// Default returns the embedded default scenario: a KS0223 in the cardboard corridor.
func Default() *Scenario {
	data, err := assets.Scenarios.ReadFile("scenarios/default.yaml")
	if err != nil {
		panic("scenario: embedded default missing: " + err.Error())
	}
	s, err := Parse(data, DefaultName)
	if err != nil {
		panic("scenario: embedded default broken: " + err.Error())
	}
	return s
}

// Load reads a scenario file: a regular file within the limits of limits.go.
func Load(path string) (*Scenario, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(data, path)
}

// emptyDocument reports whether n, a decoded YAML document, holds nothing (a trailing "---").
func emptyDocument(n *yaml.Node) bool {
	if n.Kind == 0 {
		return true
	}
	for _, c := range n.Content {
		if c.Kind != yaml.ScalarNode || c.ShortTag() != "!!null" || c.Value != "" {
			return false
		}
	}
	return true
}

// Parse decodes a scenario; source names it in errors. The limits of limits.go are checked
// first.
func Parse(data []byte, source string) (*Scenario, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("%s: the scenario is empty", source)
	}
	if err := checkLimits(data, source); err != nil {
		return nil, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var s Scenario
	if err := dec.Decode(&s); err == io.EOF {
		// Comments alone: no document at all, which yaml reports as a bare "EOF".
		return nil, fmt.Errorf("%s: the scenario is empty (it holds only comments)", source)
	} else if err != nil {
		return nil, fmt.Errorf("%s: %s", source, explainYAML(err, data))
	}
	// A scenario is one document: a second one after "---" was read by nobody, not even for
	// its syntax, so that a file of two (two scenarios pasted together) ran the first alone.
	var more yaml.Node
	if err := dec.Decode(&more); err == nil && !emptyDocument(&more) {
		line := more.Line
		if len(more.Content) > 0 {
			line = more.Content[0].Line
		}
		return nil, fmt.Errorf("%s: line %d: a second YAML document (after ---); a scenario file holds one", source, line)
	} else if err != nil && err != io.EOF {
		return nil, fmt.Errorf("%s: %s", source, explainYAML(err, data))
	}
	if err := checkWholeNumbers(data); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	if err := checkPrimarySpellings(data); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	if err := s.checkNumbers(); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	s.Source = source
	return &s, nil
}
