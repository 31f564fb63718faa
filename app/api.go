package app

import (
	"errors"
	"net"
	"slices"
	"syscall"

	"simgui/app/api"
	"simgui/app/scenario"
	"simgui/app/world"
	"simgui/plugins"
)

// APIOptions configures the training HTTP API (rusim's runtime API).
type APIOptions struct {
	// Addr is the listen address; "" means the default (127.0.0.1:8000, or UAVSIM_API_HOST
	// and UAVSIM_API_PORT), "off" disables the API.
	Addr string
	// Required makes a failure to listen fatal; otherwise a busy default port is a warning.
	Required bool
	// AllowOrigins, AllowHosts and Token guard the API as they guard the control service
	// (package httpguard).
	AllowOrigins, AllowHosts []string
	Token                    string
}

// startAPI creates the training API; it is served while the loop runs. Its episodes are
// worlds of their own, built by New from the plans the API resolves (lockstep, no control
// service, no API of their own). The first reset pauses the scenario's own world, which the
// episodes replace as far as a viewer is concerned (see ViewLoop).
func (s *Sim) startAPI(o APIOptions, r plugins.Resolver) error {
	if o.Addr == "off" {
		return nil
	}
	log := s.log
	cat, source := apiCatalog(r)
	svc, err := api.New(api.Options{
		Addr: o.Addr, Scenario: s.Plan.Scenario, Plugins: cat, RegistrySource: source, Logger: log,
		AllowOrigins: o.AllowOrigins, AllowHosts: o.AllowHosts, Token: o.Token,
		Build: func(p *scenario.Plan) (api.Instance, error) {
			sim, err := New(p, Options{Lockstep: true, Control: ControlOptions{Addr: "off"}, API: APIOptions{Addr: "off"}, Logger: log})
			if err != nil {
				return api.Instance{}, err
			}
			return api.Instance{Loop: sim.Loop, Run: sim.Run, Close: sim.Close, Sensors: sim.Sensors}, nil
		},
		OnReset: func(*api.Episode) {
			s.pauseOnce.Do(func() {
				log.Info("training API: first reset; the scenario's own world is paused")
				go s.Loop.Pause() // waits for the loop; never from the caller's goroutine
			})
		},
	})
	if err != nil {
		if !o.Required && errors.Is(err, syscall.EADDRINUSE) {
			s.log.Warn("training API not started", "err", err)
			return nil
		}
		return err
	}
	s.API = svc
	s.services = append(s.services, svc)
	return nil
}

// apiCatalog returns what the API resolves and lists plugins with — the built-ins, or r
// (the user registry over the built-ins) — and /health's pluginRegistrySource.
func apiCatalog(r plugins.Resolver) (api.Catalog, string) {
	switch c := r.(type) {
	case nil:
		return plugins.Builtin(), "builtin"
	case api.Catalog:
		return c, "builtin"
	}
	// No path: /health is readable by any client of the API.
	return resolverCatalog{r}, "builtin+user"
}

// resolverCatalog lists a Resolver's plugins through its lookup errors: a Resolver answers an
// unknown id with a *plugins.UnknownPluginError whose Known lists every id of the type (the
// user registry: both tiers). This keeps app free of the registry package, whose tests import
// app.
type resolverCatalog struct{ plugins.Resolver }

// noSuchPlugin is an id no plugin has (ids are dotted names without control characters).
const noSuchPlugin = "\x00"

func (c resolverCatalog) Vehicles() []string {
	_, err := c.Vehicle(noSuchPlugin)
	return knownIDs(err)
}

func (c resolverCatalog) Tracks() []string {
	_, err := c.Track(noSuchPlugin)
	return knownIDs(err)
}

func knownIDs(err error) []string {
	var u *plugins.UnknownPluginError
	if !errors.As(err, &u) {
		return nil
	}
	return slices.Sorted(slices.Values(u.Known))
}

// APIAddr returns the training API's address, or nil when it is not running.
func (s *Sim) APIAddr() net.Addr {
	if s.API == nil {
		return nil
	}
	return s.API.Addr()
}

// ViewLoop returns the loop a viewer should show: once a training client has reset, the world
// of the primary agent of the API's current episode; before that the scenario's own. It
// changes at every reset (s.API.Changed() says when); call it each frame. Safe from any
// goroutine.
func (s *Sim) ViewLoop() *world.Loop {
	if s.API != nil {
		if ep := s.API.Current(); ep != nil {
			return ep.PrimaryLoop()
		}
	}
	return s.Loop
}
