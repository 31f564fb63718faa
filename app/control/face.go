package control

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"syscall"

	"simgui/app"
	"simgui/app/httpguard"
	"simgui/app/transport"
	"simgui/app/world"
)

// FaceID is the control service's face in the app's registry.
const FaceID = "faces.control"

func init() {
	app.RegisterFace(app.FaceModule{
		ID: FaceID, Default: true, New: func() app.Face { return &Face{} },
		Doc: "CLOiSim's WebSocket SimulationService: /control and /markers on the active world",
	})
}

// Face is the control service as a face of the host: its world commands go to the active
// world, device_list and port_list answer from the device bridge, start_record records
// through the recorder, and markers follow the world on show.
type Face struct {
	// Listen is the listen address; "" is 127.0.0.1 with DefaultPort or CLOISIM_SERVICE_PORT.
	Listen string `yaml:"listen"`
	// IP, when set, is the address to bind in place of Listen's host (0.0.0.0: every
	// interface), so that cloisim_ros on another machine can find the device ports.
	IP string `yaml:"ip"`
	// Required makes a port in use an error; otherwise the face stays off with a warning.
	Required bool `yaml:"required"`
	// AllowOrigins, AllowHosts, Token and RecordDir are Options'.
	AllowOrigins []string `yaml:"allowOrigins"`
	AllowHosts   []string `yaml:"allowHosts"`
	Token        string   `yaml:"token"`
	RecordDir    string   `yaml:"recordDir"`

	svc      *Service
	stop     chan struct{}
	wg       sync.WaitGroup
	stopOnce sync.Once
}

// errNoRecorder answers start_record when no recorder face runs.
var errNoRecorder = errors.New("record service is unavailable")

// Validate checks the bind address.
func (f *Face) Validate() error {
	if err := httpguard.CheckToken(f.Token); err != nil {
		return fmt.Errorf("token: %w", err)
	}
	if f.IP != "" && net.ParseIP(f.IP) == nil {
		return errors.New("ip: " + f.IP + " is not an IP address")
	}
	return nil
}

// addr is the address to listen on: Listen (or the default) with IP as its host when set.
func (f *Face) addr() (string, error) {
	if f.IP == "" {
		return f.Listen, nil
	}
	addr := f.Listen
	if addr == "" {
		var err error
		if addr, err = DefaultAddr(); err != nil {
			return "", err
		}
	}
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", err
	}
	return net.JoinHostPort(f.IP, port), nil
}

// Start opens the listener and serves until Shutdown.
func (f *Face) Start(ctx context.Context, h *app.Host) error {
	addr, err := f.addr()
	if err != nil {
		return err
	}
	svc, err := New(Options{
		Addr: addr, AllowOrigins: f.AllowOrigins, AllowHosts: f.AllowHosts, Token: f.Token, RecordDir: f.RecordDir,
		Logger: h.Logger(),
		World: func() (*world.Loop, *transport.Bus) {
			if a := h.Active(); a != nil {
				return a.Loop, a.Bus
			}
			return nil, nil
		},
		Devices: func() Devices {
			if d := h.Devices(); d != nil {
				return d
			}
			return nil
		},
		StartRecording: func(f *os.File) (func() error, error) {
			r := h.Recorder()
			if r == nil {
				f.Close()
				return nil, errNoRecorder
			}
			return r.StartRecording(f)
		},
	})
	if err != nil {
		if !f.Required && errors.Is(err, syscall.EADDRINUSE) {
			h.Notice("control socket off for this run: its port is taken (another simgui?); cloisim_ros and /control clients reach the other", "err", err)
			return nil
		}
		return err
	}
	if a, ok := svc.Addr().(*net.TCPAddr); ok && !a.IP.IsLoopback() && f.Token == "" {
		// It follows --bridge-ip: serving the devices to the network serves this too.
		h.Logger().Warn("the control socket is open to the network without a token: whoever reaches it can reset, pause, teleport and record; require one with --token (or SIMGUI_TOKEN)",
			"addr", a.String())
	}
	// Said at start, so that a headless run shows it is up and where (with --control-port 0
	// the port is known only here).
	h.Logger().Info("control socket listening", "addr", "ws://"+svc.Addr().String()+"/control")
	f.svc, f.stop = svc, make(chan struct{})
	f.wg.Add(2)
	go func() {
		defer f.wg.Done()
		if err := svc.Serve(ctx); err != nil && !errors.Is(err, ErrClosed) {
			h.Logger().Error("control service stopped", "err", err)
		}
	}()
	go func() {
		defer f.wg.Done()
		cur := h.Active()
		for {
			changed := h.Changed()
			if a := h.Active(); a != cur {
				svc.WorldChanged()
				cur = a
			}
			select {
			case <-changed:
			case <-f.stop:
				return
			}
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

// Shutdown closes the listener and every session; it may be called again.
func (f *Face) Shutdown(ctx context.Context) error {
	if f.svc == nil {
		return nil
	}
	f.stopOnce.Do(func() { close(f.stop) })
	err := f.svc.Shutdown(ctx)
	f.wg.Wait()
	return err
}

var _ app.Face = (*Face)(nil)
