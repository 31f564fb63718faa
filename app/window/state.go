package window

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
)

// State is what the window writes to Options.StateFile: enough for a test that drives the
// window with real key events to check what happened.
type State struct {
	// SimTime in seconds, Step the world's step count.
	SimTime   float64 `json:"simTime"`
	Step      uint64  `json:"step"`
	Paused    bool    `json:"paused"`
	TimeScale float64 `json:"timeScale"`
	// Selected is the selected robot ("" for none) and Pose its pose: x, y metres, yaw radians.
	Selected string     `json:"selected"`
	Pose     [3]float64 `json:"pose"`
	Forward  float64    `json:"forward"`
	Throttle float64    `json:"throttle"`
	Steer    float64    `json:"steer"`
	Models   int        `json:"models"`
	// Track is the running scenario's track.
	Track string `json:"track"`
	// Robots holds every robot's pose (x, y metres, yaw radians) by name, for up to
	// maxStateRobots robots.
	Robots map[string][3]float64 `json:"robots,omitempty"`
	// Ranges holds the selected robot's range sensor readings (metres) by sensor id.
	Ranges map[string]float64 `json:"ranges,omitempty"`
	// Frames counts camera frames received per sensor of the selected robot.
	Frames map[string]uint64 `json:"frames"`
	// Rates is the rate camera frames arrive at per sensor, Hz of wall time.
	Rates map[string]float64 `json:"rates"`
	// Prompt is the title of the open file prompt, "" for none.
	Prompt string `json:"prompt"`
	// PromptText is the path typed (or chosen) in it; PromptNote the line under it (asking to
	// confirm an overwrite, for example).
	PromptText string `json:"promptText"`
	PromptNote string `json:"promptNote,omitempty"`
	// Enlarged is the sensor of the enlarged camera panel, "" for none.
	Enlarged string `json:"enlarged"`
	Chase    bool   `json:"chase"`
	// ChaseFrames counts the pictures the 3D view has drawn.
	ChaseFrames uint64 `json:"chaseFrames"`
	// View is the top-down view: the world point at the window's centre (metres) and the
	// scale (pixels per metre).
	View [3]float64 `json:"view"`
	// Cursor is where the window last saw the pointer, window pixels; Clicks counts the
	// left-button presses it saw and LastClick is where the last one was.
	Cursor    [2]int `json:"cursor"`
	Clicks    int    `json:"clicks"`
	LastClick [2]int `json:"lastClick"`
	// Focused reports whether the window has the keyboard focus; Keys counts the key presses
	// it saw.
	Focused bool `json:"focused"`
	Keys    int  `json:"keys"`
	// Picked is the vehicle the spawn list has armed, "" for none.
	Picked string `json:"picked,omitempty"`
	// SteerHold is how long, in seconds of wall time, the keyboard driving counted the last
	// steering key press that ended, and SteerSim how long the simulation steered for it
	// (sim seconds from the command that started the steering to the one that ended it).
	// SteerPeak is the largest |steer| the simulation was given in that press and SteerArea
	// the press's |steer| summed over its sim seconds.
	SteerHold float64 `json:"steerHold"`
	SteerSim  float64 `json:"steerSim"`
	SteerPeak float64 `json:"steerPeak"`
	SteerArea float64 `json:"steerArea"`
	Screen    string  `json:"screen"`
	TPS       float64 `json:"tps"`
	FPS       float64 `json:"fps"`
	// Shots lists the screenshots written, in order.
	Shots []string `json:"shots"`
	// Recording is the file F9's recording is writing, "" when none runs.
	Recording string `json:"recording,omitempty"`
	// OtherRecordings are the files others record (the control socket, --record), as the
	// HUD names them.
	OtherRecordings []string `json:"otherRecordings,omitempty"`
	// Status is the status line.
	Status string `json:"status"`
	// Scenario is the source of the scenario on show.
	Scenario string `json:"scenario"`
	// Follow says whether the view follows the selected robot.
	Follow bool `json:"follow"`
	// World is the ID of the world on show; Worlds counts the host's worlds.
	World  string `json:"world"`
	Worlds int    `json:"worlds"`
	// Targets are the clickable things on the screen, by name ("tool:Pause (P)",
	// "spawn:vehicle.ks0223.v1", "panel:camera.front.rgb"), as [x0, y0, x1, y1] in window
	// pixels, so that a test can click them with real mouse events; "hud", "help" and "bar"
	// are the HUD, the F1 overlay and the toolbar.
	Targets map[string][4]int `json:"targets"`
}

// maxStateRobots bounds State.Robots.
const maxStateRobots = 1000

// writePNG encodes RGBA pixels (premultiplied, opaque here) to a PNG file atomically.
func writePNG(path string, w, h int, pix []byte) error {
	img := &image.RGBA{Pix: pix, Stride: 4 * w, Rect: image.Rect(0, 0, w, h)}
	for i := 3; i < len(pix); i += 4 {
		pix[i] = 255 // the screen is opaque; do not let stray alpha show through in viewers
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	return writeAtomic(path, buf.Bytes())
}
