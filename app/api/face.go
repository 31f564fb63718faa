package api

import (
	"context"
	"errors"
	"fmt"
	"net"
	"syscall"
	"time"

	"simgui/app"
	"simgui/app/httpguard"
	"simgui/app/scenario"
	"simgui/plugins"
)

// FaceID is the training API's face in the app's registry.
const FaceID = "faces.api"

func init() {
	app.RegisterFace(app.FaceModule{
		ID: FaceID, Default: true, New: func() app.Face { return &Face{} },
		Doc: "rusim's training HTTP API (/health /contract /reset /step); episodes are worlds of the host",
	})
}

// Face is the training API as a face of the host: each reset builds the episode's worlds with
// the host's builder and adds them to the host, where the window, the bridge, /control and
// the recorder can follow them. The base scenario is the scenario world's when the face
// starts.
type Face struct {
	// Listen is the listen address; "" is DefaultAddr().
	Listen string `yaml:"listen"`
	// Required makes a port in use an error; otherwise the face stays off with a warning.
	Required bool `yaml:"required"`
	// IdleTimeout is how long an episode without requests stays on show (default 10 s).
	IdleTimeout time.Duration `yaml:"idleTimeout"`
	// AllowOrigins, AllowHosts and Token guard the API as they guard /control (Options).
	AllowOrigins []string `yaml:"allowOrigins"`
	AllowHosts   []string `yaml:"allowHosts"`
	Token        string   `yaml:"token"`

	svc  *Service
	done chan struct{}
}

// Validate checks the settings.
func (f *Face) Validate() error {
	if err := httpguard.CheckToken(f.Token); err != nil {
		return fmt.Errorf("token: %w", err)
	}
	if f.IdleTimeout < 0 || f.IdleTimeout > time.Hour {
		return fmt.Errorf("idleTimeout %v is outside 0..1h", f.IdleTimeout)
	}
	return nil
}

// Start opens the listener and serves until Shutdown.
func (f *Face) Start(ctx context.Context, h *app.Host) error {
	sc := h.Scenario()
	if sc == nil {
		return errors.New("the host has no scenario world")
	}
	// /health says where plugins come from, never a path.
	source := "builtin+user"
	if _, builtin := h.Plugins().(*plugins.Catalog); builtin {
		source = "builtin"
	}
	// Resets start from the scenario on show: the window's user may open another.
	onShow := func() *scenario.Scenario {
		if sc := h.Scenario(); sc != nil && sc.Plan != nil {
			return sc.Plan.Scenario
		}
		return nil
	}
	svc, err := New(Options{Addr: f.Listen, Scenario: sc.Plan.Scenario, OnShow: onShow, Host: h, IdleTimeout: f.IdleTimeout,
		RegistrySource: source, AllowOrigins: f.AllowOrigins, AllowHosts: f.AllowHosts, Token: f.Token, Logger: h.Logger()})
	if err != nil {
		if !f.Required && errors.Is(err, syscall.EADDRINUSE) {
			h.Notice("training API off for this run: its port is taken (another simgui?)", "err", err)
			return nil
		}
		return err
	}
	h.Logger().Info("training API listening", "addr", "http://"+svc.Addr().String())
	f.svc, f.done = svc, make(chan struct{})
	go func() {
		defer close(f.done)
		if err := svc.Serve(ctx); err != nil && !errors.Is(err, ErrClosed) && !errors.Is(err, context.Canceled) {
			h.Logger().Error("training API stopped", "err", err)
		}
	}()
	return nil
}

// Service returns the running service, nil when it did not start.
func (f *Face) Service() *Service { return f.svc }

// Addr returns the address served, nil when the face did not start.
func (f *Face) Addr() net.Addr {
	if f.svc == nil {
		return nil
	}
	return f.svc.Addr()
}

// Shutdown stops serving and removes the current episode's worlds.
func (f *Face) Shutdown(ctx context.Context) error {
	if f.svc == nil {
		return nil
	}
	err := f.svc.Shutdown(ctx)
	<-f.done
	return err
}

var (
	_ app.Face          = (*Face)(nil)
	_ app.FaceValidator = (*Face)(nil)
)
