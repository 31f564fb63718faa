// Package starttrack is CLOiSim's PluginStartTracker: it knows which systems and devices a
// world expects, collects their "started" (or "failed") reports as they come, reports progress,
// and says when all have started — the world counts as loaded only then. Wait gives up after a
// timeout (DefaultTimeout, 30 s as CLOiSim) and names the ones that never started.
//
// Reports may arrive before Bind names what to expect (a device that starts while the world is
// still being built); they count once Bind lists their names.
//
// # Concurrency
//
// A Tracker is safe for concurrent use. The progress callback runs on the goroutine that made
// the report, never concurrently with itself, in report order.
package starttrack
