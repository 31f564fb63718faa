package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"simgui/app/api"
	"simgui/app/control"
	"simgui/app/world"
)

// trackStart follows the start of everything the world needs, as CLOiSim's PluginStartTracker
// does: the world counts as loaded once its systems have run Init and the sensors, the device
// bridge and the served faces are up. Progress goes to the debug log; after timeout it reports
// which parts did not start. The loop must not be running yet; the systems are reported from
// the loop goroutine after their Init.
func (s *Sim) trackStart(ctx context.Context, timeout time.Duration) {
	var names, systems []string
	for i, b := range s.Plan.Systems {
		n := fmt.Sprintf("system %s #%d", b.Options.Name, i+1)
		names, systems = append(names, n), append(systems, n)
	}
	names = append(names, "sensors")
	if s.Bridge != nil {
		names = append(names, "bridge")
	}
	for _, svc := range s.services {
		names = append(names, serviceName(svc))
	}
	s.Start.Bind(names...)
	if s.Bridge != nil {
		s.Start.Started("bridge") // its ports were bound in New
	}
	s.Loop.Do(func(*world.World) { // runs after World.Start has run every Init
		for _, n := range systems {
			s.Start.Started(n)
		}
		s.Start.Started("sensors")
	})
	go func() {
		err := s.Start.Wait(ctx, timeout)
		switch {
		case err == nil:
			s.log.Debug("world loaded", "parts", len(names))
		case !errors.Is(err, context.Canceled):
			s.log.Error("world not fully loaded", "err", err)
		}
	}()
}

// serviceName names a served face for the start tracker.
func serviceName(svc service) string {
	switch svc.(type) {
	case *control.Service:
		return "control service"
	case *api.Service:
		return "training API"
	}
	return fmt.Sprintf("service %T", svc)
}
