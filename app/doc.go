// Package app is the simulator process. A Host runs the worlds — the scenario's and those of
// training episodes, every one made by Build from a scenario plan (bus, world, systems,
// sensors, loop) — chooses the active world, the one the user looks at, and starts and stops
// the faces around them: the window, the device bridge, /control, the recorder and the
// training API, each a Face registered by name in its own folder.
//
//	host
//	 ├─ worlds: scenario · episode-1 · episode-2/agent-1 …   (Build: plan → bus → world →
//	 │          systems (gz topics, clock, odometry, the scenario's) → sensors → loop)
//	 ├─ active world: picked by the user, else the live training episode, else the scenario
//	 └─ faces: faces.window · faces.bridge · faces.control · faces.record · faces.api
//
// Faces import app, never each other: they ask the host for worlds (Worlds, Active), hear
// through Changed when the set or the active world changes, and find what other faces offer
// (Devices from the bridge, Recorder from the recorder).
//
// Nothing here imports Ebiten or GTK.
package app
