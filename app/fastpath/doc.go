// Package fastpath is the training fast path: a face where one request steps N envs and their
// camera frames land in shared memory as raw pixels, so that a Python trainer reads them as
// numpy arrays without decoding or copying them pixel by pixel. docs/TRAINING.md walks
// through it; the Python side is python/simgui/fastpath.py.
//
// # Sessions and worlds
//
// The face listens on a Unix socket (--fast-path PATH, or faces.fastpath.socket), readable
// and writable by the user only. Each connection is a session: it opens N envs, each a world
// of the host built by the app's one builder (app.Build) in lockstep, added together as one
// episode called "train-<n>" (worlds "train-<n>/env-<i>"; a session of one env has the one
// world "train-<n>"), so the window, the device bridge, /control and the recorder can follow
// any of them. The worlds stay for the whole session; an
// env's new episode is a reset of its world with the episode's vehicle and track params
// (world.Config.BeforeReset), so the world keeps its place in the host and in the window.
//
// An env is the training API's single-agent reset made fast: the same scenario rewriting (one
// agent called "ego" with the scenario's vehicle and params, the request's on top), the same
// domain randomization (scenario.Randomization.Sample with the episode's seed, applied to the
// vehicle and the track params), the same command (rusim's throttle and steer, steer > 0
// turning right, applied before the action period's first world step), the same sonar reading
// (the latest at its contract rate, fired once at a reset) and the same camera (sensors.System.
// Frame) — only raw instead of JPEG. A reset with a seed followed by the same actions gives the
// same observations on both faces.
//
// # Protocol
//
// Every message is an 8-byte header — "SG", a type byte, a zero byte, the payload length as a
// little-endian uint32 — and the payload:
//
//	0x01 open     client → simgui  JSON OpenRequest (at most MaxOpenBytes)
//	0x81 opened   simgui → client  JSON OpenReply; the shared memory's descriptor rides on it
//	                               (SCM_RIGHTS)
//	0x02 step     client → simgui  binary: uint32 N, uint32 0, N kind bytes padded to 8,
//	                               N × A action float64s, N × seed int64
//	0x82 stepped  simgui → client  empty, or JSON StepReply listing the envs reset
//	0x03 close    client → simgui  empty; answered by 0x83 closed
//	0xEE error    simgui → client  JSON {"error": "...", "field": "..."}; field names the open
//	                               request's field whose value is refused (envs, frameWidth,
//	                               frameHeight, actionPeriod, vehicleParams, trackParams,
//	                               randomization, scenario: one that does not parse, is over
//	                               its limit or has a faces block), when one is
//
// The A actions of an env are those OpenReply.Actions names: throttle and steer, and vertical
// (the climb, −1..1) for a vehicle that flies. Protocol 1 is still served: its sessions take
// throttle and steer for every vehicle.
//
// The open request's sensors name mounts by id, or by kind: "ultrasonic" runs the vehicle's
// first sonar if it has one, so one list fits a car and a drone.
//
// Kinds: 0 leaves env i alone (its observation stays), 1 applies its action and advances one
// action period, 2 resets it with its seed (the action is ignored). All envs of a request run
// in parallel on their worlds' loops: the session hands each loop one piece of work (a reset:
// draw the episode, reset, capture; a step: the action period's world steps, then the capture
// by a world system after the last), resets first, and waits for them all at once. A step request is answered once every env is done: by
// then the shared memory holds every env's frame and state.
//
// A malformed message (bad header, wrong type or length) is answered with an error and ends
// the session; a well-formed request with bad values (a kind that is not 0–2, an action that
// is not finite, a step before the env's first reset) is answered with an error and changes
// nothing. Sizes are checked before anything is allocated: envs per session (maxEnvs), frame
// sides (16–1024 px), shared memory (maxMemoryMB), sessions at once (maxSessions; past it a
// newcomer closes the session without requests for yieldAfter, 5 min, or longer), the open
// request and its scenario (MaxOpenBytes, MaxScenarioBytes). The scenario comes as text, never
// as a path, and its faces block is refused. A request that has not arrived whole
// messageTimeout (10 s) after its first byte, or an open request that many seconds after
// connecting, ends the session: its slot is free again. A client that hangs up during a step
// request stops its worlds' steps (a shutdown of its writing side counts as hanging up); one
// that stops reading is cut off when a reply has waited 30 s.
//
// # Shared memory
//
// An anonymous memory file (memfd_create), mapped by simgui and the client; it has no path. A
// 64-byte header ("SIMGUIFP", then uint32 protocol, envs, width, height, channels, state
// fields, and uint64 image and state offsets), then N frames of height×width×channels bytes
// (RGB rows top first) at imageOffset, imageStride apart, then N rows of little-endian float64
// state (stateFields: pose, velocity, sim time, sonar, contacts, route progress, altitude) at
// stateOffset. Each env's slot is written on its world's loop goroutine — the frame the camera
// rendered is copied into it — and only during a request, so the client reads it between
// requests.
package fastpath
