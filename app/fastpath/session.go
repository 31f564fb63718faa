package fastpath

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"simgui/app"
	"simgui/app/scenario"
	"simgui/app/world"
)

// readBuffer is the size of a session's read buffer: a whole step request of up to 160 envs.
const readBuffer = 4096

// session is one client connection: the envs it opened (an episode of the host, called
// "train-<n>", whose worlds are "train-<n>/env-<i>") and their shared memory.
type session struct {
	f    *Face
	h    *app.Host
	conn *net.UnixConn

	id     string
	plan   *sessionPlan
	envs   []*env
	mem    *sharedMemory
	layout bool
	added  atomic.Bool // the worlds are in the host (set once id is)

	// started lists the envs a step request set stepping (serve's goroutine only).
	started []int

	lastUse atomic.Int64 // unix ns of the last request
	// state is answering while a request is answered, idle between requests, and yielded
	// once Face.reserve gave the session's slot to a newcomer. serve sets answering only
	// from idle, and reserve yielded only from idle, so a session is never closed to make
	// room in the middle of a request, and only serve's goroutine writes to the connection
	// (a reply of reserve's could go out beside, or before, a step's). Set idle after the
	// session's fields are written, so another goroutine that reads it idle may read them.
	state atomic.Int32
	// yieldErr says why the session yielded its slot; written by Face.reserve before it
	// sets state yielded, read by serve after it sees that.
	yieldErr error
	// pendingSince is the unix ns when the request now arriving began (its first byte, or
	// the connection for the open request), 0 between requests and while one is answered.
	pendingSince atomic.Int64
	stalled      atomic.Bool // ended by endIfStalled
	live         atomic.Bool // marked live with the host
	// opened is set once the open request took a session slot (Face.reserve), even if the
	// open then failed: the connection ends then.
	opened    atomic.Bool
	closeOnce sync.Once
	// gone is closed once the client has hung up (watchHangUp): the world steps of a request
	// it left stop, rather than run on for nobody.
	gone chan struct{}
}

// The session's states.
const (
	idle int32 = iota
	answering
	yielded
)

// serve answers the client until it closes, breaks the protocol or the face shuts down.
func (s *session) serve() {
	defer s.close()
	var buf []byte
	limit := func(typ byte) (int, bool) {
		switch {
		case typ == msgOpen && s.envs == nil:
			return MaxOpenBytes, true
		case typ == msgStep && s.envs != nil:
			return stepPayloadLen(len(s.envs), len(s.plan.actions)), true
		case typ == msgClose:
			return 0, true
		}
		return 0, false
	}
	var req stepRequest
	s.blockReads()
	s.watchHangUp()
	// Buffered, so that a request's header and payload usually come in one read.
	in := bufio.NewReaderSize(arrivals{s}, readBuffer)
	for {
		if s.state.Load() == answering { // answered: its idle time counts from here
			s.lastUse.Store(time.Now().UnixNano())
			s.state.Store(idle)
		}
		if s.envs != nil {
			// A request is pending once its first byte is here; it may be already.
			if in.Buffered() > 0 {
				s.pendingSince.Store(time.Now().UnixNano())
			} else {
				s.pendingSince.Store(0)
			}
		}
		typ, payload, err := readMessage(in, buf, limit)
		s.pendingSince.Store(0)
		if !s.state.CompareAndSwap(idle, answering) {
			// Its slot went to a newcomer (reserve, which stopped the reading): the request
			// read meanwhile, if any, gets why instead of an answer.
			s.fail(s.yieldErr)
			return
		}
		if err != nil {
			var pe *protocolError
			switch {
			case errors.As(err, &pe):
				s.fail(err)
			case s.stalled.Load():
			case !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed):
				s.h.Logger().Debug("fast path: connection", "session", s.id, "err", err)
			}
			return
		}
		buf = payload[:0] // read again by the next message; every payload is done with before
		s.lastUse.Store(time.Now().UnixNano())
		switch typ {
		case msgOpen:
			if err := s.open(payload); err != nil {
				s.fail(err)
				return
			}
			buf = nil // the open request's room is not needed again
		case msgStep:
			s.markLive()
			if err := decodeStep(payload, len(s.envs), len(s.plan.actions), &req); err != nil {
				var pe *protocolError
				if errors.As(err, &pe) {
					s.fail(err)
					return
				}
				if s.reply(msgError, errorBody(err)) != nil {
					return
				}
				continue
			}
			res, err := s.step(&req)
			if err != nil {
				if errors.Is(err, errWorldsStopped) {
					// Nothing can step them again: say why once and end the session.
					_ = s.reply(msgError, errorBody(err))
					return
				}
				if s.reply(msgError, errorBody(err)) != nil {
					return
				}
				continue
			}
			if s.reply(msgStepped, res) != nil {
				return
			}
		case msgClose:
			_ = writeMessage(s.conn, msgClosed, nil, nil)
			return
		}
	}
}

func errorBody(err error) []byte {
	body := map[string]string{"error": err.Error()}
	if fe := (*fieldError)(nil); errors.As(err, &fe) {
		body["field"] = fe.field
	}
	b, _ := json.Marshal(body)
	return b
}

// fieldError is a refusal of one open request field's value: the error reply names the
// field, so that a client can say which of its own arguments set it.
type fieldError struct {
	field string // OpenRequest's JSON name
	err   error
}

func (e *fieldError) Error() string { return e.err.Error() }
func (e *fieldError) Unwrap() error { return e.err }

// reply writes a reply; a nil *StepReply is an empty payload.
func (s *session) reply(typ byte, v any) error {
	var b []byte
	switch t := v.(type) {
	case []byte:
		b = t
	case *StepReply:
		if t != nil {
			var err error
			if b, err = json.Marshal(t); err != nil {
				return err
			}
		}
	}
	return writeMessage(s.conn, typ, b, nil)
}

// fail answers an error and ends the session.
func (s *session) fail(err error) {
	_ = s.reply(msgError, errorBody(err))
}

// open builds the session's envs from an open request and sends the shared memory.
func (s *session) open(payload []byte) error {
	var req OpenRequest
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return fmt.Errorf("open: %w", err)
	}
	if dec.More() || dec.InputOffset() != int64(len(bytes.TrimRight(payload, " \t\r\n"))) {
		return errors.New("open: the request has more after its JSON object")
	}
	if req.Protocol != 1 && req.Protocol != ProtocolVersion {
		return fmt.Errorf("open: protocol %d; this simgui speaks 1 and %d", req.Protocol, ProtocolVersion)
	}
	if err := s.f.reserve(s); err != nil {
		return err
	}
	if req.Envs < 1 || req.Envs > s.f.maxEnvs() {
		return &fieldError{"envs", fmt.Errorf("open: envs %d is outside 1..%d", req.Envs, s.f.maxEnvs())}
	}
	if len(req.Label) > 64 || strings.ContainsFunc(req.Label, func(r rune) bool { return !unicode.IsPrint(r) }) {
		return errors.New("open: label must be at most 64 printable characters")
	}
	sc, err := s.scenario(req.Scenario)
	if err != nil {
		if req.Scenario != "" {
			// The request's own scenario is at fault: the field lets a client name the file
			// it read the text from, which simgui never sees.
			return &fieldError{"scenario", err}
		}
		return err
	}
	sp, err := planSession(sc, &req, s.h.Plugins())
	if err != nil {
		return fmt.Errorf("open: %w", err)
	}
	s.plan, s.layout = sp, req.Layout
	frame := sp.width * sp.height * sp.channels
	imgOff := 64
	stateOff := imgOff + align64(req.Envs*frame)
	stride := 8 * len(stateFields)
	size := stateOff + align64(req.Envs*stride)
	if size > s.f.maxMemory() {
		return fmt.Errorf("open: %d envs of %d×%d×%d frames need %d MiB of shared memory; the limit is %d MiB",
			req.Envs, sp.width, sp.height, sp.channels, size>>20, s.f.maxMemory()>>20)
	}
	s.id = fmt.Sprintf("train-%d", s.f.sessions.Add(1))
	if s.mem, err = newSharedMemory("simgui-"+s.id, size); err != nil {
		return err
	}
	writeMemHeader(s.mem.mem, req.Envs, sp, imgOff, stateOff)
	label := strings.Replace(s.id, "-", " ", 1)
	if req.Label != "" {
		label += " · " + req.Label
	}
	var sims []*app.Sim
	for i := range req.Envs {
		img := s.mem.mem[imgOff+i*frame : imgOff+(i+1)*frame : imgOff+(i+1)*frame]
		state := s.mem.mem[stateOff+i*stride : stateOff+(i+1)*stride : stateOff+(i+1)*stride]
		e, err := newEnv(s.h, sp, i, "env-"+strconv.Itoa(i), fmt.Sprintf("%s · env %d", label, i), img, state)
		if err != nil {
			for _, e := range s.envs {
				e.sim.Close()
			}
			s.envs = nil
			return fmt.Errorf("open: env %d: %w", i, err)
		}
		s.envs = append(s.envs, e)
		sims = append(sims, e.sim)
	}
	if err := s.h.AddEpisode(s.id, sims, sims[0]); err != nil {
		for _, e := range s.envs {
			e.sim.Close()
		}
		s.envs = nil
		return fmt.Errorf("open: %w", err)
	}
	s.added.Store(true)
	s.live.Store(true)
	rep := OpenReply{Protocol: sp.protocol, Session: s.id, Envs: req.Envs, StepSize: sp.base.StepSize,
		ActionPeriod: sp.actionPeriod, StepsPerAction: sp.steps, TrackID: sp.base.Track.ID,
		VehicleID: sp.base.Agents[0].Vehicle.ID, Actions: sp.actions}
	for _, e := range s.envs {
		rep.Worlds = append(rep.Worlds, e.sim.ID)
	}
	rep.Frame.Width, rep.Frame.Height, rep.Frame.Channels = sp.width, sp.height, sp.channels
	rep.Memory = MemLayout{Size: size, ImageOffset: imgOff, ImageStride: frame, StateOffset: stateOff,
		StateStride: stride, StateFields: stateFields[:]}
	s.h.Logger().Info("fast path session", "session", s.id, "envs", req.Envs, "track", rep.TrackID,
		"frame", fmt.Sprintf("%dx%dx%d", sp.width, sp.height, sp.channels))
	return writeJSON(s.conn, msgOpened, rep, s.mem.rights())
}

// scenario parses the request's scenario, or returns the process's.
func (s *session) scenario(text string) (*scenario.Scenario, error) {
	if text == "" {
		sc := s.h.Scenario()
		if sc == nil {
			return nil, errors.New("open: the host has no scenario; send one")
		}
		return sc.Plan.Scenario, nil
	}
	if len(text) > MaxScenarioBytes {
		return nil, fmt.Errorf("open: the scenario is %d bytes; the limit is %d", len(text), MaxScenarioBytes)
	}
	sc, err := scenario.Parse([]byte(text), "fast path scenario")
	if err != nil {
		return nil, fmt.Errorf("open: %w", err)
	}
	if len(sc.Faces) > 0 {
		return nil, errors.New("open: the scenario has a faces block; faces are set where simgui starts, not per session")
	}
	return sc, nil
}

// memMagic opens the shared memory's header, for a client to check it mapped the right thing.
const memMagic = "SIMGUIFP"

// writeMemHeader writes the 64-byte header: magic, protocol, envs, width, height, channels,
// state fields (uint32s), image and state offsets (uint64s).
func writeMemHeader(m []byte, envs int, sp *sessionPlan, imgOff, stateOff int) {
	copy(m, memMagic)
	le := binary.LittleEndian
	for i, v := range []int{sp.protocol, envs, sp.width, sp.height, sp.channels, len(stateFields)} {
		le.PutUint32(m[8+4*i:], uint32(v))
	}
	le.PutUint64(m[32:], uint64(imgOff))
	le.PutUint64(m[40:], uint64(stateOff))
}

func align64(n int) int { return (n + 63) &^ 63 }

// step runs one step request: every env resets or steps in parallel, on its world's loop.
func (s *session) step(req *stepRequest) (*StepReply, error) {
	for i, k := range req.kinds {
		if k == kindStep && !s.envs[i].reset {
			return nil, fmt.Errorf("env %d has not been reset; reset it (kind 2) before stepping it", i)
		}
	}
	var (
		mu     sync.Mutex
		errs   []error
		resets []ResetInfo
	)
	fail := func(i int, err error) {
		mu.Lock()
		errs = append(errs, fmt.Errorf("env %d: %w", i, err))
		mu.Unlock()
	}
	// This goroutine sets every env's loop going, resets first (the longest work, so it
	// starts soonest), and then waits for them all at once: the envs run in parallel on
	// their loops without a goroutine each per request.
	var wg sync.WaitGroup
	started := s.started[:0]
	for i, k := range req.kinds {
		if k != kindReset {
			continue
		}
		wg.Add(1)
		err := s.envs[i].startReset(req.seeds[i], s.layout, func(info *ResetInfo, err error) {
			defer wg.Done()
			if err != nil {
				fail(i, err)
				return
			}
			mu.Lock()
			resets = append(resets, *info)
			mu.Unlock()
		})
		if err != nil {
			wg.Done()
			fail(i, err)
		}
	}
	for i, k := range req.kinds {
		if k != kindStep {
			continue
		}
		if err := s.envs[i].startStep(req.actions[i], s.gone, &wg); err != nil {
			fail(i, err)
			continue
		}
		started = append(started, i)
	}
	s.started = started
	wg.Wait() // one wake-up for all the envs
	for _, i := range started {
		if err := s.envs[i].stepErr(); err != nil {
			fail(i, err)
		}
	}
	for _, r := range resets {
		s.envs[r.Env].reset = true
	}
	if len(errs) > 0 {
		for _, err := range errs {
			if errors.Is(err, world.ErrStopped) {
				// The worlds stop under a session only when the host does (a session
				// removes its own worlds when it ends): one line, not one per env.
				return nil, fmt.Errorf("%w: %w", errWorldsStopped, err)
			}
		}
		return nil, errors.Join(errs...)
	}
	if len(resets) == 0 {
		return nil, nil
	}
	// The loops finish in any order; the reply lists the envs in order.
	slices.SortFunc(resets, func(a, b ResetInfo) int { return cmp.Compare(a.Env, b.Env) })
	return &StepReply{Resets: resets}, nil
}

// errWorldsStopped begins the error of a step whose worlds have stopped: simgui is shutting
// down, and the session ends after saying so.
var errWorldsStopped = errors.New("simgui is shutting down (SIGTERM, Ctrl-C or its window closed): the envs' worlds have stopped and this session ends")

// arrivals reads the session's connection, noting when a request's first byte comes.
type arrivals struct{ s *session }

func (a arrivals) Read(p []byte) (int, error) {
	n, err := a.s.conn.Read(p)
	if n > 0 {
		a.s.pendingSince.CompareAndSwap(0, time.Now().UnixNano())
	}
	return n, err
}

// endIfStalled ends the session when the request now arriving began more than d ago. It
// only hangs up: the session's goroutine, woken with an error, closes the rest; a reply
// cannot be sent, as that goroutine may be about to write one.
func (s *session) endIfStalled(d time.Duration) {
	since := s.pendingSince.Load()
	if since == 0 || time.Since(time.Unix(0, since)) < d {
		return
	}
	if s.stalled.Swap(true) {
		return
	}
	what, id := "its open request", "(not open)"
	if s.added.Load() { // s.id is set before added
		what, id = "its next request", s.id
	}
	s.h.Logger().Warn("fast path: ended a stalled session", "session", id, "reason",
		fmt.Sprintf("%s had not arrived whole %v after it began (messageTimeout)", what, d))
	s.hangUp()
}

// markLive tells the host the session's envs are in use again after an idle spell.
func (s *session) markLive() {
	if s.added.Load() && !s.live.Swap(true) {
		s.h.SetLive(s.id, true)
	}
}

// idle marks the session idle with the host when no request came for d.
func (s *session) idle(d time.Duration) {
	if s.added.Load() && time.Since(time.Unix(0, s.lastUse.Load())) >= d && s.live.Swap(false) {
		s.h.SetLive(s.id, false)
	}
}

// close removes the session's worlds from the host and frees the shared memory.
func (s *session) close() {
	s.closeOnce.Do(func() {
		if s.added.Load() {
			s.h.RemoveEpisode(s.id)
		}
		if s.mem != nil {
			if err := s.mem.close(); err != nil {
				s.h.Logger().Warn("fast path: shared memory", "session", s.id, "err", err)
			}
		}
		// Everything is released before the connection ends: a client that sees it end may
		// open another session at once, and must find a slot free.
		s.f.release(s)
		s.hangUp()
	})
}
