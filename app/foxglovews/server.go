package foxglovews

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"simgui/app"
	"simgui/app/httpguard"
)

// Limits of a Server.
const (
	// DefaultMaxClients bounds the clients connected at once.
	DefaultMaxClients = 16
	// DefaultMaxRobots is how many robots' channels (their sensors and other /model/<name>/ topics)
	// are listed, the first in the world's order, as the bridge serves as many: a fleet of
	// 3000 had some 30,000 channels, an Advertise of 56 MB for each viewer. The pose list, its
	// transforms and the scene still hold every robot.
	DefaultMaxRobots = 256
	// maxMaxRobots bounds what a scenario may raise MaxRobots to: 1024 KS0223s make an
	// Advertise of some 35 MB (every channel carries its schema), 4096 one of 139 MB.
	maxMaxRobots = 1024
	// maxRequest is the largest text message a client may send; a subscription takes about
	// 30 bytes, so this holds thousands.
	maxRequest = 256 << 10
	// writeTimeout is how long one write to a client may take before it is cut off.
	writeTimeout = 10 * time.Second
	// DefaultIdleGrace is Options.IdleGrace's default: Foxglove subscribes within a second of
	// connecting.
	DefaultIdleGrace = 5 * time.Second
	// refreshEvery is how often the channel list is looked at again for robots that came or
	// went, while clients are connected.
	refreshEvery = time.Second
)

// Options configure a Server.
type Options struct {
	// Addr is the listen address (host:port); port 0 picks a free one.
	Addr string
	// AllowOrigins, AllowHosts and Token are as package httpguard takes them.
	AllowOrigins, AllowHosts []string
	Token                    string
	// MaxClients bounds the clients at once (DefaultMaxClients when 0).
	MaxClients int
	// IdleGrace is how long a client may watch nothing (no subscription) before a newcomer
	// past MaxClients takes its place (DefaultIdleGrace when 0).
	IdleGrace time.Duration
	// MaxRobots bounds the robots whose channels are listed (DefaultMaxRobots when 0).
	MaxRobots int
	// Active returns the world to serve, nil for none yet.
	Active func() *app.Sim
	Logger *slog.Logger
}

// Server is the Foxglove WebSocket server of the active world. Make it with Listen, run it with
// Serve, tell it of another world with WorldChanged, stop it with Shutdown.
type Server struct {
	opts     Options
	log      *slog.Logger
	ln       net.Listener
	srv      *http.Server
	guard    *httpguard.Guard
	upgrader websocket.Upgrader
	session  string

	ctx    context.Context
	cancel context.CancelFunc
	poke   chan struct{}
	wg     sync.WaitGroup // clients, feeds and the refresher

	// mu guards what follows: the channels advertised, the clients and their subscriptions.
	mu       sync.Mutex
	closed   bool
	world    *app.Sim
	channels map[uint32]*channel
	ids      map[string]uint32 // spec.key → the ID it was given
	nextID   uint32
	// unlisted is how many robots the last listing left out for MaxRobots.
	unlisted int
	// advAll is the Advertise of every channel, encoded once for the clients that connect
	// until the list changes (nil: not made yet).
	advAll  []byte
	clients map[*client]struct{}
	opening int // upgrades under way, counted against MaxClients
}

// Listen opens the listener, so that a port in use is reported here.
func Listen(opts Options) (*Server, error) {
	if opts.MaxClients <= 0 {
		opts.MaxClients = DefaultMaxClients
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.IdleGrace <= 0 {
		opts.IdleGrace = DefaultIdleGrace
	}
	if opts.MaxRobots <= 0 {
		opts.MaxRobots = DefaultMaxRobots
	}
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", opts.Addr, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{
		opts: opts, log: opts.Logger, ln: ln, guard: httpguard.New(opts.AllowOrigins, opts.AllowHosts, opts.Token).WithLocalPages(), // Foxglove's desktop app
		// The guard has checked the origin before the upgrade.
		upgrader: websocket.Upgrader{Subprotocols: []string{Subprotocol}, CheckOrigin: func(*http.Request) bool { return true }},
		session:  strconv.FormatInt(time.Now().UnixNano(), 10),
		ctx:      ctx, cancel: cancel, poke: make(chan struct{}, 1),
		channels: map[uint32]*channel{}, ids: map[string]uint32{}, clients: map[*client]struct{}{},
	}
	// Connections not yet upgraded are bounded as the other HTTP faces' are; upgraded ones by
	// MaxClients.
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(s.log.Handler(), slog.LevelDebug),
		ConnState: (&httpguard.ConnLimit{}).Track}
	return s, nil
}

// Addr returns the address listened on.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Serve serves until Shutdown; it returns http.ErrServerClosed then.
func (s *Server) Serve() error {
	s.wg.Add(1)
	go s.refresher()
	return s.srv.Serve(s.ln)
}

// WorldChanged tells the server the active world may be another: its channels are listed
// again and the subscribed ones follow it.
func (s *Server) WorldChanged() {
	select {
	case s.poke <- struct{}{}:
	default:
	}
}

// Shutdown closes the listener and every client, and waits for the server's goroutines.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closed = true
	clients := make([]*client, 0, len(s.clients))
	for c := range s.clients {
		clients = append(clients, c)
	}
	for _, ch := range s.channels {
		ch.stopFeed()
	}
	s.mu.Unlock()
	s.cancel()
	err := s.srv.Shutdown(ctx)
	// Each client is told that the server goes away, all at once: one that has stopped
	// reading holds its Close frame back for goAwayWait at most.
	var bye sync.WaitGroup
	for _, c := range clients {
		bye.Go(c.goAway)
	}
	bye.Wait()
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		return ctx.Err()
	}
	return err
}

// ServeHTTP checks a connection and serves it as a client.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if ref := s.guard.Check(r); ref != nil {
		http.Error(w, ref.Message, ref.Status)
		return
	}
	if !websocket.IsWebSocketUpgrade(r) {
		http.Error(w, "simgui's live view for Foxglove: open a Foxglove WebSocket connection to ws://"+r.Host+"/", http.StatusUpgradeRequired)
		return
	}
	if !slices.Contains(websocket.Subprotocols(r), Subprotocol) {
		http.Error(w, "want the WebSocket subprotocol "+Subprotocol+" (Foxglove's)", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	if !s.closed && len(s.clients)+s.opening >= s.opts.MaxClients {
		// A client that watches nothing makes room: connections that never subscribe must
		// not lock Foxglove out.
		if idle := s.unwatchingLocked(time.Now()); idle != nil {
			delete(s.clients, idle)
			go idle.evict() // its close handshake waits up to a second: not under the lock
		}
	}
	if s.closed || len(s.clients)+s.opening >= s.opts.MaxClients {
		s.mu.Unlock()
		http.Error(w, fmt.Sprintf("the live view takes %d client(s) at once, and each is watching or has just connected; try again when one leaves", s.opts.MaxClients), http.StatusServiceUnavailable)
		return
	}
	s.opening++
	s.wg.Add(1)
	s.mu.Unlock()
	defer s.wg.Done()
	conn, err := s.upgrader.Upgrade(w, r, nil)
	s.mu.Lock()
	s.opening--
	if err != nil || s.closed {
		s.mu.Unlock()
		if conn != nil {
			conn.Close()
		}
		return
	}
	c := newClient(conn)
	s.clients[c] = struct{}{}
	// Server Info and the channels first, under the lock, so that no change of the list
	// reaches the client before them.
	c.sendJSON(serverInfo{Op: "serverInfo", Name: "simgui", Capabilities: []string{}, SessionID: s.session,
		Metadata: map[string]string{"world": worldID(s.world)}})
	if s.advAll == nil {
		s.advAll = marshalJSON(s.advertiseLocked(nil))
	}
	c.sendText(s.advAll)
	if s.unlisted > 0 {
		c.status(levelWarning, s.unlistedMessage())
	}
	s.mu.Unlock()
	s.WorldChanged() // a first client: list the channels now, not within a second
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		c.writeLoop()
	}()
	s.readLoop(c)
}

// unwatchingLocked returns the client connected the longest of those that have subscribed to
// nothing for IdleGrace since they connected, or nil. s.mu is held.
func (s *Server) unwatchingLocked(now time.Time) *client {
	var out *client
	for c := range s.clients {
		if len(c.subs) == 0 && now.Sub(c.since) >= s.opts.IdleGrace && (out == nil || c.since.Before(out.since)) {
			out = c
		}
	}
	return out
}

func worldID(a *app.Sim) string {
	if a == nil {
		return ""
	}
	return a.ID
}

// readLoop reads a client's requests until it leaves, then forgets it.
func (s *Server) readLoop(c *client) {
	defer s.drop(c)
	c.conn.SetReadLimit(maxRequest)
	for {
		typ, data, err := c.conn.ReadMessage()
		if err != nil {
			return
		}
		if typ != websocket.TextMessage {
			c.status(levelError, "simgui takes no messages from clients (no clientPublish): only subscribe and unsubscribe")
			continue
		}
		req, err := parseRequest(data)
		if err != nil {
			c.status(levelError, err.Error())
			continue
		}
		switch req.Op {
		case "subscribe":
			s.subscribe(c, req)
		case "unsubscribe":
			s.unsubscribe(c, req.SubscriptionIDs)
		default:
			c.status(levelWarning, fmt.Sprintf("op %q is not served here: simgui offers subscribe and unsubscribe", req.Op))
		}
	}
}

// drop forgets a client that left: its subscriptions end, and feeds nobody else reads stop.
func (s *Server) drop(c *client) {
	c.close()
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.clients, c)
	for _, chID := range c.subs {
		if ch := s.channels[chID]; ch != nil {
			ch.unsubscribe(c)
		}
	}
	c.subs = nil
}

func (s *Server) subscribe(c *client, req *request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, raw := range req.Subscriptions {
		if c.subs == nil {
			return // the client has left
		}
		id, chID, err := parseSubscription(i, raw)
		if err != nil {
			c.status(levelError, err.Error())
			continue
		}
		ch := s.channels[chID]
		switch {
		case ch == nil:
			c.status(levelError, fmt.Sprintf("subscribe: no channel %d (advertised: %d channels)", chID, len(s.channels)))
			continue
		case c.hasSub(id):
			c.status(levelError, fmt.Sprintf("subscribe: subscription id %d is in use; unsubscribe it first", id))
			continue
		}
		if had, dup := ch.subs[c]; dup {
			c.status(levelError, fmt.Sprintf("subscribe: channel %d (%s) is subscribed already, as %d", chID, ch.spec.topic, had))
			continue
		}
		c.subs[id] = chID
		delete(c.gone, id)
		ch.subscribe(s, c, id)
	}
}

func (s *Server) unsubscribe(c *client, ids []json.RawMessage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, raw := range ids {
		id, err := parseID(i, raw)
		if err != nil {
			c.status(levelError, err.Error())
			continue
		}
		if c.subs == nil {
			return // the client has left
		}
		chID, ok := c.subs[id]
		if !ok {
			// A subscription its channel's unadvertise ended: Foxglove unsubscribes it then.
			if !c.gone[id] {
				c.status(levelWarning, fmt.Sprintf("unsubscribe: no subscription %d", id))
			}
			delete(c.gone, id)
			continue
		}
		delete(c.subs, id)
		c.forget(id)
		if ch := s.channels[chID]; ch != nil {
			ch.unsubscribe(c)
		}
	}
}

// advertiseLocked is the Advertise of the channels ids (all when nil). s.mu is held.
func (s *Server) advertiseLocked(ids []uint32) advertise {
	if ids == nil {
		for id := range s.channels {
			ids = append(ids, id)
		}
		slices.Sort(ids)
	}
	out := advertise{Op: "advertise", Channels: []advertised{}}
	for _, id := range ids {
		out.Channels = append(out.Channels, s.channels[id].adv)
	}
	return out
}

// refresher lists the active world's channels when poked and every refreshEvery while
// clients are connected, and tells the clients what changed.
func (s *Server) refresher() {
	defer s.wg.Done()
	tick := time.NewTicker(refreshEvery)
	defer tick.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-s.poke:
		case <-tick.C:
			s.mu.Lock()
			idle := len(s.clients) == 0
			s.mu.Unlock()
			if idle {
				continue
			}
		}
		s.refresh()
	}
}

// refresh lists the active world's channels, advertises the new ones, unadvertises the gone
// ones and moves the subscribed ones' feeds to the world when it is another.
func (s *Server) refresh() {
	a := s.opts.Active()
	specs, unlisted, ok := specsOf(s.ctx, a, s.opts.MaxRobots)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	if unlisted != s.unlisted {
		s.unlisted = unlisted
		if unlisted > 0 {
			s.log.Warn("live view lists the channels of the first robots only", "limit", s.opts.MaxRobots, "unlisted", unlisted)
			for c := range s.clients {
				c.status(levelWarning, s.unlistedMessage())
			}
		}
	}
	moved := a != s.world
	s.world = a
	want := map[uint32]spec{}
	var added []uint32
	for _, sp := range specs {
		id, known := s.ids[sp.key()]
		if !known {
			s.nextID++
			id = s.nextID
			s.ids[sp.key()] = id
		}
		want[id] = sp
		if _, on := s.channels[id]; on {
			continue
		}
		adv, err := advertisement(id, sp)
		if err != nil {
			s.log.Warn("live view leaves out a channel", "topic", sp.topic, "err", err)
			continue
		}
		s.channels[id] = &channel{id: id, spec: sp, adv: adv, subs: map[*client]uint32{}}
		added = append(added, id)
	}
	var gone []uint32
	for id, ch := range s.channels {
		if _, keep := want[id]; keep {
			if moved {
				ch.stopFeed()
				ch.spec = want[id]
				ch.latched = nil
				ch.startFeed(s)
			}
			continue
		}
		ch.stopFeed()
		for c, sub := range ch.subs {
			delete(c.subs, sub)
			c.forget(sub)
			c.gone[sub] = true
		}
		delete(s.channels, id)
		gone = append(gone, id)
	}
	slices.Sort(added)
	slices.Sort(gone)
	if len(added) > 0 || len(gone) > 0 {
		s.advAll = nil
	}
	// Encoded once for every client: a large world's list is megabytes.
	var unadv, adv []byte
	if len(gone) > 0 {
		unadv = marshalJSON(unadvertise{Op: "unadvertise", ChannelIDs: gone})
	}
	if len(added) > 0 {
		adv = marshalJSON(s.advertiseLocked(added))
	}
	for c := range s.clients {
		if unadv != nil {
			c.sendText(unadv)
		}
		if adv != nil {
			c.sendText(adv)
		}
	}
}

// unlistedMessage tells a viewer that robots' channels are not listed. s.mu is held.
func (s *Server) unlistedMessage() string {
	return fmt.Sprintf("the live view lists the channels of the first %d robots; %d more are in the world's pose list and scene only", s.opts.MaxRobots, s.unlisted)
}

// marshalJSON encodes a server message; they are all plain structs.
func marshalJSON(v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err) // a programming error: the messages are plain structs
	}
	return data
}
