//go:build race

package window

// raceEnabled makes the GUI tests build simgui with the race detector too.
const raceEnabled = true
