package fastpath

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"time"
)

// ProtocolVersion is the version of the wire protocol (doc.go). Version 1 is still served:
// its step message carries (throttle, steer) for every vehicle, so a flying one cannot climb.
// An open request naming another version is refused.
const ProtocolVersion = 2

// Action names, the columns of a step message's actions (OpenReply.Actions).
const (
	actionThrottle = "throttle"
	actionSteer    = "steer"
	actionVertical = "vertical"
)

// maxActions is the most actions an env takes per step.
const maxActions = 3

// Message types. Requests come from the client, replies from simgui.
const (
	msgOpen    byte = 0x01 // JSON OpenRequest
	msgStep    byte = 0x02 // binary step request
	msgClose   byte = 0x03 // empty
	msgOpened  byte = 0x81 // JSON OpenReply, with the shared memory's file descriptor
	msgStepped byte = 0x82 // empty, or JSON StepReply when envs were reset
	msgClosed  byte = 0x83 // empty
	msgError   byte = 0xEE // JSON {"error": "...", "field": "..."} (field: see errorBody)
)

// Size limits of requests, checked before anything is allocated.
const (
	headerLen = 8
	// MaxOpenBytes bounds an open request (its scenario YAML included).
	MaxOpenBytes = 1 << 20
	// MaxScenarioBytes bounds the scenario YAML inside it.
	MaxScenarioBytes = 256 << 10
)

var magic = [2]byte{'S', 'G'}

// header is the 8 bytes in front of every message: "SG", the type, a zero byte, and the
// payload's length (uint32, little-endian).
func header(typ byte, n int) [headerLen]byte {
	var h [headerLen]byte
	h[0], h[1], h[2] = magic[0], magic[1], typ
	binary.LittleEndian.PutUint32(h[4:], uint32(n))
	return h
}

// protocolError is a malformed message: the connection cannot be trusted to stay in step and
// is closed after the error is answered.
type protocolError struct{ msg string }

func (e *protocolError) Error() string { return e.msg }

func protocolErrorf(format string, args ...any) error {
	return &protocolError{fmt.Sprintf(format, args...)}
}

// readMessage reads one message; limit gives the largest payload a message type may have now,
// ok false when the type is not a request expected now.
func readMessage(r io.Reader, buf []byte, limit func(typ byte) (max int, ok bool)) (typ byte, payload []byte, err error) {
	var h [headerLen]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return 0, nil, err
	}
	if h[0] != magic[0] || h[1] != magic[1] || h[3] != 0 {
		return 0, nil, protocolErrorf("not a fast path message (header % x)", h)
	}
	typ = h[2]
	n := int(binary.LittleEndian.Uint32(h[4:]))
	max, ok := limit(typ)
	switch {
	case !ok:
		return 0, nil, protocolErrorf("message type 0x%02x is not a request expected now (open first, then step or close)", typ)
	case n > max && typ == msgStep:
		// A step message has one length per session: say so, not just "over the limit".
		return 0, nil, protocolErrorf("step message of %d bytes; this session's are %d (its envs × their actions, see the open reply's actions)", n, max)
	case n > max:
		return 0, nil, protocolErrorf("message type 0x%02x of %d bytes is over its limit of %d", typ, n, max)
	}
	if cap(buf) < n {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	if _, err := io.ReadFull(r, buf); err != nil {
		return 0, nil, err
	}
	return typ, buf, nil
}

// writeMessage writes one message, with oob (file descriptors) on its first byte.
//
// A client that stops reading has replyTimeout to take the reply before the write fails
// and the session ends: it held its slot and its worlds for ever.
func writeMessage(c *net.UnixConn, typ byte, payload, oob []byte) error {
	c.SetWriteDeadline(time.Now().Add(replyTimeout))
	h := header(typ, len(payload))
	msg := append(h[:], payload...)
	if len(oob) > 0 {
		n, oobn, err := c.WriteMsgUnix(msg, oob, nil)
		if err != nil {
			return err
		}
		if oobn != len(oob) {
			return errors.New("fast path: the file descriptor was not sent")
		}
		msg = msg[n:]
		if len(msg) == 0 {
			return nil
		}
	}
	_, err := c.Write(msg)
	return err
}

// replyTimeout bounds how long a reply may wait for its client to read it.
const replyTimeout = 30 * time.Second

// writeJSON writes a JSON message.
func writeJSON(c *net.UnixConn, typ byte, v any, oob []byte) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return writeMessage(c, typ, b, oob)
}

// OpenRequest is the body of an open message: the envs to make. Unknown fields are an error.
type OpenRequest struct {
	// Protocol must be ProtocolVersion.
	Protocol int `json:"protocol"`
	// Scenario is a scenario in YAML; "" takes the process's scenario. Its faces block is
	// refused: faces are configured where simgui starts.
	Scenario string `json:"scenario"`
	// Envs is how many envs (worlds) the session steps, 1..MaxEnvs.
	Envs int `json:"envs"`
	// FrameWidth and FrameHeight set the first camera's frame size (16..1024 px a side); 0
	// keeps the camera's own size.
	FrameWidth  int `json:"frameWidth"`
	FrameHeight int `json:"frameHeight"`
	// VehicleParams go over the scenario's vehicle params, as a reset's vehicleParams do
	// (plugins.ApplyVehicleConfig keys and the image gains camera.brightness,
	// camera.color_gain_r/g/b).
	VehicleParams map[string]any `json:"vehicleParams"`
	// TrackParams go over the scenario's track params (world frame).
	TrackParams map[string]any `json:"trackParams"`
	// Randomization changes the scenario's randomization block: "enabled" and
	// "<group>.<param>" as a reset's randomization.* flags take them ("0.2", "lo,hi",
	// "schema").
	Randomization map[string]string `json:"randomization"`
	// ActionPeriod overrides the scenario's runtime.actionPeriod, seconds (0 keeps it).
	ActionPeriod float64 `json:"actionPeriod"`
	// Sensors lists the vehicle's sensors the envs run (mount ids); empty runs them all. The
	// first camera is always run. Sensors draw from streams of their own, so leaving some out
	// changes nothing the others report; it saves their work on every step.
	Sensors []string `json:"sensors"`
	// Layout adds the track's elements to every reset's info (for drawing maps).
	Layout bool `json:"layout"`
	// Label names the session in the window's world list.
	Label string `json:"label"`
}

// OpenReply answers an open request. The shared memory's file descriptor comes with it
// (SCM_RIGHTS).
type OpenReply struct {
	Protocol int      `json:"protocol"`
	Session  string   `json:"session"`
	Worlds   []string `json:"worlds"`
	Envs     int      `json:"envs"`
	Frame    struct {
		Width    int `json:"width"`
		Height   int `json:"height"`
		Channels int `json:"channels"`
	} `json:"frame"`
	StepSize       float64 `json:"stepSize"`
	ActionPeriod   float64 `json:"actionPeriod"`
	StepsPerAction int     `json:"stepsPerAction"`
	TrackID        string  `json:"trackId"`
	VehicleID      string  `json:"vehicleId"`
	// Actions name the float64s of each env's action in a step message, in order: throttle
	// and steer (−1..1, steer > 0 turning right as rusim's), and vertical (−1..1, climbing)
	// for a vehicle that flies, from protocol 2 on.
	Actions []string  `json:"actions"`
	Memory  MemLayout `json:"memory"`
}

// MemLayout says where the shared memory holds what.
type MemLayout struct {
	Size int `json:"size"`
	// Images: Envs frames of Height×Width×Channels bytes, rows top first, Stride apart.
	ImageOffset int `json:"imageOffset"`
	ImageStride int `json:"imageStride"`
	// State: Envs rows of len(StateFields) little-endian float64s, StateStride apart.
	StateOffset int      `json:"stateOffset"`
	StateStride int      `json:"stateStride"`
	StateFields []string `json:"stateFields"`
}

// StepReply lists the envs a step request reset, with what their new episodes drew.
type StepReply struct {
	Resets []ResetInfo `json:"resets"`
}

// ResetInfo describes an env's new episode.
type ResetInfo struct {
	Env  int   `json:"env"`
	Seed int64 `json:"seed"`
	// Draws are the values domain randomization drew (vehicle params and track.<param>), keyed
	// as a reset's randomization info is (scenario.Drawn.Key).
	Draws       map[string]float64 `json:"draws"`
	TrackParams map[string]any     `json:"trackParams"`
	Route       *RouteInfo         `json:"route"`
	Spawn       [3]float64         `json:"spawn"` // x, y, yaw (rad)
	// Elements are the track's walls and boxes when the session asked for the layout:
	// [x, y, length, width, yawDeg] each.
	Elements [][5]float64 `json:"elements,omitempty"`
}

// RouteInfo is the episode's route.
type RouteInfo struct {
	Waypoints [][2]float64 `json:"waypoints"`
	Reach     float64      `json:"reach"`
	Loop      bool         `json:"loop"`
}

// Step request kinds, one per env.
const (
	kindHold  byte = 0 // leave the env as it is; its observation stays the last one
	kindStep  byte = 1 // apply the action and advance one action period
	kindReset byte = 2 // start a new episode with the seed
)

// stepRequest is a decoded step message.
type stepRequest struct {
	kinds []byte
	// actions are (throttle, steer, vertical); vertical is 0 in a session without it.
	actions [][maxActions]float64
	seeds   []int64
}

// stepPayloadLen is the length of a step message for n envs of a actions each: n (uint32), a
// zero uint32, n kinds padded to 8 bytes, n × a float64 actions, n int64 seeds.
func stepPayloadLen(n, a int) int { return 8 + pad8(n) + 8*a*n + 8*n }

func pad8(n int) int { return (n + 7) &^ 7 }

// decodeStep checks and decodes a step message for a session of n envs taking a actions each.
func decodeStep(b []byte, n, a int, req *stepRequest) error {
	if len(b) != stepPayloadLen(n, a) {
		return protocolErrorf("step message of %d bytes; want %d for %d envs of %d actions", len(b), stepPayloadLen(n, a), n, a)
	}
	if got := int(binary.LittleEndian.Uint32(b)); got != n {
		return protocolErrorf("step message for %d envs; the session has %d", got, n)
	}
	if z := binary.LittleEndian.Uint32(b[4:]); z != 0 {
		return protocolErrorf("step message's second word is %d; it must be 0", z)
	}
	req.kinds = append(req.kinds[:0], b[8:8+n]...)
	acts := b[8+pad8(n):]
	seeds := acts[8*a*n:]
	req.actions = req.actions[:0]
	req.seeds = req.seeds[:0]
	for i := range n {
		var act [maxActions]float64
		finite := true
		for k := range a {
			act[k] = math.Float64frombits(binary.LittleEndian.Uint64(acts[8*(a*i+k):]))
			finite = finite && !math.IsNaN(act[k]) && !math.IsInf(act[k], 0)
		}
		req.actions = append(req.actions, act)
		req.seeds = append(req.seeds, int64(binary.LittleEndian.Uint64(seeds[8*i:])))
		switch req.kinds[i] {
		case kindHold, kindReset:
		case kindStep:
			if !finite {
				return fmt.Errorf("env %d: action %v is not finite", i, act[:a])
			}
		default:
			return fmt.Errorf("env %d: kind %d is not 0 (hold), 1 (step) or 2 (reset)", i, req.kinds[i])
		}
	}
	return nil
}
