// Package api is the training HTTP API: rusim's runtime API (uav-simulator/uavsimulator) served by
// simgui, so rusim's SimClient and Gymnasium envs run unchanged — deterministically and many
// times faster than rusim's free-running Unity runtime.
//
// # Endpoints
//
// On 127.0.0.1:8000 (UAVSIM_API_HOST, UAVSIM_API_PORT, the CLI's --api-port):
//
//	GET  /health    {"status":"ok", ...active agents and counts}
//	GET  /contract  simulator id, contractVersion "0.1.0", device contracts, tracks and schemas
//	POST /reset     {seed, selectedTrackId, selectedVehicleId, trackParams, vehicleParams, flags, agents}
//	POST /step      {throttle, steer, brake, targetAgentId, targetVehicleId, extensions, ...}
//
// Anything else is 404 {"error":"not_found"}. Replies are application/json; every field is
// always present. Unknown request fields are ignored; key/value lists take strings (numbers and
// booleans are accepted too). Errors are {"error": msg}: 400 for bad arguments ("Request body
// is empty.", "Unknown vehicle id: 'x'.", "Unknown track id: 'x'.", invalid JSON or params,
// more agents than the track's free floor holds), 500 for invalid states (a step before any
// reset: "Active vehicle is not initialized. Call ResetSimulation first.", an unknown agent
// vehicle, an ambiguous targetVehicleId). A trackParams or vehicleParams key the track or
// vehicle does not take is a 400 naming the keys it does take, where rusim's runtime reads
// the keys it knows and passes over the others: a misspelt key would leave its default in
// force without a word.
//
// # Stepping
//
// Unlike rusim's Unity physics, which runs freely while the client thinks, every POST /step
// applies the command, advances the target's world by one action period (the scenario's
// runtime.actionPeriod, default 0.05 s, in fixed steps of runtime.stepSize), then reads the
// state and renders the frame. A reset's timeScale is therefore accepted and has no effect:
// how fast sim time passes is how fast the client steps. A reset with a seed followed by the
// same requests gives the same replies byte for byte, except the wall-clock timestamps
// (state.timestamp, frame.timestamp: unix ms, as rusim). info adds sim.time_s and sim.step (a
// reset's also sim.action_period_s, the sim time one step advances), and
// for a route with rusim's metadata route.goal_radius_m (done once the primary is that near
// the last waypoint of a route that does not loop) and route.corridor_width_m,
// route.lateral_offset_m and route.in_corridor.
//
// A reset builds new worlds (one per agent when agents.isolated, else one for all) from the
// scenario on show (the process's, or another the window's user opened since) with the
// request on top: selectedTrackId and selectedVehicleId default to
// the scenario's track and vehicle, whose scenario params are the base the request's params
// override. The worlds are built by the app's one builder and run by the host as an episode
// ("episode-<n>", its worlds "episode-<n>/<agent>" when isolated), in lockstep; the previous
// episode's worlds are removed. While requests keep coming the episode is live: the host shows
// it by default, so the window, the device bridge, /control and the recorder follow it; after
// Options.IdleTimeout (10 s) without a request the scenario world is on show again.
//
// # Axes and controls
//
// States are in rusim's Unity axes: position {x, y up, z north}, rotation a quaternion about
// Unity's +y (yaw_unity = 90° − yaw), linearVelocity likewise, angularVelocity.y = −yaw rate
// (positive turns right), speed the planar speed. Track params in requests are converted the
// same way: "x,y,z" and "x,z" positions become world "x,y", spawn.yaw_deg becomes 90° − yaw.
//
// rusim's steer > 0 turns right (its left = throttle − steer, right = throttle + steer drive a
// car that turns right when right > left); simgui's drive models turn left for steer > 0. The
// API flips steer's sign and feeds rusim's drive.left_pwm_norm to the right motor and
// drive.right_pwm_norm to the left one, so a rusim client's command turns the car the way it
// did in rusim. Telemetry echoes the PWM values in rusim's naming. discreteAction (DirStop,
// DirForward, DirBack, DirLeft, DirRight: rusim's (0,0), (1,0), (−1,0), (0.5,−1), (0.5,1)),
// which rusim's multi-agent env sends and Unity ignores, is honoured when throttle and steer
// are 0; another value is ignored as Unity ignores them all (0, 0). A flying vehicle climbs on
// the extension control.vertical_norm (−1..1; there is no top-level field for it). Values out
// of range are clamped, as rusim's are: throttle, steer, drive.left_pwm_norm,
// drive.right_pwm_norm and control.vertical_norm to −1..1, brake to 0..1 (a throttle of 7
// drives as 1); a value that is not a number is a 400. Unknown fields are ignored, as rusim
// ignores them; the log names each unknown field of a step (or of one of its actions) once
// for the server's life, a "vertical" or "climb" with where the climb goes.
//
// Telemetry (strings with at most three decimals) is the vehicle's device contract's: the
// command echoed as applied (clamped), for the actuators the contract lists — drive.left_pwm_norm
// and drive.right_pwm_norm in rusim's naming, control.vertical_norm — then the latest reading
// of each sensor the vehicle mounts (app/sensors, at its contract rate, with its contract
// noise; a sensor with no reading yet, at reset, is fired once). rusim's KS0223 keys come
// first, in its order and format: sensor.speedometer.mps (forward speed),
// sensor.ultrasonic.front.m (rangeMax, 3.5 m, when nothing echoes),
// sensor.line_tracker.s1_norm..s5_norm (1 − d/0.12 m from the nearest centreline; s1 leftmost),
// power.battery.voltage_v, power.battery.current_a, power.motor.estimated_w. The sensors rusim
// has no keys for follow as sensor.<contract sensor id>.<value>, for every mount of their kind:
// an IMU's sensor.<id>.ax_mps2, ay_mps2, az_mps2 (specific force, +9.807 on z at rest),
// wx_radps, wy_radps, wz_radps (angular rate), in the sensor's own frame (x forward, y left,
// z up, so wz > 0 turns left: not Unity's axes, unlike the state); an altimeter's
// sensor.<id>.m; wheel odometry's sensor.<id>.left_m and right_m (distance since the reset
// of the wheels on the vehicle's left and right: right_m grows faster in a left turn, which
// rusim's naming commands with drive.left_pwm_norm above drive.right_pwm_norm).
// The KS0223 and the cars thus add sensor.odometry.wheel.left_m and right_m, the prometeo its
// sensor.imu.*; the quadcopter reports control.vertical_norm, sensor.imu.* and
// sensor.altimeter.m. Cameras, depth cameras and lidars are arrays, not telemetry: the frame
// carries the first camera; the others are on the device bridge and the world's topics. A
// vehicle without one of these sensors leaves its keys out (rusim's clients read a missing
// sonar as 0).
//
// # Frames
//
// Each reply carries the target's camera frame, drawn by the world's sensors system
// (sensors.System.Frame: the vehicle's first camera mount, its field of view, clip range and
// contract noise, other vehicles as agents.see_each_other says), JPEG in base64, at the
// camera's size: its contract shape, camera.profile, or camera.width and camera.height, which
// here go down to 16 px so that an 84×84 observation is rendered directly. frameId is
// "camera/front/image_raw". Brightness and colour gains (camera.brightness,
// camera.color_gain_r/g/b, drawn by domain randomization) are applied before the JPEG, by the
// camera itself (sensors.System.SetImageGains), so the frames the episode's world publishes
// (the window's camera panel, the bridge) carry them too. Other agents' entries carry a zero
// frame.
//
// # Agents
//
// agents[] as rusim: agentId ("agent-<i+1>" when blank), vehicleId (the selected vehicle when
// blank), isPrimary (else the first), per-agent trackParams, vehicleParams and flags over the
// global ones (case-insensitive keys), agent i seeded seed+i. A step goes to targetAgentId,
// else the only agent with targetVehicleId, else the primary (a targetAgentId of no agent
// too, as rusim's: the log names each such id once); its reply has every agent's
// state in agents[].
//
// Flags: agents.isolated gives each agent a world of its own (N independent environments in
// one process, stepped on their own goroutines: a step advances only its target's world, and
// steps for different agents run in parallel); agents.see_each_other draws the other agents in
// each camera of a shared world; agents.collisions_enabled lets vehicles of a shared world
// collide. Defaults come from the scenario's agents block (false, true, true).
//
// The actions extension steps several agents together: {"actions": [{targetAgentId, throttle,
// steer, brake, extensions, discreteAction}, ...]} applies every action, steps each world
// concerned once (in parallel), and returns the first action's agent as the active one with
// frames for every agent in the list. An action whose targetAgentId is no agent of the episode,
// or whose targetVehicleId no agent drives, is a 400 naming it (a lone step's falls back to the
// primary, as rusim's does); an action naming neither drives the primary.
//
// # Domain randomization
//
// A scenario without a randomization block draws the default ranges at every reset (mass,
// dampings, motor gains and camera pitch, as rusim's KS0223 does each episode); one whose
// block says enabled: false, or a reset flag randomization.enabled=false, draws nothing.
// The scenario's randomization block (app/scenario.ParseRandomization) and reset flags
// randomization.enabled and randomization.<group>.<param> ("0.2", "lo,hi", "schema") draw, per
// reset and per agent from seed+i, the vehicle's mass, damping, motor gains, top speed and
// latency, the camera's pitch, field of view, noise, brightness and colour gains, the sonar's
// noise and numeric track params within their JSON Schema range; the sensors group's lens,
// intrinsics and film parameters and the visual group (textures, colour jitter, sun, ambient,
// distractors) draw the realistic look's, and turn it on unless the camera sets realistic
// (docs/SCENARIOS.md has the table of every group's parameters). The reply to the reset lists
// every draw in info as randomization.<agentId>.<key> = value, where key is the vehicle param
// (or track.<param>) that replays it with randomization off; camera.brightness,
// camera.color_gain_r/g/b are vehicle params of this API (image noise is the camera's contract
// noise, sensor.<camera id>.noiseStddev).
//
// # Exposure and limits
//
// Requests pass package httpguard as the control service's do: the Host must be an IP
// address, localhost or a name in Options.AllowHosts (DNS rebinding), an Origin must be in
// Options.AllowOrigins or the same IP/localhost host (403 otherwise), and with Options.Token
// every request, /health included, must carry "Authorization: Bearer <token>" or ?token=
// (401). A POST with a body must declare Content-Type application/json (415 otherwise; one
// without a body, or with an empty chunked one, is refused as empty, 400): browsers send
// text/plain, form and multipart bodies to any site without asking, never JSON. rusim's
// client sends JSON (requests' json=). Timeouts: header 10 s, the whole request 30 s, idle
// keep-alive 2 min, writing a reply 30 s. Bodies are at most MaxBody (2 MiB) with at most
// 40,000 array elements in all; a reset has at most scenario.MaxAgents (10,000) agents, or
// MaxIsolatedAgents (256) with agents.isolated; a step at most MaxActions (256) actions.
// camera.width and camera.height take 16..1920 and 16..1080: rusim's 320–1920 × 240–1080,
// and the small frames policies read (84×84) rendered directly. The camera pixels of a
// reset's worlds together (a shared world counts its largest frame once: its agents' frames
// are drawn into one image in turn) and those of one step's frames are each at most
// MaxFramePixels, 64 frames of 1920×1080: 256 frames of 640×480 fit; at a reset a realistic
// camera's pixel (the realistic look or a distorting lens) counts three. Each refusal is a 4xx
// naming its limit. /health names no path. A panic while answering is a 500 logged with the
// client.
//
// # Concurrency
//
// A Service answers requests on net/http's goroutines. A reset is exclusive; steps share the
// episode, each world's steps are serialized, and the world itself is touched only on its
// loop's goroutine (through world.Loop's Do, Step and Call).
package api
