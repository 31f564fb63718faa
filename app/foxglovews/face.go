package foxglovews

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"

	"simgui/app"
	"simgui/app/httpguard"
)

// FaceID is the live viewer's face in the app's registry.
const FaceID = "faces.foxglove"

// DefaultPort is the port Foxglove's WebSocket connection dialog suggests.
const DefaultPort = 8765

// DefaultAddr is where the face listens unless told otherwise: this machine only.
var DefaultAddr = net.JoinHostPort("127.0.0.1", strconv.Itoa(DefaultPort))

func init() {
	app.RegisterFace(app.FaceModule{
		ID: FaceID, OnWith: "listen", New: func() app.Face { return &Face{} },
		Doc: "Foxglove WebSocket live view of the active world: camera frames, scans, transforms, the scene and every topic",
	})
}

// Face serves the active world to Foxglove (and other foxglove.websocket.v1 clients) while the
// process runs. It is off unless turned on (faces: {foxglove: true}, or --foxglove-port).
type Face struct {
	// Listen is the listen address; "" is DefaultAddr.
	Listen string `yaml:"listen"`
	// AllowOrigins, AllowHosts and Token are as the control socket's (package httpguard):
	// Foxglove in a browser needs its origin allowed.
	AllowOrigins []string `yaml:"allowOrigins"`
	AllowHosts   []string `yaml:"allowHosts"`
	Token        string   `yaml:"token"`
	// MaxClients bounds the viewers at once (DefaultMaxClients when 0).
	MaxClients int `yaml:"maxClients"`
	// MaxRobots bounds the robots whose channels are listed (DefaultMaxRobots when 0).
	MaxRobots int `yaml:"maxRobots"`

	srv  *Server
	stop chan struct{}
	wg   sync.WaitGroup
	once sync.Once
}

// Validate checks the settings.
func (f *Face) Validate() error {
	if err := httpguard.CheckToken(f.Token); err != nil {
		return fmt.Errorf("token: %w", err)
	}
	if f.Listen != "" {
		if _, _, err := net.SplitHostPort(f.Listen); err != nil {
			return errors.New("listen: " + err.Error() + " (want host:port, for example 127.0.0.1:8765)")
		}
	}
	if f.MaxClients < 0 || f.MaxClients > 1024 {
		return errors.New("maxClients: want 1 to 1024 (0 for the default, 16)")
	}
	if f.MaxRobots < 0 || f.MaxRobots > maxMaxRobots {
		return fmt.Errorf("maxRobots: want 1 to %d (0 for the default, %d)", maxMaxRobots, DefaultMaxRobots)
	}
	return nil
}

// Start listens and serves the active world until Shutdown.
func (f *Face) Start(ctx context.Context, h *app.Host) error {
	addr := f.Listen
	if addr == "" {
		addr = DefaultAddr
	}
	srv, err := Listen(Options{Addr: addr, AllowOrigins: f.AllowOrigins, AllowHosts: f.AllowHosts, Token: f.Token,
		MaxClients: f.MaxClients, MaxRobots: f.MaxRobots, Active: h.Active, Logger: h.Logger()})
	if err != nil {
		return err
	}
	if a, ok := srv.Addr().(*net.TCPAddr); ok && !a.IP.IsLoopback() && f.Token == "" {
		h.Logger().Warn("the Foxglove live view is open to the network without a token: whoever reaches it sees the cameras; require one with --token (or SIMGUI_TOKEN)",
			"addr", a.String())
	}
	h.Logger().Info("Foxglove live view listening", "addr", "ws://"+srv.Addr().String())
	f.srv, f.stop = srv, make(chan struct{})
	f.wg.Add(2)
	go func() {
		defer f.wg.Done()
		if err := srv.Serve(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			h.Logger().Error("Foxglove live view stopped", "err", err)
		}
	}()
	go func() {
		defer f.wg.Done()
		for {
			changed := h.Changed()
			srv.WorldChanged()
			select {
			case <-changed:
			case <-f.stop:
				return
			}
		}
	}()
	return nil
}

// Addr returns the address served, nil when the face did not start.
func (f *Face) Addr() net.Addr {
	if f.srv == nil {
		return nil
	}
	return f.srv.Addr()
}

// Shutdown closes the server and every client; it may be called again.
func (f *Face) Shutdown(ctx context.Context) error {
	if f.srv == nil {
		return nil
	}
	f.once.Do(func() { close(f.stop) })
	err := f.srv.Shutdown(ctx)
	f.wg.Wait()
	return err
}

var _ app.Face = (*Face)(nil)
