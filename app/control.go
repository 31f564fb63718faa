package app

import (
	"errors"
	"net"
	"syscall"

	"simgui/app/bridge"
	"simgui/app/control"
)

// ControlOptions configures the WebSocket SimulationService.
type ControlOptions struct {
	// Addr is the listen address; "" means the default (127.0.0.1:8080 or CLOISIM_SERVICE_PORT),
	// "off" disables the service.
	Addr string
	// Required makes a failure to listen fatal; otherwise a busy default port is a warning.
	Required                 bool
	AllowOrigins, AllowHosts []string
	Token                    string
	// RecordDir is where start_record writes (default the working directory).
	RecordDir string
}

// startControl creates the control service; it is served while the loop runs.
func (s *Sim) startControl(o ControlOptions) error {
	if o.Addr == "off" {
		return nil
	}
	var ports *bridge.Manager
	if s.Bridge != nil {
		ports = s.Bridge.Manager()
	}
	svc, err := control.New(control.Options{
		Addr: o.Addr, AllowOrigins: o.AllowOrigins, AllowHosts: o.AllowHosts, Token: o.Token, RecordDir: o.RecordDir,
		Loop: s.Loop, Bus: s.Bus, Bridge: ports, Logger: s.log,
	})
	if err != nil {
		if !o.Required && errors.Is(err, syscall.EADDRINUSE) {
			s.log.Warn("control service not started", "err", err)
			return nil
		}
		return err
	}
	s.Control = svc
	s.services = append(s.services, svc)
	return nil
}

// ControlAddr returns the control service's address, or nil when it is not running.
func (s *Sim) ControlAddr() net.Addr {
	if s.Control == nil {
		return nil
	}
	return s.Control.Addr()
}
