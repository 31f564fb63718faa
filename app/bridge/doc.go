// Package bridge is simgui's CLOiSim-compatible device bridge: the port registry that CLOiSim
// calls BridgeManager ([Manager]), the 8-byte message tag ([Tag]) and the device endpoints
// ([Bridge]) that cloisim_ros and other CLOiSim clients connect to.
//
// # Port registry
//
// Every device channel (a model's part and a control key such as "Data", "Info", "Rx", "Tx")
// gets its own TCP port from 49152 to 65535. Its hashKey is modelName + partsName + subPartsName
// + controlKey, concatenated without a separator; the same string, hashed with [Tag], prefixes
// every message on that port. The registry keeps the flat hashKey → port map (the /control
// "port_list" answer) and the model → device type → parts → key → port map ("device_list",
// from which cloisim_ros builds its nodes). modelName is the model's name made a ROS 2 name,
// since cloisim_ros makes it its nodes' namespace: rusim's "agent-2" is served as "agent_2".
//
// Unlike CLOiSim, which only looks at active TCP connections, a port counts as free only if
// we can bind it on the configured IP (default 127.0.0.1), so ports other programs listen on
// are skipped, and simgui processes running side by side (parallel CI jobs) do not collide.
//
// A hashKey released and allocated again — its model leaving the served world and coming back,
// as when the bridge moves to a training episode's world and back — gets its old port again,
// and other hashKeys take remembered ports only once no other is free: cloisim_ros keeps a
// node for every (model, device type, parts) it already runs and never reads its ports again,
// so a model moved to other ports would fall silent for it, and cloisim_ros ends itself after
// some seconds of silence.
//
// # Device endpoints
//
// [Start] serves, on the Manager's ports:
//
//   - World / WORLD / SimulationWorld: Clock (PUB) — WorldStatistics from /world/<name>/stats,
//     50 times a second of wall time, skipped while sim time moves on too slowly to change it;
//     Control (the simulator's REQ side, cloisim_ros's World node connects a REP socket) —
//     at every reset of the world each connected client gets Param{reset_simulation: BOOLEAN
//     true}, as CLOiSim sends it; its answer (Param with a "result" string, or TIMEOUT after
//     Config.ResetTimeout, the client then disconnected so it reconnects with a fresh socket)
//     is logged. /control's reset asks first and resets the world after the answers
//     ([Bridge.AnnounceReset]), as CLOiSim does; resets from elsewhere (the window, the
//     training API) are announced as they happen (/world/<name>/reset), and so is the bridge
//     face's move to another world (a training episode's, or back to the scenario's) before
//     the clock jumps to its time ([Bridge.AnnounceMove], then [Bridge.Retarget]).
//   - <model> / MICOM / Micom: Rx (SUB) — Twist commands (a Joystick decodes as one), published
//     on /model/<model>/cmd_vel; Tx (PUB) — the model's Micom from the world's odometry system
//     (/model/<model>/micom, on sim time), with the latest reading of each ultrasonic sensor
//     (its Sonar state with the sensor's world pose) in uss and the powertrain's battery
//     voltage in battery; Tf (PUB) — the wheel links (/model/<model>/wheels) as Poses with
//     "parent_frame_id" in the header, one link per message in turn (about 50 Hz in all, as
//     CLOiSim), and, for a model without wheels, an empty transform every KeepAlive, as
//     CLOiSim sends one (cloisim_ros drops it rather than warn of silence); Info (REP) — request_static_transforms, request_ros2 (frame_id base_link:
//     cloisim_ros adds the static transform base_footprint → base_link from it),
//     request_transform, reset_odometry (the odometry system's service).
//   - <model> / LASER, IMU, CAMERA, DEPTHCAMERA, SONAR / <sensor id>: Data (PUB) from
//     /model/<model>/sensor/<id>/scan, imu, image, depth_image, scalar ([SensorTopic]); Info
//     (REP) — request_ros2, request_transform, and request_output_type (lidar) or
//     request_camera_info (cameras, answered with a bare CameraSensor: the horizontal field of
//     view cloisim_ros turns back into the lens's fx, plumb_bob's coefficients as the
//     distortion; a lens it cannot carry — fx ≠ fy, an off-centre principal point, the
//     equidistant model — is logged once). Lidar misses and ranges
//     nearer than range_min, and depth +Inf, go out as NaN, as CLOiSim sends them; images go out as RAWI frames (28-byte
//     little-endian header, then the pixels), not protobuf; an ultrasonic goes out as
//     CLOiSim's Sonar (range, range_min and range_max from the mount, radius the cone's opening
//     in radians), which cloisim_ros_range publishes as sensor_msgs/Range.
//
// While the served world's sim time stands still (paused, or a lockstep world nobody steps),
// every port with a subscriber repeats its last message once a second (Config.KeepAlive) —
// the clock with real time advanced and paused set as the world is — because cloisim_ros
// nodes end themselves after some seconds of silence, and in bringup all of them share one
// process. A port subscribed meanwhile, with nothing to repeat yet, first asks the world for
// its newest reading (world.Republisher): the sensors' latest, or one drawn at once.
//
// [Bridge.Retarget] moves the bridge to another world: every model's ports are released, the
// new world's models get theirs, the clock and Control follow the new world. A device the new
// world has too (the same model name and device, so the same hash key and port) keeps its
// sockets: its clients stay connected and read the new world's model, where a port closed and
// bound again left each libzmq client without data until it reconnected (cloisim_ros: 1 s). The bridge face
// ([Face]) does this whenever the host's active world changes, so cloisim_ros sees the robots
// of the world on show (a training episode's, for example).
//
// The parts name of a sensor is its id with every character other than letters, digits and
// '_' replaced by '_' ("lidar.top" → "lidar_top"): cloisim_ros names a ROS node after it.
// The same name is the device's ROS topic name and frame id; its parent frame is base_link,
// which sits on base_footprint (the vehicle's centre on the ground).
//
// The bridge reads topics and the loop's immutable snapshots and sends commands on topics;
// it never touches the world. Nodes follow the snapshot: a spawned model gets ports, a removed
// one loses them (both maps of the Manager stay exact). A data port reads its topic only while
// a client subscribes, so sensors that render for subscribers do no work for nobody.
//
// # Wire
//
// ZeroMQ ZMTP 3.0 over TCP with the NULL mechanism, one frame per message: the 8-byte tag,
// then the payload. go-zeromq/zmq4 provides the protocol (handshake and framing, zmq4.Open);
// the sockets around it are this package's, so that
//
//   - each connection does its handshake on its own goroutine under a deadline, and a client
//     that connects and says nothing delays nobody;
//   - each subscriber of a PUB port has its own queue (Config.QueueLen messages) that drops its
//     oldest message when full, like libzmq's per-pipe high-water mark: a slow or stalled
//     subscriber loses frames, others on the same port and the simulation do not notice; a
//     subscriber that accepts nothing for Config.WriteTimeout is disconnected (libzmq clients
//     reconnect by themselves);
//   - REP answers each connection's requests in order and echoes the request envelope up to
//     the empty delimiter, as libzmq's REP does, so REQ clients with ZMQ_REQ_CORRELATE and
//     ZMQ_REQ_RELAXED (cloisim_ros) accept the replies. Unknown requests get an empty reply.
//
// # Limits
//
// A client can make a port hold little: every byte it sends passes a scanner of the ZMTP
// frame stream before zmq4 sees it, and a frame header (in the handshake too) that takes a
// message over Config.MaxMessage (default 4 KiB, as libzmq's ZMQ_MAXMSGSIZE) or 64 frames
// ends the connection with a warning naming the client's address — zmq4 allocates a frame's
// body from its declared size. A port serves at most Config.MaxPeers (64) connections, and
// the ports of a bridge together Config.MaxConns (8192), so that they leave file descriptors
// for the rest of the process; a subscriber keeps at most the nine prefixes of the port's tag. A panic while serving a
// client (zmq4 v0.17.0 panics on some READY commands), in a feed or in discovery is
// recovered and logged; the rest of the bridge and the world go on. micom Rx refuses Twists
// with a component that is NaN, ±Inf or beyond ±MaxTwist (1000 m/s or rad/s).
//
// # Concurrency
//
// A [Manager] and a [Bridge] are safe for concurrent use; getters return copies. The bridge
// runs a goroutine per socket connection and per fed port, all stopped by Close.
package bridge
