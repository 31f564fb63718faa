package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"golang.org/x/sync/semaphore"

	"simgui/app"
	"simgui/app/httpguard"
	"simgui/app/lograte"
	"simgui/app/scenario"
	"simgui/plugins"
)

// Defaults of Options, as rusim's runtime.
const (
	DefaultHost = "127.0.0.1"
	DefaultPort = 8000
	// HostEnv and PortEnv override the default address.
	HostEnv = "UAVSIM_API_HOST"
	PortEnv = "UAVSIM_API_PORT"
	// ContractVersion is the contractVersion answered; rusim's client accepts major 0 only.
	ContractVersion = "0.1.0"
	// SimulatorID and SimulatorName identify simgui in /contract.
	SimulatorID   = "simgui"
	SimulatorName = "simgui"
	// DefaultIdleTimeout is how long an episode stays the world on show without requests.
	DefaultIdleTimeout = 10 * time.Second
)

// Options configure a Service.
type Options struct {
	// Addr is the listen address; "" means DefaultAddr(). Port 0 picks a free port.
	Addr string
	// Scenario is the process's scenario: what a reset that names no track or vehicle gets,
	// the step size, action period, randomization block and agent flags.
	Scenario *scenario.Scenario
	// OnShow, when not nil, returns the scenario to reset from in Scenario's place (nil: keep
	// Scenario): the window's, which its user may open another of.
	OnShow func() *scenario.Scenario
	// Host builds and runs the episodes' worlds; required. Its plugins resolve vehicle and
	// track ids unless Plugins is set.
	Host *app.Host
	// Plugins resolves and lists vehicle and track ids; default the host's.
	Plugins plugins.Lister
	// RegistrySource is /health's pluginRegistrySource (default "builtin").
	RegistrySource string
	// IdleTimeout is how long an episode without requests stays live, the world the host
	// shows by default (default DefaultIdleTimeout).
	IdleTimeout time.Duration
	// Now stamps states and frames (unix ms); default time.Now.
	Now func() time.Time
	// Logger; default slog.Default().
	Logger *slog.Logger

	// AllowOrigins are browser origins allowed besides same-host pages ("*": any), AllowHosts
	// host names allowed in Host besides IP addresses and localhost, and Token, when set,
	// is required of every request as "Authorization: Bearer <token>" or ?token= (package
	// httpguard).
	AllowOrigins, AllowHosts []string
	Token                    string
	// HeaderTimeout and BodyTimeout, when not 0, replace the defaults of the same names.
	HeaderTimeout, BodyTimeout time.Duration
}

// DefaultAddr returns the address rusim's runtime listens on: 127.0.0.1:8000, or
// UAVSIM_API_HOST and UAVSIM_API_PORT.
func DefaultAddr() (string, error) {
	host := DefaultHost
	if v := os.Getenv(HostEnv); v != "" {
		host = v
	}
	port, err := httpguard.PortFromEnv(PortEnv, DefaultPort)
	if err != nil {
		return "", err
	}
	return net.JoinHostPort(host, strconv.Itoa(port)), nil
}

// ErrClosed is returned by Serve after Shutdown.
var ErrClosed = errors.New("api: service closed")

// Service is the training HTTP API. Make it with New, run it with Serve, stop it with
// Shutdown. Requests may come concurrently: resets are exclusive, steps of different worlds
// (isolated agents) run in parallel, steps of one world one after the other.
type Service struct {
	// refusedLog bounds the log lines of refused requests (lograte).
	refusedLog lograte.Limiter
	opts       Options
	log        *slog.Logger
	ln         net.Listener
	srv        *http.Server
	// conns bounds the connections, making room by closing idle ones and stalled bodies.
	conns httpguard.ConnLimit
	// base is the scenario resets start from and random its randomization (see baseNow),
	// under baseMu.
	baseMu    sync.Mutex
	base      *scenario.Scenario
	random    *scenario.Randomization
	httpGuard *httpguard.Guard
	// bodies is the budget of request bodies over smallBody bytes held at once.
	bodies *semaphore.Weighted

	// mu is held shared by steps and exclusively by resets and Shutdown.
	mu sync.RWMutex
	// building is held while a reset builds its episode: one at a time, so that resets sent
	// together build one episode's worlds at once, not all of them.
	building sync.Mutex
	// loggedUnused, loggedTargets and loggedFields hold what noteUnused, noteUnknownTarget and
	// noteStepFields have logged: a budget each, so that a client's junk field names do not
	// spend the others'.
	loggedUnused, loggedTargets, loggedFields onceSet
	// climbHinted: the line saying where a drone's climb goes was logged.
	climbHinted atomic.Bool
	current     *episode
	closed      bool
	episodes    atomic.Uint64 // episodes built so far, for their ids

	// lastUse is when the last reset or step came (unix ns); live says whether the current
	// episode is marked live with the host.
	lastUse atomic.Int64
	liveMu  sync.Mutex
	live    string // id of the episode marked live, "" for none
	liveSeq uint64 // seq of the latest episode touched
}

// New checks opts and opens the listener, so that a port in use is reported here and Addr is
// known before Serve.
func New(opts Options) (*Service, error) {
	if opts.Scenario == nil {
		return nil, errors.New("api: no scenario")
	}
	if opts.Host == nil {
		return nil, errors.New("api: no host to run the episodes")
	}
	if opts.Plugins == nil {
		opts.Plugins = opts.Host.Plugins()
	}
	if opts.IdleTimeout <= 0 {
		opts.IdleTimeout = DefaultIdleTimeout
	}
	if opts.RegistrySource == "" {
		opts.RegistrySource = "builtin"
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	random, err := randomizationOf(opts.Scenario)
	if err != nil {
		return nil, err
	}
	if opts.Addr == "" {
		if opts.Addr, err = DefaultAddr(); err != nil {
			return nil, err
		}
	}
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return nil, fmt.Errorf("training API: listen on %s: %w (set --api-port or %s to use another port)", opts.Addr, err, PortEnv)
	}
	if opts.HeaderTimeout <= 0 {
		opts.HeaderTimeout = HeaderTimeout
	}
	if opts.BodyTimeout <= 0 {
		opts.BodyTimeout = BodyTimeout
	}
	s := &Service{opts: opts, log: opts.Logger, ln: ln, base: opts.Scenario, random: random,
		httpGuard: httpguard.New(opts.AllowOrigins, opts.AllowHosts, opts.Token), bodies: semaphore.NewWeighted(bodyBudget)}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: opts.HeaderTimeout, ReadTimeout: opts.BodyTimeout, IdleTimeout: IdleTimeout,
		MaxHeaderBytes: maxHeaderBytes, ErrorLog: slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
		ConnState: s.conns.Track, ConnContext: s.conns.ConnContext}
	return s, nil
}

// randomizationOf is what a scenario's resets draw: its block, or without one the default
// ranges (mass, dampings, motor gains, camera pitch), seeded, as rusim's KS0223 draws them at
// each episode; a reset's flag randomization.enabled=false, or a block saying enabled: false,
// draws nothing.
func randomizationOf(sc *scenario.Scenario) (*scenario.Randomization, error) {
	random, err := scenario.ParseRandomization(&sc.Randomization)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", sc.Source, err)
	}
	if sc.Randomization.IsZero() {
		random.Enabled = true
	}
	return random, nil
}

// baseNow returns the scenario a reset starts from, and its randomization: Options.OnShow's
// when it gives one (the window's user may have opened another since), else Scenario's.
func (s *Service) baseNow() (*scenario.Scenario, *scenario.Randomization, error) {
	s.baseMu.Lock()
	defer s.baseMu.Unlock()
	if s.opts.OnShow != nil {
		if sc := s.opts.OnShow(); sc != nil && sc != s.base {
			random, err := randomizationOf(sc)
			if err != nil {
				return nil, nil, err
			}
			s.base, s.random = sc, random
		}
	}
	return s.base, s.random, nil
}

// Addr returns the address the service listens on.
func (s *Service) Addr() net.Addr { return s.ln.Addr() }

// Serve answers requests until ctx is cancelled or Shutdown is called; then it returns
// ErrClosed (or ctx's error).
func (s *Service) Serve(ctx context.Context) error {
	stop := context.AfterFunc(ctx, func() {
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s.Shutdown(shut)
	})
	defer stop()
	idle, cancel := context.WithCancel(ctx)
	defer cancel()
	go s.watchIdle(idle)
	err := s.srv.Serve(s.ln)
	if errors.Is(err, http.ErrServerClosed) {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return ErrClosed
	}
	return err
}

// Shutdown stops accepting requests, waits for those in flight (up to ctx) and stops the
// episode's worlds. Safe to call more than once.
func (s *Service) Shutdown(ctx context.Context) error {
	err := s.srv.Shutdown(ctx)
	s.mu.Lock()
	ep := s.current
	s.current, s.closed = nil, true
	s.mu.Unlock()
	if ep != nil {
		ep.stop()
	}
	return err
}

// touch notes a request to episode ep, the current one, and marks it live with the host. It
// takes ep rather than reading s.current: Step calls it holding s.mu's read lock, and a second
// read lock would wait behind a Reset waiting for the write lock, which waits for Step.
func (s *Service) touch(ep *episode) {
	s.lastUse.Store(time.Now().UnixNano())
	s.liveMu.Lock()
	defer s.liveMu.Unlock()
	if ep.seq < s.liveSeq {
		return // a later reset has replaced ep and marked its own episode live
	}
	s.liveSeq = ep.seq
	if s.live != ep.id {
		s.opts.Host.SetLive(ep.id, true)
		s.live = ep.id
	}
}

// watchIdle marks the current episode idle once no request has come for IdleTimeout, so the
// host shows the scenario world again; the next request marks it live.
func (s *Service) watchIdle(ctx context.Context) {
	t := time.NewTicker(min(time.Second, s.opts.IdleTimeout/2))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if time.Since(time.Unix(0, s.lastUse.Load())) < s.opts.IdleTimeout {
			continue
		}
		s.liveMu.Lock()
		if s.live != "" {
			s.opts.Host.SetLive(s.live, false)
			s.live = ""
		}
		s.liveMu.Unlock()
	}
}

// Episode describes the current episode: its id in the host, and its agents with the id of
// the world each is in.
type Episode struct {
	ID       string
	Seed     int64
	Isolated bool
	TrackID  string
	Agents   []EpisodeAgent
	Primary  int
}

// EpisodeAgent is one agent of an Episode.
type EpisodeAgent struct {
	ID, VehicleID string
	// World is the ID of the host world the agent is in.
	World string
}

// Current describes the episode built by the latest reset, or nil before the first.
func (s *Service) Current() *Episode {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ep := s.current
	if ep == nil {
		return nil
	}
	v := &Episode{ID: ep.id, Seed: ep.seed, Isolated: ep.isolated, TrackID: ep.trackID}
	for i, a := range ep.agents {
		v.Agents = append(v.Agents, EpisodeAgent{ID: a.id, VehicleID: a.vehicleID, World: a.env.sim.ID})
		if a == ep.primary {
			v.Primary = i
		}
	}
	return v
}

// ServeHTTP routes rusim's four endpoints after the guard's checks; anything else is 404
// {"error":"not_found"}.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer s.recoverRequest(w, r)
	if s.guard(w, r) {
		return
	}
	switch {
	case r.URL.Path == "/health" && r.Method == http.MethodGet:
		s.writeJSON(w, http.StatusOK, s.health())
	case r.URL.Path == "/contract" && r.Method == http.MethodGet:
		s.writeJSON(w, http.StatusOK, s.contract())
	case r.URL.Path == "/reset" && r.Method == http.MethodPost:
		var req ResetRequest
		if !s.decode(w, r, &req) {
			return
		}
		res, err := s.Reset(r.Context(), &req) // a client that leaves takes its reset with it
		s.reply(w, res, err)
	case r.URL.Path == "/step" && r.Method == http.MethodPost:
		var req StepRequest
		if !s.decode(w, r, &req) {
			return
		}
		res, err := s.Step(r.Context(), &req) // a client that leaves takes its steps with it
		s.reply(w, res, err)
	default:
		s.writeJSON(w, http.StatusNotFound, errorBody{"not_found"})
	}
}

var bodyPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// decode reads and decodes a JSON body (decodeRequest); bad bodies are answered with 400.
func (s *Service) decode(w http.ResponseWriter, r *http.Request, dst any) bool {
	body, release, err := s.readBody(w, r)
	defer release()
	if err != nil {
		// The reason without the error's text, which names the connection's addresses.
		var ne net.Error
		switch {
		case errors.Is(err, errTooLarge):
			s.writeJSON(w, http.StatusRequestEntityTooLarge, errorBody{tooLarge().Message})
		case errors.Is(err, errBusy):
			s.writeJSON(w, http.StatusServiceUnavailable, errorBody{fmt.Sprintf(
				"Other requests' bodies over %d KiB hold the %d MiB the server reads at once; retry.", smallBody>>10, bodyBudget>>20)})
		case errors.As(err, &ne) && ne.Timeout():
			s.writeJSON(w, http.StatusRequestTimeout, errorBody{fmt.Sprintf("The request body did not arrive within %s.", s.opts.BodyTimeout)})
		default:
			s.writeJSON(w, http.StatusBadRequest, errorBody{"Could not read the request body: the client stopped sending it."})
		}
		return false
	}
	if _, typed := r.Header["Content-Type"]; !typed && len(bytes.TrimSpace(body)) > 0 {
		// A chunked body, which guard let through for want of its length.
		s.writeJSON(w, http.StatusUnsupportedMediaType, errorBody{`Content-Type must be application/json, not "".`})
		return false
	}
	if err := decodeRequest(body, dst); err != nil {
		status := http.StatusBadRequest
		if e, ok := errors.AsType[*Error](err); ok {
			status = e.Status
		}
		s.writeJSON(w, status, errorBody{err.Error()})
		return false
	}
	if _, ok := dst.(*StepRequest); ok {
		s.noteStepFields(body)
	}
	return true
}

func (s *Service) reply(w http.ResponseWriter, res *StepResult, err error) {
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			e = internalError("%v", err)
		}
		s.writeJSON(w, e.Status, errorBody{e.Message})
		return
	}
	s.writeJSON(w, http.StatusOK, res)
}

func (s *Service) writeJSON(w http.ResponseWriter, status int, v any) {
	if e, ok := v.(errorBody); ok {
		v = errorBody{clipMessage(e.Error)}
	}
	b, err := json.Marshal(v)
	if err != nil {
		s.log.Error("training API: encode reply", "err", err)
		status, b = http.StatusInternalServerError, []byte(`{"error":"encoding the reply failed"}`)
	}
	h := w.Header()
	h["Content-Type"] = []string{"application/json; charset=utf-8"}
	h["Content-Length"] = []string{strconv.Itoa(len(b))}
	// A client that does not read its reply holds the handler no longer than ReplyTimeout.
	http.NewResponseController(w).SetWriteDeadline(time.Now().Add(ReplyTimeout))
	w.WriteHeader(status)
	w.Write(b)
}

// health answers /health.
func (s *Service) health() Health {
	h := Health{Status: "ok", PluginRegistrySource: s.opts.RegistrySource,
		AvailableVehicles: len(s.opts.Plugins.Vehicles()), AvailableTracks: len(s.opts.Plugins.Tracks()),
		ActiveAgentIDs: []string{}, ActiveVehicleIDs: []string{}}
	if v := s.Current(); v != nil {
		p := v.Agents[v.Primary]
		h.ActiveAgentID, h.ActiveVehicleID, h.ActiveTrackID = p.ID, p.VehicleID, v.TrackID
		h.ActiveVehicleCount = len(v.Agents)
		for _, a := range v.Agents {
			h.ActiveAgentIDs = append(h.ActiveAgentIDs, a.ID)
			h.ActiveVehicleIDs = append(h.ActiveVehicleIDs, a.VehicleID)
		}
	}
	return h
}

// contract answers /contract from the plugins' device contracts.
func (s *Service) contract() Contract {
	c := Contract{SimulatorID: SimulatorID, SimulatorName: SimulatorName, ContractVersion: ContractVersion,
		TransportInfo: "http://" + s.Addr().String(), AvailableVehicles: []Device{}, AvailableTracks: []TrackInfo{}}
	for _, id := range s.opts.Plugins.Vehicles() {
		v, err := s.opts.Plugins.Vehicle(id)
		if err != nil {
			continue
		}
		c.AvailableVehicles = append(c.AvailableVehicles, deviceOf(v))
	}
	for _, id := range s.opts.Plugins.Tracks() {
		t, err := s.opts.Plugins.Track(id)
		if err != nil {
			continue
		}
		c.AvailableTracks = append(c.AvailableTracks, TrackInfo{TrackID: t.ID, DisplayName: t.DisplayName, ParametersSchemaJSON: t.ParametersSchemaJSON})
	}
	return c
}

func deviceOf(v *plugins.VehicleDescriptor) Device {
	d := Device{DeviceID: v.ID, DeviceType: v.DeviceType, Sensors: []Sensor{}, Actuators: []Actuator{}}
	ct := v.Contract
	if ct == nil {
		return d
	}
	if ct.DeviceID != "" {
		d.DeviceID = ct.DeviceID
	}
	if ct.DeviceType != "" {
		d.DeviceType = ct.DeviceType
	}
	d.ObservationSchemaJSON, d.ActionSchemaJSON = ct.ObservationSchemaJSON, ct.ActionSchemaJSON
	for _, x := range ct.Sensors {
		shape := x.Shape
		if shape == nil {
			shape = []int{}
		}
		d.Sensors = append(d.Sensors, Sensor{ID: x.ID, SensorType: x.SensorType, Format: x.Format, Unit: x.Unit, Shape: shape, RateHz: Float(x.RateHz)})
	}
	for _, x := range ct.Actuators {
		d.Actuators = append(d.Actuators, Actuator{ID: x.ID, ActuatorType: x.ActuatorType, Unit: x.Unit, Min: Float(x.Min), Max: Float(x.Max)})
	}
	return d
}

// maxErrorBytes bounds an error reply's message: it may quote what the client sent (a value
// of a megabyte, say), which is not to be sent back whole.
const maxErrorBytes = 2048

// clipMessage cuts msg to maxErrorBytes at a character boundary, saying how much was left out.
func clipMessage(msg string) string {
	if len(msg) <= maxErrorBytes {
		return msg
	}
	cut := maxErrorBytes
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d more bytes)", msg[:cut], len(msg)-cut)
}
