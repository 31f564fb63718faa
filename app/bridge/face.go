package bridge

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"

	"simgui/app"
)

// FaceID is the bridge's face in the app's registry.
const FaceID = "faces.bridge"

func init() {
	app.RegisterFace(app.FaceModule{
		ID: FaceID, Default: true, New: func() app.Face { return &Face{} },
		Doc: "the active world's devices on CLOiSim's ZeroMQ ports (clock, micom, sensors)",
	})
}

// Face is the device bridge as a face of the host: it serves the devices of the active world
// and, when the active world changes, moves to the new world's devices (Bridge.Retarget), so a
// cloisim_ros client asking device_list sees the robots on show. It offers the
// port lists to other faces (app.Devices).
type Face struct {
	// IP is the address the device ports bind (default 127.0.0.1; 0.0.0.0 serves other
	// machines).
	IP string `yaml:"ip"`
	// QueueLen is how many messages each subscriber of a port may have waiting before the
	// oldest is dropped (libzmq's send high-water mark; default DefaultQueueLen).
	QueueLen int `yaml:"queueLen"`
	// MaxMessage is the largest message a client may send a port (Config.MaxMessage; default
	// DefaultMaxMessage).
	MaxMessage int `yaml:"maxMessage"`
	// Ports is the range the device ports are taken from, "first-last" (default
	// "49152-65535", as CLOiSim), for a firewall or a container that opens only some.
	Ports string `yaml:"ports"`

	b        *Bridge
	h        *app.Host
	stop     chan struct{}
	wg       sync.WaitGroup
	shutOnce sync.Once
	shutErr  error
}

// Validate checks the bind address.
func (f *Face) Validate() error {
	if f.IP != "" && net.ParseIP(f.IP) == nil {
		return errors.New("ip: " + f.IP + " is not an IP address")
	}
	if f.MaxMessage != 0 {
		if err := CheckMaxMessage(f.MaxMessage); err != nil {
			return fmt.Errorf("maxMessage: %w", err)
		}
	}
	if f.Ports != "" {
		if _, _, err := ParsePorts(f.Ports); err != nil {
			return fmt.Errorf("ports: %w", err)
		}
	}
	if f.QueueLen < 0 || f.QueueLen > 1<<16 {
		return fmt.Errorf("queueLen %d is outside 0..65536 (0 = %d)", f.QueueLen, DefaultQueueLen)
	}
	return nil
}

// Start opens the world clock and the active world's devices, then follows the active world.
func (f *Face) Start(_ context.Context, h *app.Host) error {
	act := h.Active()
	if act == nil {
		return errors.New("the host has no world")
	}
	cfg := Config{BindIP: f.IP, QueueLen: f.QueueLen, MaxMessage: f.MaxMessage, Bus: act.Bus, Source: act.Loop, Logger: h.Logger()}
	if f.Ports != "" {
		var err error
		if cfg.FirstPort, cfg.LastPort, err = ParsePorts(f.Ports); err != nil {
			return fmt.Errorf("ports: %w", err)
		}
	}
	b, err := Start(cfg)
	if err != nil {
		return err
	}
	f.b, f.h, f.stop = b, h, make(chan struct{})
	// The ports each device got are in the control socket's device_list; the range says
	// where to look (a firewall, a port forward).
	h.Logger().Info("device bridge serving", "ip", b.Manager().BindIP(), "ports", b.Manager().PortRange(),
		"devices", len(b.Manager().GetDevicePortList("")))
	h.SetDevices(devices{b.Manager(), b})
	f.wg.Add(1)
	go f.follow(act)
	return nil
}

// follow retargets the bridge whenever the host's active world changes, telling the world
// Control clients first, as of a reset (cloisim_ros resets its nodes' time then): the clock
// is about to jump to the other world's time.
func (f *Face) follow(cur *app.Sim) {
	defer f.wg.Done()
	for {
		changed := f.h.Changed()
		if a := f.h.Active(); a != nil && a != cur {
			f.b.AnnounceMove(f.stop)
			if newest := f.h.Active(); newest != nil { // it may have moved on during the answers
				a = newest
			}
			if a != cur {
				// Debug: a training client changes the world on show every episode.
				f.h.Logger().Debug("bridge: serving another world", "world", a.ID)
				f.b.Retarget(a.Bus, a.Loop)
				cur = a
			}
		}
		select {
		case <-changed:
		case <-f.stop:
			return
		}
	}
}

// Bridge returns the running bridge (nil before Start).
func (f *Face) Bridge() *Bridge { return f.b }

// Shutdown withdraws the port lists and closes every port. Later calls return the same.
func (f *Face) Shutdown(context.Context) error {
	if f.b == nil {
		return nil
	}
	f.shutOnce.Do(func() {
		close(f.stop)
		f.wg.Wait()
		f.h.SetDevices(nil)
		f.shutErr = f.b.Close()
	})
	return f.shutErr
}

// devices offers the Manager's maps as app.Devices, and the world Control channel's reset
// announcements to /control's reset (control.ResetAnnouncer).
type devices struct {
	m *Manager
	b *Bridge
}

func (d devices) ControlClients() int   { return d.b.ControlClients() }
func (d devices) AnnounceReset() string { return d.b.AnnounceReset() }
func (d devices) ResetFailed()          { d.b.ResetFailed() }

// DeviceList lists the devices of the world's models as they are now: a sync first, which
// waits for one under way, so that a client polling right after a reset (cloisim_ros builds
// its nodes from the first list it gets) never reads a fleet half opened.
func (d devices) DeviceList(filter string) map[string]map[string]map[string]map[string]uint16 {
	d.b.syncGuarded()
	out := map[string]map[string]map[string]map[string]uint16{}
	for model, types := range d.m.GetDeviceMapList(filter) {
		byType := map[string]map[string]map[string]uint16{}
		for typ, parts := range types {
			byType[string(typ)] = parts
		}
		out[model] = byType
	}
	return out
}

// PortList lists the ports of the world's models as they are now, as DeviceList.
func (d devices) PortList(filter string) map[string]uint16 {
	d.b.syncGuarded()
	return d.m.GetDevicePortList(filter)
}

var (
	_ app.Face          = (*Face)(nil)
	_ app.FaceValidator = (*Face)(nil)
)
