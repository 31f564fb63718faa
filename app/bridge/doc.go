// Package bridge is simgui's CLOiSim-compatible device bridge: the port registry that CLOiSim
// calls BridgeManager ([Manager]) and the 8-byte message tag ([Tag]). The per-device ZeroMQ
// endpoints will live here too.
//
// # Port registry
//
// Every device channel (a model's part and a control key such as "Data", "Info", "Rx", "Tx")
// gets its own TCP port from 49152 to 65535. Its hashKey is modelName + partsName + subPartsName
// + controlKey, concatenated without a separator; the same string, hashed with [Tag], prefixes
// every message on that port. The registry keeps the flat hashKey → port map (the /control
// "port_list" answer) and the model → device type → parts → key → port map ("device_list",
// from which cloisim_ros builds its nodes).
//
// Unlike CLOiSim, which only looks at active TCP connections, a port counts as free only if
// we can bind it on the configured IP (default 127.0.0.1), so ports other programs listen on
// are skipped.
//
// # Concurrency
//
// A [Manager] is safe for concurrent use; getters return copies.
package bridge
