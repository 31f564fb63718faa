package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"simgui/app/scenario"
	"simgui/plugins"
	"simgui/render"
)

// Limits of the training API (docs/SECURITY.md lists them with the other faces').
const (
	// MaxBody is the largest request body accepted, in bytes. A reset of MaxAgents agents with
	// ids and a vehicle each is about 0.6 MB.
	MaxBody = 2 << 20
	// MaxIsolatedAgents bounds the agents of a reset with agents.isolated: each is a world of
	// its own with its loop goroutine (measured: a reset of 256 took 1.5 s and 112 MB of
	// resident memory, the KS0223 on the default corridor). Vectorised training uses tens. A
	// shared world takes up to scenario.MaxAgents.
	MaxIsolatedAgents = 256
	// MaxActions bounds the actions of one step (the actions extension): each commanded agent
	// gets a frame, and 256 full-HD frames are some 50 MB of reply.
	MaxActions = 256
	// MaxFramePixels bounds the camera pixels of an episode's worlds together (checked at
	// reset: each world keeps about 7 bytes a pixel of buffers once it has drawn, 15 MB
	// measured at 1920×1080) and those of one step's frames (each is encoded and sent
	// whole), so that limits that pass one by one cannot add up to gigabytes: 64 full-HD
	// frames, some 1 GB of buffers. 256 frames of 640×480 fit, and any number of 84×84.
	MaxFramePixels = 64 * maxFrameWidth * maxFrameHeight
	// realisticWeight is how many flat pixels a pixel of a realistic camera counts as at a
	// reset: its world keeps a lens map, a lit scene of its own look and the film's buffers,
	// about 50 MB at 1920×1080 (measured: 24 isolated worlds with lenses randomized took
	// 1.2 GB), so 21 full-HD realistic frames fit.
	realisticWeight = 3
	// maxListItems bounds the array elements of one body, all arrays together, checked before
	// the body is decoded into Go values (a 2 MiB body of "{}," would otherwise make 700,000
	// agents).
	maxListItems = 4 * scenario.MaxAgents
	// walkAbove is the body size from which maxListItems is checked; smaller bodies cannot
	// hold enough elements to matter, and /step bodies (a few hundred bytes) skip the walk.
	walkAbove = 64 << 10

	// HeaderTimeout bounds reading a request's header, BodyTimeout the whole request with its
	// body, IdleTimeout a keep-alive connection between requests and ReplyTimeout writing one
	// reply to a client that does not read.
	HeaderTimeout = 10 * time.Second
	BodyTimeout   = 30 * time.Second
	IdleTimeout   = 2 * time.Minute
	ReplyTimeout  = 30 * time.Second
	// maxHeaderBytes bounds a request's header (net/http's default is 1 MiB).
	maxHeaderBytes = 64 << 10
	// smallBody is the largest body read without the body budget: 1024 connections' worth
	// is 64 MiB.
	smallBody = 64 << 10
	// bodyBudget bounds the bytes of larger bodies held at once, all connections together:
	// 1000 connections each sending 2 MiB once took 2.4 GB, and held it after they left.
	bodyBudget = 64 << 20
)

// guard answers a request that the Host, Origin or token check refuses, or a POST whose
// body is not declared application/json: browsers send text/plain, form and multipart
// bodies cross-origin without asking first (CORS "simple" requests), never JSON. A POST
// without a body carries nothing to declare: it goes on to its handler, which refuses it as
// rusim does ("Request body is empty.", 400; 404 off /reset and /step), as
// `curl -X POST .../reset` and requests' post(json=None) send it; so does one of unknown
// length (chunked) and no Content-Type, which decode refuses once it is read if it is not
// empty. It reports whether it answered.
func (s *Service) guard(w http.ResponseWriter, r *http.Request) bool {
	if ref := s.httpGuard.Check(r); ref != nil {
		if ok, leftOut := s.refusedLog.Allow(); ok { // a client repeating it must not fill the log
			s.log.Warn("training API: refused a request", "peer", r.RemoteAddr, "host", r.Host, "origin", r.Header.Get("Origin"), "status", ref.Status,
				"refusalsNotLoggedSinceLast", leftOut)
		}
		s.writeJSON(w, ref.Status, errorBody{ref.Message})
		return true
	}
	// A body of unknown length (chunked) without a Content-Type may be empty: decode tells,
	// once it is read (a body there without one is refused as here).
	_, typed := r.Header["Content-Type"]
	if r.Method == http.MethodPost && r.ContentLength != 0 && (typed || r.ContentLength > 0) {
		ct := r.Header.Get("Content-Type")
		mt, params, err := mime.ParseMediaType(ct)
		if err != nil || mt != "application/json" {
			s.writeJSON(w, http.StatusUnsupportedMediaType, errorBody{fmt.Sprintf("Content-Type must be application/json, not %q.", ct)})
			return true
		}
		// JSON is UTF-8 (RFC 8259); a body declared otherwise (but in ASCII, which is UTF-8)
		// would be read as garbage.
		if cs, ok := params["charset"]; ok && !slices.ContainsFunc([]string{"utf-8", "utf8", "us-ascii"}, func(c string) bool { return strings.EqualFold(c, cs) }) {
			s.writeJSON(w, http.StatusUnsupportedMediaType, errorBody{fmt.Sprintf("Content-Type charset must be utf-8, not %q.", cs)})
			return true
		}
	}
	return false
}

// recoverRequest, deferred by ServeHTTP, turns a panic while answering into a 500 and a log
// line naming the client, so that no request takes the process down.
func (s *Service) recoverRequest(w http.ResponseWriter, r *http.Request) {
	v := recover()
	if v == nil {
		return
	}
	if v == http.ErrAbortHandler {
		panic(v)
	}
	s.log.Error("training API: answering a request failed", "peer", r.RemoteAddr, "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
	s.writeJSON(w, http.StatusInternalServerError, errorBody{"Internal error."})
}

// readBody reads a request body of at most MaxBody bytes; then the read deadline
// (BodyTimeout) is lifted, so that a long reset is not cut off by it. A body of up to
// smallBody bytes (every step, and the resets rusim's clients send) goes into a pooled
// buffer; a larger one first takes its size from the service's body budget and is refused
// with errBusy when the budget is spent, and one declared larger than MaxBody with
// errTooLarge before it is read. release gives the buffer and the budget back; call it once
// the body is decoded, error or not.
func (s *Service) readBody(w http.ResponseWriter, r *http.Request) (body []byte, release func(), err error) {
	buf := bodyPool.Get().(*bytes.Buffer)
	buf.Reset()
	var held int64
	release = func() {
		if buf.Cap() <= 2*smallBody { // a big one is left to the collector, not kept
			bodyPool.Put(buf)
		}
		if held > 0 {
			s.bodies.Release(held)
		}
	}
	if r.ContentLength > MaxBody {
		return nil, release, errTooLarge
	}
	// Read as the connection limit watches it: a body that stalls may make room for others.
	in, done := s.conns.Body(r)
	defer done()
	_, err = buf.ReadFrom(io.LimitReader(in, smallBody+1))
	if err == nil && buf.Len() > smallBody {
		// Its whole size — as declared, or MaxBody and one byte to tell a longer one — is
		// taken from the budget before it is read, into a buffer of that size.
		need := int64(MaxBody) + 1
		if cl := r.ContentLength; cl > smallBody {
			need = cl
		}
		if !s.bodies.TryAcquire(need) {
			return nil, release, errBusy
		}
		held = need
		big := bytes.NewBuffer(make([]byte, 0, need+bytes.MinRead))
		big.Write(buf.Bytes())
		bodyPool.Put(buf)
		buf = big
		_, err = buf.ReadFrom(io.LimitReader(in, need-int64(buf.Len())))
	}
	if err != nil {
		return nil, release, err
	}
	http.NewResponseController(w).SetReadDeadline(time.Time{})
	return buf.Bytes(), release, nil
}

// errBusy says the body budget (bodyBudget) is spent by other requests' bodies; errTooLarge
// that a body is declared larger than MaxBody.
var (
	errBusy     = errors.New("request bodies in flight use the budget")
	errTooLarge = errors.New("request body too large")
)

// tooLarge is the answer to a body larger than MaxBody.
func tooLarge() *Error {
	return &Error{Status: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf("Request body is larger than %d bytes.", MaxBody)}
}

// decodeRequest decodes a JSON body into dst (a *ResetRequest or *StepRequest) and checks the
// request's limits. Errors are *Error (400).
func decodeRequest(body []byte, dst any) error {
	// The size first: readBody stops one byte past MaxBody, so a body of padding trimmed
	// afterwards would look empty or cut short.
	if len(body) > MaxBody {
		return tooLarge()
	}
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return badRequest("Request body is empty.")
	}
	if len(body) > walkAbove {
		if err := countListItems(body, maxListItems); err != nil {
			return err
		}
	}
	if err := json.Unmarshal(body, dst); err != nil {
		// rusim's key/value lists are lists of pairs; a JSON object there (the natural
		// first guess: {"flags": {"randomization.enabled": "false"}}) gets the shape.
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Type == reflect.TypeFor[[]KV]() {
			return badRequest(`Invalid JSON: %s must be a list of {"key": ..., "value": ...} pairs, not %s.`, te.Field, te.Value)
		}
		return badRequest("Invalid JSON: %v", err)
	}
	switch req := dst.(type) {
	case *ResetRequest:
		if n := len(req.Agents); n > scenario.MaxAgents {
			return badRequest("A reset may have at most %d agents; this one has %d.", scenario.MaxAgents, n)
		}
	case *StepRequest:
		if n := len(req.Actions); n > MaxActions {
			return badRequest("A step may have at most %d actions; this one has %d.", MaxActions, n)
		}
	}
	return nil
}

// countListItems walks body's tokens without building values and fails if its arrays hold
// more than max elements in all.
func countListItems(body []byte, max int) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	var open []bool // per open container: is it an array
	n := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return badRequest("Invalid JSON: %v", err)
		}
		d, isDelim := tok.(json.Delim)
		if isDelim && (d == ']' || d == '}') {
			open = open[:len(open)-1]
			continue
		}
		// A token directly inside an array starts one of its elements (object keys are
		// tokens too, but only inside objects).
		if len(open) > 0 && open[len(open)-1] {
			if n++; n > max {
				return badRequest("Request holds more than %d list items in all.", max)
			}
		}
		if isDelim {
			open = append(open, d == '[')
		}
	}
}

// checkEpisode refuses an episode plan whose worlds would draw into more than MaxFramePixels
// camera pixels together: each world keeps buffers of its camera's frame size (a shared
// world one set for all its agents, drawn in turn).
func checkEpisode(ep *episodePlan) error {
	total, frames, largest := 0, 0, [2]int{}
	for _, plan := range ep.worlds {
		most := 0
		for _, a := range plan.Agents {
			w, h, ok := a.Vehicle.FrameSize()
			if !ok {
				continue
			}
			most = max(most, w*h*pixelWeight(a.Vehicle))
			if w*h > largest[0]*largest[1] {
				largest = [2]int{w, h}
			}
		}
		if most > 0 {
			total += most
			frames++
		}
	}
	if total > MaxFramePixels {
		return badRequest("A reset's worlds may draw at most %d camera pixels together (%d frames of %d×%d; a realistic camera's pixel counts %d times); these %d worlds draw %d (frames up to %d×%d). Use fewer isolated agents or a smaller camera.width/camera.height.",
			MaxFramePixels, MaxFramePixels/(maxFrameWidth*maxFrameHeight), maxFrameWidth, maxFrameHeight, realisticWeight, frames, total, largest[0], largest[1])
	}
	return nil
}

// pixelWeight is what a pixel of v's first camera counts as in checkEpisode's budget.
func pixelWeight(v *plugins.VehicleDescriptor) int {
	for _, m := range v.Sensors {
		if m.Kind == plugins.SensorCamera {
			if render.MountIsRealistic(m.Params) {
				return realisticWeight
			}
			break
		}
	}
	return 1
}

// checkFrames refuses a step whose frames hold more than MaxFramePixels pixels together.
func checkFrames(framed []*agent) error {
	total, n := 0, 0
	for _, a := range framed {
		if a.camera != nil {
			total += a.camera.width * a.camera.height
			n++
		}
	}
	if total > MaxFramePixels {
		return badRequest("A step's frames may hold at most %d pixels together (%d frames of %d×%d); these %d frames hold %d. Send fewer actions or use a smaller camera.width/camera.height.",
			MaxFramePixels, MaxFramePixels/(maxFrameWidth*maxFrameHeight), maxFrameWidth, maxFrameHeight, n, total)
	}
	return nil
}
