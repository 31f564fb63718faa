package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The wire types mirror rusim's Unity DTOs (rusim's Assets/Scripts/Contracts): every field is always
// emitted (empty strings, empty lists, zero objects), requests may omit fields (zero values)
// and carry unknown ones (ignored). Field order follows the reference, so the JSON of a reply
// depends only on its values.

// KV is rusim's ConfigKeyValue. Value is a string on the wire; numbers and booleans are
// accepted in requests and kept as their JSON text.
type KV struct {
	Key   string  `json:"key"`
	Value KVValue `json:"value"`
}

// KVValue is a KV's value: a JSON string, or a number or boolean taken as its text.
type KVValue string

// UnmarshalJSON implements json.Unmarshaler.
func (v *KVValue) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*v = KVValue(s)
		return nil
	}
	switch {
	case string(b) == "null":
		*v = ""
	case string(b) == "true" || string(b) == "false":
		*v = KVValue(b)
	case len(b) > 0 && (b[0] == '-' || b[0] >= '0' && b[0] <= '9'):
		*v = KVValue(b)
	default:
		return fmt.Errorf("a key/value value must be a string, number or boolean, got %s", b)
	}
	return nil
}

// ResetRequest is the body of POST /reset.
type ResetRequest struct {
	Seed              int64          `json:"seed"`
	TimeScale         float64        `json:"timeScale"`
	SelectedTrackID   string         `json:"selectedTrackId"`
	SelectedVehicleID string         `json:"selectedVehicleId"`
	TrackParams       []KV           `json:"trackParams"`
	VehicleParams     []KV           `json:"vehicleParams"`
	Flags             []KV           `json:"flags"`
	Agents            []AgentRequest `json:"agents"`
}

// AgentRequest is one entry of ResetRequest.Agents.
type AgentRequest struct {
	AgentID       string `json:"agentId"`
	VehicleID     string `json:"vehicleId"`
	IsPrimary     bool   `json:"isPrimary"`
	TrackParams   []KV   `json:"trackParams"`
	VehicleParams []KV   `json:"vehicleParams"`
	Flags         []KV   `json:"flags"`
}

// StepRequest is the body of POST /step (rusim's ControlCommand). Throttle and Steer are in
// −1..1 with rusim's sign: Steer > 0 turns right. DiscreteAction (DirStop, DirForward, DirBack,
// DirLeft, DirRight), which rusim's multi-agent env sends and Unity ignores, is honoured here
// when no throttle or steer is given. Actions is a simgui extension: several agents' commands
// applied and stepped together (see the package doc).
type StepRequest struct {
	Throttle        float64      `json:"throttle"`
	Steer           float64      `json:"steer"`
	Brake           float64      `json:"brake"`
	TargetAgentID   string       `json:"targetAgentId"`
	TargetVehicleID string       `json:"targetVehicleId"`
	Timestamp       int64        `json:"timestamp"`
	TimeBase        string       `json:"timeBase"`
	Extensions      []KV         `json:"extensions"`
	DiscreteAction  string       `json:"discreteAction"`
	Actions         []StepAction `json:"actions"`
}

// StepAction is one agent's command in StepRequest.Actions.
type StepAction struct {
	Throttle        float64 `json:"throttle"`
	Steer           float64 `json:"steer"`
	Brake           float64 `json:"brake"`
	TargetAgentID   string  `json:"targetAgentId"`
	TargetVehicleID string  `json:"targetVehicleId"`
	Extensions      []KV    `json:"extensions"`
	DiscreteAction  string  `json:"discreteAction"`
}

// Float is a number of a reply written as Unity's JsonUtility writes a float: always with a
// fraction or an exponent (0.0, 1.0, 0.25), so that a client's JSON parser reads a float, never
// an integer ("reward":0.0 as rusim sends it).
type Float float64

// MarshalJSON writes f as encoding/json writes a float64, with ".0" after a whole number.
func (f Float) MarshalJSON() ([]byte, error) {
	x := float64(f)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil, fmt.Errorf("api: %v is not a JSON number", x)
	}
	if x == 0 {
		x = 0 // −0 too: JSON never shows "-0.0"
	}
	b := make([]byte, 0, 24)
	format := byte('f')
	if a := math.Abs(x); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, x, format, -1, 64)
	if format == 'e' {
		// 1e-07 to 1e-7, as encoding/json does.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
		return b, nil
	}
	if !bytes.ContainsRune(b, '.') {
		b = append(b, '.', '0')
	}
	return b, nil
}

// Vec3 is a vector in Unity axes (y up, z forward).
type Vec3 struct {
	X Float `json:"x"`
	Y Float `json:"y"`
	Z Float `json:"z"`
}

// Quat is a rotation quaternion in Unity axes.
type Quat struct {
	X Float `json:"x"`
	Y Float `json:"y"`
	Z Float `json:"z"`
	W Float `json:"w"`
}

// Pose is a position and rotation in Unity axes.
type Pose struct {
	Position Vec3 `json:"position"`
	Rotation Quat `json:"rotation"`
}

// State is rusim's VehicleState.
type State struct {
	Pose            Pose   `json:"pose"`
	LinearVelocity  Vec3   `json:"linearVelocity"`
	AngularVelocity Vec3   `json:"angularVelocity"`
	Speed           Float  `json:"speed"`
	Timestamp       int64  `json:"timestamp"`
	TimeBase        string `json:"timeBase"`
	Telemetry       []KV   `json:"telemetry"`
}

// Frame is rusim's camera frame DTO; a zero Frame is what agents without a frame carry.
type Frame struct {
	FrameID     string `json:"frameId"`
	Width       int    `json:"width"`
	Height      int    `json:"height"`
	Format      string `json:"format"`
	Encoding    string `json:"encoding"`
	Timestamp   int64  `json:"timestamp"`
	TimeBase    string `json:"timeBase"`
	BytesLength int    `json:"bytesLength"`
	DataRef     string `json:"dataRef"`
	DataBase64  string `json:"dataBase64"`
}

// AgentState is one entry of StepResult.Agents.
type AgentState struct {
	AgentID   string `json:"agentId"`
	VehicleID string `json:"vehicleId"`
	State     State  `json:"state"`
	Frame     Frame  `json:"frame"`
}

// StepResult is the reply to /reset and /step.
type StepResult struct {
	ActiveAgentID   string       `json:"activeAgentId"`
	ActiveVehicleID string       `json:"activeVehicleId"`
	State           State        `json:"state"`
	Reward          Float        `json:"reward"`
	Done            bool         `json:"done"`
	Info            []KV         `json:"info"`
	Frame           Frame        `json:"frame"`
	Agents          []AgentState `json:"agents"`
}

// Health is the reply to GET /health (the newer facade's fields; clients read status).
type Health struct {
	Status               string   `json:"status"`
	PluginRegistrySource string   `json:"pluginRegistrySource"`
	AvailableVehicles    int      `json:"availableVehicles"`
	AvailableTracks      int      `json:"availableTracks"`
	ActiveAgentID        string   `json:"activeAgentId"`
	ActiveVehicleID      string   `json:"activeVehicleId"`
	ActiveTrackID        string   `json:"activeTrackId"`
	ActiveVehicleCount   int      `json:"activeVehicleCount"`
	ActiveAgentIDs       []string `json:"activeAgentIds"`
	ActiveVehicleIDs     []string `json:"activeVehicleIds"`
}

// Contract is the reply to GET /contract.
type Contract struct {
	SimulatorID       string      `json:"simulatorId"`
	SimulatorName     string      `json:"simulatorName"`
	ContractVersion   string      `json:"contractVersion"`
	TransportInfo     string      `json:"transportInfo"`
	AvailableVehicles []Device    `json:"availableVehicles"`
	AvailableTracks   []TrackInfo `json:"availableTracks"`
}

// Device is a vehicle's device contract as /contract lists it.
type Device struct {
	DeviceID              string     `json:"deviceId"`
	DeviceType            string     `json:"deviceType"`
	Sensors               []Sensor   `json:"sensors"`
	Actuators             []Actuator `json:"actuators"`
	ObservationSchemaJSON string     `json:"observationSchemaJson"`
	ActionSchemaJSON      string     `json:"actionSchemaJson"`
}

// Sensor is one sensor of a Device.
type Sensor struct {
	ID         string `json:"id"`
	SensorType string `json:"sensorType"`
	Format     string `json:"format"`
	Unit       string `json:"unit"`
	Shape      []int  `json:"shape"`
	RateHz     Float  `json:"rateHz"`
}

// Actuator is one control channel of a Device.
type Actuator struct {
	ID           string `json:"id"`
	ActuatorType string `json:"actuatorType"`
	Unit         string `json:"unit"`
	Min          Float  `json:"min"`
	Max          Float  `json:"max"`
}

// TrackInfo is one track as /contract lists it.
type TrackInfo struct {
	TrackID              string `json:"trackId"`
	DisplayName          string `json:"displayName"`
	ParametersSchemaJSON string `json:"parametersSchemaJson"`
}

// errorBody is every error reply: {"error": msg}.
type errorBody struct {
	Error string `json:"error"`
}

// fmt3 formats x with at most three decimals and no trailing zeros, as rusim's telemetry
// strings ("0.73", "1", "-0.5", "3.5"); −0 prints as "0".
func fmt3(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "0"
	}
	x = math.Round(x*1000) / 1000
	if x == 0 {
		return "0"
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// fmtExact formats x so that parsing the text gives x back (for replayable draws). A whole
// number (a seed drawn) is written without an exponent, so that int() and Atoi read it too.
func fmtExact(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// kvLookup finds key in kvs case-insensitively; the last match wins.
func kvLookup(kvs []KV, key string) (string, bool) {
	v, ok := "", false
	for _, kv := range kvs {
		if strings.EqualFold(strings.TrimSpace(kv.Key), key) {
			v, ok = string(kv.Value), true
		}
	}
	return v, ok
}

// mergeKVs returns base with over applied: a key of over replaces the base entry with the same
// key in any case (rusim: agent KVs override the global ones, case-insensitively). Order is
// base's, then new keys of over.
func mergeKVs(base, over []KV) []KV {
	out := make([]KV, 0, len(base)+len(over))
	at := make(map[string]int, len(base)+len(over)) // index in out by lower-case key
	for _, kv := range base {
		kv.Key = strings.TrimSpace(kv.Key)
		if i, ok := at[foldKey(kv.Key)]; ok {
			out[i] = kv
			continue
		}
		at[foldKey(kv.Key)] = len(out)
		out = append(out, kv)
	}
	for _, kv := range over {
		kv.Key = strings.TrimSpace(kv.Key)
		if i, ok := at[foldKey(kv.Key)]; ok {
			out[i].Value = kv.Value // the base's spelling of the key stays
			continue
		}
		at[foldKey(kv.Key)] = len(out)
		out = append(out, kv)
	}
	return out
}

// foldKey folds key for matching without case, as strings.EqualFold does (it also takes the
// Turkish dotted and dotless i for i, which no key simgui knows has).
func foldKey(key string) string { return strings.ToLower(strings.ToUpper(key)) }
