package foxglovews

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
)

// Subprotocol is the WebSocket subprotocol of Foxglove's live connection, which a client
// asks for and the server must select.
const Subprotocol = "foxglove.websocket.v1"

// opMessageData begins a binary Message Data frame: then the subscription ID (uint32), the
// receive time in nanoseconds (uint64), both little-endian, and the message.
const opMessageData = 0x01

// messageHeader is the length of a Message Data frame's header.
const messageHeader = 1 + 4 + 8

// Status levels.
const (
	levelInfo    = 0
	levelWarning = 1
	levelError   = 2
)

// serverInfo is the first message a client gets. simgui offers no optional capability: its
// clients watch (subscribe), they neither publish, set parameters nor call services.
type serverInfo struct {
	Op           string            `json:"op"`
	Name         string            `json:"name"`
	Capabilities []string          `json:"capabilities"`
	Metadata     map[string]string `json:"metadata,omitempty"`
	SessionID    string            `json:"sessionId"`
}

// advertised is a channel as Advertise describes it. A protobuf channel's schema is its
// FileDescriptorSet, base64-encoded.
type advertised struct {
	ID             uint32 `json:"id"`
	Topic          string `json:"topic"`
	Encoding       string `json:"encoding"`
	SchemaName     string `json:"schemaName"`
	Schema         string `json:"schema"`
	SchemaEncoding string `json:"schemaEncoding"`
}

type advertise struct {
	Op       string       `json:"op"`
	Channels []advertised `json:"channels"`
}

type unadvertise struct {
	Op         string   `json:"op"`
	ChannelIDs []uint32 `json:"channelIds"`
}

type status struct {
	Op      string `json:"op"`
	Level   int    `json:"level"`
	Message string `json:"message"`
}

// request is what a client sends: Subscribe, Unsubscribe, or an op simgui does not serve.
// Each entry is decoded on its own (subscription), so that one bad entry costs only itself.
type request struct {
	Op              string            `json:"op"`
	Subscriptions   []json.RawMessage `json:"subscriptions"`
	SubscriptionIDs []json.RawMessage `json:"subscriptionIds"`
}

// subscription is an entry of a Subscribe. IDs are uint32, so a negative, fractional or too
// large one fails to decode.
type subscription struct {
	ID        *uint32 `json:"id"`
	ChannelID *uint32 `json:"channelId"`
}

// parseRequest decodes a client's text message, with an error a client can act on.
func parseRequest(data []byte) (*request, error) {
	var r request
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("not a request: %v (want a JSON object with op subscribe or unsubscribe)", err)
	}
	if r.Op == "" {
		return nil, fmt.Errorf("request without op: want subscribe or unsubscribe")
	}
	return &r, nil
}

// parseSubscription decodes entry i of a Subscribe.
func parseSubscription(i int, raw json.RawMessage) (id, channel uint32, err error) {
	var s subscription
	if err := json.Unmarshal(raw, &s); err != nil {
		return 0, 0, fmt.Errorf("subscribe: subscription %d (%.64s): %v (want {\"id\": N, \"channelId\": N}, whole numbers 0 to 4294967295)", i, raw, err)
	}
	if s.ID == nil || s.ChannelID == nil {
		return 0, 0, fmt.Errorf("subscribe: subscription %d lacks its id or channelId", i)
	}
	return *s.ID, *s.ChannelID, nil
}

// parseID decodes entry i of an Unsubscribe.
func parseID(i int, raw json.RawMessage) (uint32, error) {
	var id uint32
	if err := json.Unmarshal(raw, &id); err != nil {
		return 0, fmt.Errorf("unsubscribe: subscriptionIds[%d] (%.64s) is not a subscription id, a whole number 0 to 4294967295", i, raw)
	}
	return id, nil
}

// messageData returns the header of a Message Data frame for subscription sub received at
// time ns.
func messageData(sub uint32, ns uint64) [messageHeader]byte {
	var h [messageHeader]byte
	h[0] = opMessageData
	binary.LittleEndian.PutUint32(h[1:], sub)
	binary.LittleEndian.PutUint64(h[5:], ns)
	return h
}
