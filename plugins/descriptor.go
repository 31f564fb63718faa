package plugins

// Type is the kind of a plugin: a robot or a track.
type Type string

// The plugin types of rusim's plugin SDK.
const (
	TypeVehicle Type = "vehicle"
	TypeTrack   Type = "track"
)

// Pose3 is a pose in a parent frame: position in metres, orientation as roll, pitch, yaw in
// degrees (applied yaw, then pitch, then roll).
type Pose3 struct {
	X        float64 `json:"x"`
	Y        float64 `json:"y"`
	Z        float64 `json:"z"`
	RollDeg  float64 `json:"rollDeg,omitempty"`
	PitchDeg float64 `json:"pitchDeg,omitempty"`
	YawDeg   float64 `json:"yawDeg,omitempty"`
}

// VehicleDescriptor describes a robot. The first four fields are
// PluginDescriptorBase; the rest is the simulation data simgui needs to spawn it.
type VehicleDescriptor struct {
	ID          string          `json:"id"`
	DisplayName string          `json:"displayName"`
	Version     ContractVersion `json:"version"`
	Description string          `json:"description"`

	// DeviceType is the contract's device category (ground_robot_differential, quadcopter, ...),
	// repeated here so a descriptor without a contract still says what it is.
	DeviceType string `json:"deviceType,omitempty"`
	// Body is the collision body; nil in archives exported by rusim's Unity SDK.
	Body *Body `json:"body,omitempty"`
	// Drive selects a drive model registered in physics/drive and its parameters.
	Drive *Drive `json:"drive,omitempty"`
	// Visual says how renderers draw the vehicle.
	Visual *Visual `json:"visual,omitempty"`
	// Materials are the vehicle's own materials (textures in its archive), usable by name in
	// Visual besides the built-in ones; a part is drawn with a material's first image.
	Materials []Material `json:"materials,omitempty"`
	// Sensors mounts each contract sensor on the vehicle, matched by ID.
	Sensors []SensorMount `json:"sensors,omitempty"`
	// Contract is the device contract (device-contract.json in an archive).
	Contract *DeviceContract `json:"-"`
}

// Body is a vehicle's rigid body. Shape "box" uses Length (along the vehicle's x) and Width;
// "circle" uses Radius. Height is used by renderers, sensors and flying vehicles' collisions.
type Body struct {
	Shape          string  `json:"shape"`
	Length         float64 `json:"length,omitempty"`
	Width          float64 `json:"width,omitempty"`
	Radius         float64 `json:"radius,omitempty"`
	Height         float64 `json:"height"`
	Mass           float64 `json:"mass"`
	Friction       float64 `json:"friction"`
	LinearDamping  float64 `json:"linearDamping"`
	AngularDamping float64 `json:"angularDamping"`
}

// Drive names a drive model (differential, ackermann, quadcopter) and its parameters. Each model
// documents its parameter names, units and defaults; an unknown name is a load error.
type Drive struct {
	Model  string             `json:"model"`
	Params map[string]float64 `json:"params,omitempty"`
}

// Visual is how a vehicle looks: a shape renderers know (car, ks0223, drone, box) and colours
// as "#rrggbb".
type Visual struct {
	Shape  string `json:"shape"`
	Color  string `json:"color"`
	Accent string `json:"accent,omitempty"`
	// Material and AccentMaterial name the materials (a built-in one or one of the vehicle's
	// own Materials) of the parts drawn in Color and in Accent; empty means a plain colour.
	Material       string `json:"material,omitempty"`
	AccentMaterial string `json:"accentMaterial,omitempty"`
}

// SensorMount places a contract sensor on the vehicle. Kind selects the sensor implementation
// registered in app/sensors (camera, depth, lidar, imu, speedometer, odometry, ultrasonic, ...);
// Params are kind-specific (fovDeg, near, far, samples, rangeMax, ...), documented by each kind.
type SensorMount struct {
	ID     string             `json:"id"`
	Kind   string             `json:"kind"`
	Pose   Pose3              `json:"pose"`
	Params map[string]float64 `json:"params,omitempty"`
}

// TrackDescriptor describes a track. Generator names a registered track
// generator that builds the layout from parameters and a seed; an empty Generator means the
// static Elements are the layout.
type TrackDescriptor struct {
	ID                   string          `json:"id"`
	DisplayName          string          `json:"displayName"`
	Version              ContractVersion `json:"version"`
	Description          string          `json:"description"`
	ParametersSchemaJSON string          `json:"parametersSchemaJson"`

	Generator string `json:"generator,omitempty"`
	Floor     *Floor `json:"floor,omitempty"`
	// Materials are the track's own materials (textures in its archive), usable by name in its
	// elements and floor besides the built-in ones.
	Materials   []Material   `json:"materials,omitempty"`
	Elements    []Element    `json:"elements,omitempty"`
	SpawnPoints []SpawnPoint `json:"spawnPoints,omitempty"`
	Route       *Route       `json:"route,omitempty"`
}

// Floor is the ground rectangle drawn under a track, centred at (X, Y).
type Floor struct {
	X       float64 `json:"x"`
	Y       float64 `json:"y"`
	Length  float64 `json:"length"`
	Width   float64 `json:"width"`
	Texture string  `json:"texture,omitempty"`
	Color   string  `json:"color,omitempty"`
}

// Element kinds. Walls, boxes and cylinders need a positive Height; roads, markers and
// polygons of Height 0 lie flat and are visual only (nothing collides with them).
const (
	ElementWall     = "wall"     // static box: centre X,Y, Length along YawDeg, Width = thickness
	ElementBox      = "box"      // box, static unless Movable (then pushable with Mass)
	ElementCylinder = "cylinder" // static cylinder of Radius
	ElementPolygon  = "polygon"  // Points (world frame) extruded to Height
	ElementRoad     = "road"     // flat strip of Width along the polyline Points
	ElementMarker   = "marker"   // flat visual tag (for example an ArUco marker on a wall)
)

// Element is one piece of track geometry.
type Element struct {
	Kind   string       `json:"kind"`
	Name   string       `json:"name,omitempty"`
	X      float64      `json:"x,omitempty"`
	Y      float64      `json:"y,omitempty"`
	Z      float64      `json:"z,omitempty"`
	Length float64      `json:"length,omitempty"`
	Width  float64      `json:"width,omitempty"`
	Height float64      `json:"height,omitempty"`
	Radius float64      `json:"radius,omitempty"`
	YawDeg float64      `json:"yawDeg,omitempty"`
	Points [][2]float64 `json:"points,omitempty"`
	Color  string       `json:"color,omitempty"`
	// Material names the surface renderers draw in the realistic look: a built-in one
	// (cardboard, painted_wood, concrete, brick, tape, plywood, carpet, tile, grass, asphalt,
	// checker), tinted by Color, or one of the track's Materials, in its images' colours.
	// Empty takes the kind's default (walls and boxes cardboard, cylinders painted wood,
	// polygons concrete, roads asphalt; markers stay plain).
	Material string `json:"material,omitempty"`
	// ArucoID makes a marker an ArUco marker of ArucoDictionary: Length is the side of its
	// black square, drawn on a white margin one cell (Length/6) wide. nil: a plain square.
	ArucoID  *int    `json:"arucoId,omitempty"`
	Movable  bool    `json:"movable,omitempty"`
	Mass     float64 `json:"mass,omitempty"`
	Friction float64 `json:"friction,omitempty"`
}

// SpawnPoint is a named place where a vehicle may start.
type SpawnPoint struct {
	Name   string  `json:"name,omitempty"`
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	YawDeg float64 `json:"yawDeg"`
}

// Route is an ordered list of waypoints (world x, y) a track offers to training code, with
// the metadata rusim's scenarios give it (trackgen's common parameters).
type Route struct {
	Waypoints     [][2]float64 `json:"waypoints"`
	ReachDistance float64      `json:"reachDistance,omitempty"`
	Loop          bool         `json:"loop,omitempty"`
	// CorridorWidth bounds the route: farther than half of it from the polyline is out of
	// bounds (0: unbounded).
	CorridorWidth float64 `json:"corridorWidth,omitempty"`
	// GoalRadius is how near the last waypoint counts as reaching the goal, which ends the
	// episode (0: ReachDistance).
	GoalRadius float64 `json:"goalRadius,omitempty"`
	// Controller is how agents without one of their own are driven ("" or "manual": by their
	// commands; "waypoint_follower": along the route); Graph names the route they follow.
	Controller string `json:"controller,omitempty"`
	Graph      string `json:"graph,omitempty"`
}

// Layout is a track made concrete for one episode: what a generator returns.
type Layout struct {
	Floor       Floor
	Elements    []Element
	Materials   []Material // the track's own materials
	SpawnPoints []SpawnPoint
	Route       *Route
}

// WithoutMaterials returns a copy of the layout whose floor and elements name no texture or
// material (l is unchanged): what a renderer that lacks one of them draws instead, plain.
func (l *Layout) WithoutMaterials() *Layout {
	plain := *l
	plain.Floor.Texture = ""
	plain.Elements = make([]Element, len(l.Elements))
	for i, e := range l.Elements {
		e.Material = ""
		plain.Elements[i] = e
	}
	return &plain
}
