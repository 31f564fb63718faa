// Package control is simgui's WebSocket SimulationService, compatible with CLOiSim's: /control
// for simulation commands and /markers for visual markers (package markers), on 127.0.0.1:8080
// by default (CLOISIM_SERVICE_PORT or the CLI's --control-port change the port; the face's ip,
// the CLI's --control-ip or --bridge-ip, the address).
//
// # /control
//
// A request is a JSON object {command, indent, filter, filename, target_model, ...}; the answer
// is {"sim_version": "5.4.2", "command": <the request's>, "result": ...}, indented when indent is
// true. cloisim_ros sends single-quoted JSON ({'command':'device_list','filter':”}), which is
// accepted. Commands (CLOiSim's first, then simgui's):
//
//	reset           reset the world with its seed: "ok" at once, or "fail" while another reset
//	                runs; with clients on the device bridge's world Control port it asks them
//	                first (Param{reset_simulation: true}) and resets the world after their
//	                answers, as CLOiSim does; without, the world is reset before the answer
//	device_list     {filter: model prefix} the bridge's model → type → parts → key → port map
//	port_list       {filter: hashKey prefix} the bridge's hashKey → port map
//	fps             the achieved step rate (steps per wall second), as a string: "200" — CLOiSim
//	                answers its rendering FPS; simgui's frames are its steps
//	start_record    {filename} record every topic to <RecordDir>/<filename>.mcap: "True"
//	stop_record     close the recording cleanly: "True"
//	get_model_info  {target_model} {name, pose:{position{x,y,z}, orientation{roll,pitch,yaw}}}
//	teleport        {targets:[{target, pose:{x,y,z,roll,pitch,yaw}, reset}], world_reset}: "ok"
//	pause, resume   stop and restart free running ("ok"); step still works while paused
//	step            {steps: N (default 1, at most MaxSteps)} run N steps, answer after they ran:
//	                {steps, iterations, sim_time (seconds)} — lockstep control
//	set_time_scale  {scale: x} sim time runs at x × wall time, 0 as fast as possible: "ok"
//
// Errors are answered in "result" as CLOiSim words them: "invalid json: ...", "request body is
// empty", "command is empty", "unsupported command '...'", "filter is too long (max 256
// characters)", "filename is empty!!", "filename is too long (max 512 characters)",
// "target_model is empty", "model '...' not found", "targets list is empty", ... A request that
// could not be read is answered with an empty command. The session stays open after any error.
//
// The world is the host's active world (Options.World, asked at every command): the scenario's,
// or a training episode's while one is on show.
//
// Differences from CLOiSim, on purpose: teleport and start_record answer after the work is
// done rather than at once, as reset does when no world Control client is to be asked; a teleport with world_reset resets first, then places the models
// (CLOiSim resets afterwards, which undoes the teleport); a zero-length message is answered
// "request body is empty" instead of ignored; start_record refuses absolute paths, "..",
// symlinks and existing files.
//
// # /markers
//
// {command: Add|Modify|Remove|List, markers:[...], filter:{group,id,type}} answered with
// {command (lower case), result: "ok"|"fail"} and, for List, lines, texts, boxes and spheres. A
// failed request also carries "error" saying why (CLOiSim answers nothing). Markers are attached
// to the world as the overlay markers.OverlayKey and published on markers.Topic.
//
// # Exposure
//
// The service listens on loopback unless told otherwise. Browsers and rebound names are kept
// out by package httpguard: the Host must be an IP address, localhost or a name in
// Options.AllowHosts (--allow-host), and a request with an Origin header is refused (403)
// unless the origin is in Options.AllowOrigins (--allow-origin) or is the same host given as
// an IP address or localhost — a same-host check on a DNS name would let DNS rebinding
// through. Non-browser clients (cloisim_ros, Python) send no Origin. With Options.Token every
// session must present it (?token= or Authorization: Bearer). Requests over
// Options.MaxMessage (1 MiB) are answered with an error and dropped; over eight times that
// the session is closed (1009). Malformed requests get an error answer and the session stays
// up. Each session is served in order, one request at a time, and world commands from all
// sessions together hold at most four places in the loop's queue, so clients flooding
// commands add bounded work to each step; reading commands (device_list, port_list, fps) do
// not touch the loop at all. With MaxSessions (64) open, a new session closes the one idle
// the longest (close code 1013, "try again later"); it is refused (503) only while every
// session is answering a request.
//
// Numbers are checked where they enter: set_time_scale takes 0 or a scale up to 1e6
// (world.CheckTimeScale), teleport poses within ±1e6 m and yaws within ±1e6 rad
// (world.CheckPose). start_record writes only inside RecordDir: the name must be local, every
// folder on the way a real folder (a symlink is refused), and the file is created new with
// O_NOFOLLOW through an os.Root. The marker store holds at most markers.MaxMarkers (4096).
//
// # Concurrency
//
// A Service is safe for concurrent use. Each session runs on the goroutine of its HTTP handler.
// The world is reached only through world.Loop (Do, Call, Step, Pause, ...).
package control
