package markers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Commands of /markers requests, as CLOiSim spells them.
const (
	CmdAdd    = "Add"
	CmdModify = "Modify"
	CmdRemove = "Remove"
	CmdList   = "List"
)

var commandNames = []string{CmdAdd, CmdModify, CmdRemove, CmdList}

// Request is a decoded /markers request.
type Request struct {
	// Command is one of CmdAdd, CmdModify, CmdRemove, CmdList.
	Command string
	// Markers are the request's markers; for Remove only their names matter.
	Markers []Marker
	// Filter selects markers for List (NoFilter when the request has none).
	Filter Filter
}

// RequestError is a request that could not be decoded; Command is the canonical command if it
// was readable.
type RequestError struct {
	Command string
	Err     error
}

func (e *RequestError) Error() string { return e.Err.Error() }
func (e *RequestError) Unwrap() error { return e.Err }

// DecodeRequest reads a /markers request: {command, markers:[...], filter:{group,id,type}} with
// marker {group, id, type, color, line|text|box|sphere:{...}}. Names of commands, types, colours
// and alignments are matched ignoring case. Bodies are required except for Remove. Errors are
// *RequestError.
func DecodeRequest(data []byte) (Request, error) {
	var raw struct {
		Command string            `json:"command"`
		Markers []json.RawMessage `json:"markers"`
		Filter  *struct {
			Group string `json:"group"`
			ID    *int   `json:"id"`
			Type  string `json:"type"`
		} `json:"filter"`
	}
	if len(bytes.TrimSpace(data)) == 0 || bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return Request{}, &RequestError{Err: errors.New("request body is empty")}
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return Request{}, &RequestError{Err: fmt.Errorf("invalid json: %w", err)}
	}
	req := Request{Filter: NoFilter}
	if strings.TrimSpace(raw.Command) == "" {
		return req, &RequestError{Err: errors.New("command is empty")}
	}
	for _, c := range commandNames {
		if strings.EqualFold(c, raw.Command) {
			req.Command = c
		}
	}
	if req.Command == "" {
		return req, &RequestError{Err: fmt.Errorf("unsupported command '%s' (known: %s)", raw.Command, strings.Join(commandNames, ", "))}
	}
	fail := func(err error) (Request, error) { return req, &RequestError{Command: req.Command, Err: err} }
	if raw.Filter != nil {
		req.Filter = Filter{Group: raw.Filter.Group, ID: -1, Kind: raw.Filter.Type}
		if raw.Filter.ID != nil {
			req.Filter.ID = *raw.Filter.ID
		}
	}
	if req.Command == CmdList {
		if len(raw.Markers) > 0 {
			return fail(errors.New("list takes a filter, not markers"))
		}
		return req, nil
	}
	if len(raw.Markers) == 0 {
		return fail(fmt.Errorf("%s needs markers", strings.ToLower(req.Command)))
	}
	if len(raw.Markers) > MaxMarkers {
		return fail(fmt.Errorf("%w: a request may carry at most %d markers, not %d", ErrTooMany, MaxMarkers, len(raw.Markers)))
	}
	for i, rm := range raw.Markers {
		m, err := decodeMarker(rm, req.Command != CmdRemove)
		if err != nil {
			return fail(fmt.Errorf("markers[%d]: %w", i, err))
		}
		req.Markers = append(req.Markers, m)
	}
	return req, nil
}

// decodeMarker reads one marker object; withBody requires and decodes the kind's body.
func decodeMarker(data json.RawMessage, withBody bool) (Marker, error) {
	var head struct {
		Group string `json:"group"`
		ID    *int   `json:"id"`
		Type  string `json:"type"`
		Color string `json:"color"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return Marker{}, err
	}
	m := Marker{Group: head.Group, ID: -1}
	if head.ID != nil {
		m.ID = *head.ID
	}
	k, err := LookupKind(head.Type)
	if err != nil {
		return Marker{}, err
	}
	m.Kind = k.Name
	if m.Color, m.RGBA, err = LookupColor(head.Color); err != nil {
		return Marker{}, err
	}
	if !withBody {
		return m, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return Marker{}, err
	}
	var body json.RawMessage
	for key, v := range fields {
		if strings.EqualFold(key, k.Body) {
			body = v
		}
	}
	if len(body) == 0 || string(body) == "null" {
		return Marker{}, fmt.Errorf("marker %s: a %s marker needs its %q properties", m.Name(), k.Name, k.Body)
	}
	if err := k.Decode(body, &m); err != nil {
		return Marker{}, fmt.Errorf("marker %s: %s: %w", m.Name(), k.Body, err)
	}
	return m, nil
}

// Response is the answer to a /markers request.
type Response struct {
	// Command is the request's command in lower case ("" when it could not be read or a List
	// carried markers, as CLOiSim answers).
	Command string
	// OK is the result: "ok" or "fail".
	OK bool
	// Err says why it failed (simgui's addition: CLOiSim gives no reason).
	Err error
	// Listed holds a List answer's markers.
	Listed []Marker
}

// Apply runs req on the store.
func (s *Store) Apply(req Request) Response {
	r := Response{Command: strings.ToLower(req.Command)}
	var err error
	switch req.Command {
	case CmdAdd:
		err = s.Add(req.Markers)
	case CmdModify:
		_, err = s.Modify(req.Markers)
	case CmdRemove:
		names := make([]string, len(req.Markers))
		for i, m := range req.Markers {
			names[i] = m.Name()
		}
		_, err = s.Remove(names)
	case CmdList:
		r.Listed = s.List(req.Filter)
	default:
		err = fmt.Errorf("unsupported command '%s'", req.Command)
	}
	r.OK, r.Err = err == nil, err
	return r
}

// ErrorResponse answers a request DecodeRequest refused.
func ErrorResponse(err error) Response {
	r := Response{Err: err}
	var re *RequestError
	// CLOiSim answers a List with markers with an empty command; other readable commands keep
	// theirs.
	if errors.As(err, &re) && re.Command != CmdList {
		r.Command = strings.ToLower(re.Command)
	}
	return r
}

type listEntry struct {
	Group  string `json:"group"`
	ID     int    `json:"id"`
	Type   string `json:"type"`
	Color  string `json:"color"`
	Marker any    `json:"marker"`
}

// MarshalJSON writes CLOiSim's shape: {"command","result"} plus "error" on failure and, for a
// List, one array per kind ("lines", "texts", "boxes", "spheres") of {group, id, type, color,
// marker:{...}}.
func (r Response) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	put := func(key string, v any) error {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(key)
		b.Write(k)
		b.WriteByte(':')
		enc, err := json.Marshal(v)
		b.Write(enc)
		return err
	}
	b.WriteByte('{')
	result := "fail"
	if r.OK {
		result = "ok"
	}
	if err := put("command", r.Command); err != nil {
		return nil, err
	}
	if err := put("result", result); err != nil {
		return nil, err
	}
	if r.Err != nil {
		if err := put("error", r.Err.Error()); err != nil {
			return nil, err
		}
	}
	if r.OK && r.Command == strings.ToLower(CmdList) {
		for _, k := range Kinds() {
			list := []listEntry{}
			for _, m := range r.Listed {
				if m.Kind == k.Name {
					list = append(list, listEntry{Group: m.Group, ID: m.ID, Type: m.Kind, Color: m.Color, Marker: k.Encode(m)})
				}
			}
			if err := put(k.List, list); err != nil {
				return nil, err
			}
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
