package app

import (
	"simgui/app/bridge"
)

// BridgeOptions configure the CLOiSim device bridge of a Sim.
type BridgeOptions struct {
	// Enabled serves the devices on ZeroMQ ports (off in the zero value, so tests and
	// embedders opt in; `simgui run` turns it on unless --no-bridge).
	Enabled bool
	// IP is the address the ports bind; "" is 127.0.0.1, "0.0.0.0" serves other machines.
	IP string
	// MaxMessage is the largest message a client may send a port (0: bridge.DefaultMaxMessage).
	MaxMessage int
}

// startBridge starts the bridge when o.Enabled: its ports are allocated and listening when it
// returns, and Close stops it before the bus closes.
func (s *Sim) startBridge(o BridgeOptions) error {
	if !o.Enabled {
		return nil
	}
	b, err := bridge.Start(bridge.Config{BindIP: o.IP, Bus: s.Bus, Source: s.Loop, Logger: s.log, MaxMessage: o.MaxMessage})
	if err != nil {
		return err
	}
	s.Bridge = b
	s.stops = append(s.stops, func() {
		if err := b.Close(); err != nil {
			s.log.Warn("bridge: close", "err", err)
		}
	})
	return nil
}
