package bridge

// parking is the sockets a Retarget keeps open, clients connected, for the devices of the
// next world: a device with the same hash key, port and socket kind takes its socket over, so
// that a client (cloisim_ros) reads the new world's robot on the connection it has. A closed
// and rebound port cost each client its connection: libzmq reconnects only after its
// reconnect interval (cloisim_ros: 1 s), and a training run's every reset lost that long of
// every feed, with the commands sent meanwhile.
type parking struct {
	mgr    *Manager // told of the ports parked (Manager.hold), which its test bind would find taken
	byKey  map[string]*socket
	byPort map[uint16]*socket
}

func newParking(mgr *Manager) *parking {
	return &parking{mgr: mgr, byKey: map[string]*socket{}, byPort: map[uint16]*socket{}}
}

func (pk *parking) add(s *socket) {
	pk.byKey[s.hashKey] = s
	pk.byPort[s.Port()] = s
	pk.mgr.hold(s.Port(), s.hashKey)
}

// take returns the parked socket of hashKey when it is on port and of kind (nil: none), and
// closes a parked socket that stands in the way of binding port otherwise (its device is not
// in the new world, or is elsewhere). Nil pk takes nothing.
func (pk *parking) take(hashKey string, port uint16, kind socketKind) *socket {
	if pk == nil {
		return nil
	}
	if s := pk.byKey[hashKey]; s != nil && s.Port() == port && s.kind == kind {
		pk.remove(s)
		return s
	}
	if s := pk.byPort[port]; s != nil {
		pk.remove(s)
		s.Close()
	}
	return nil
}

func (pk *parking) remove(s *socket) {
	delete(pk.byKey, s.hashKey)
	delete(pk.byPort, s.Port())
	pk.mgr.unhold(s.Port())
}

// closeAll closes the sockets no device took.
func (pk *parking) closeAll() {
	if pk == nil {
		return
	}
	for _, s := range pk.byKey {
		pk.remove(s)
		s.Close()
	}
}

// park stops the node's feeds and releases its ports in the Manager, but leaves its sockets
// open, in pk, for the devices of the next world. Close does nothing after.
func (n *node) park(pk *parking) {
	n.closeOnce.Do(func() {
		close(n.done)
		n.wg.Wait()
		for _, s := range n.socks {
			pk.add(s)
		}
		if len(n.ports) > 0 {
			n.closeErr = n.b.mgr.DeallocateDevice(n.ports, n.keys)
		}
	})
}

// park parks every node of the robot (node.park).
func (r *robot) park(pk *parking) {
	for i := len(r.nodes) - 1; i >= 0; i-- {
		r.nodes[i].park(pk)
	}
}
