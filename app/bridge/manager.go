package bridge

import (
	"errors"
	"fmt"
	"maps"
	"net"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// Defaults of [Options].
const (
	DefaultBindIP    = "127.0.0.1"
	DefaultFirstPort = 49152 // start of the IANA dynamic range, as CLOiSim
	DefaultLastPort  = 65535
)

// Errors returned by [Manager.AllocateDevice], for errors.Is.
var (
	ErrHashKeyInUse = errors.New("hashKey already allocated")
	ErrNoFreePort   = errors.New("no free port")
	// ErrRangeUsedUp joins ErrNoFreePort when every port of the range is this bridge's
	// own: the range is too small for the devices, rather than taken by other programs.
	ErrRangeUsedUp = errors.New("this bridge holds every one")
)

// Options configure a [Manager]. The zero value gives CLOiSim's range on 127.0.0.1.
type Options struct {
	// BindIP is the address ports are probed on (and the device endpoints will bind). Default
	// 127.0.0.1; "0.0.0.0" serves other machines, as CLOiSim's tcp://*:port does.
	BindIP string
	// FirstPort and LastPort bound the scan, inclusive. Zero means 49152 and 65535.
	FirstPort, LastPort uint16
}

// DeviceMap is the four-level device map: model name → device type → parts → key → port. It
// marshals to JSON exactly as CLOiSim's device_list result.
type DeviceMap map[string]map[DeviceType]map[string]map[string]uint16

// Manager is CLOiSim's BridgeManager: it hands out one TCP port per device channel and answers
// the lookups behind the /control device_list and port_list commands. Safe for concurrent use.
type Manager struct {
	bindIP      string
	first, last uint16

	mu        sync.Mutex
	byKey     map[string]uint16 // flat hashKey → port
	keyOfPort map[uint16]string // reverse of byKey
	devices   DeviceMap
	routes    map[uint16]route // where each port sits in devices

	// lastPort and lastKey remember which port each hashKey last had, after it is released
	// too. cloisim_ros keeps a node for as long as its (model, device type, parts) is listed
	// and never reads its ports again, so a model that comes back (the bridge moving to a
	// training episode's world and back, or a reset that lists the models in another order)
	// must find its old ports, and a newcomer must not take them. Each port is remembered for
	// one key at most, so both maps stay within the range's size.
	lastPort map[string]uint16
	lastKey  map[uint16]string
	// forgotten is a port at or below the lowest one of the range without a lastKey entry:
	// every port before it is remembered for a key. The search that spares remembered ports
	// starts there, rather than walking over them all each time: models churning through
	// the range left every port remembered, and each allocation then took about 1 ms (a reset
	// of 256 new models, 2,048 ports, 2.5 s with the manager locked).
	forgotten int
	// held is the ports the bridge keeps bound during a Retarget for the devices of the next
	// world (parking), by the hashKey they were the port of: free for that key without a test
	// bind, which they would fail.
	held map[uint16]string
}

// route is a port's place in the device map.
type route struct {
	model    string
	typ      DeviceType
	partsKey string
	key      string
}

// NewManager returns an empty registry. It fails on a BindIP that is not an IP address or an
// empty port range.
func NewManager(opts Options) (*Manager, error) {
	m := &Manager{
		bindIP: opts.BindIP, first: opts.FirstPort, last: opts.LastPort,
		byKey: map[string]uint16{}, keyOfPort: map[uint16]string{},
		devices: DeviceMap{}, routes: map[uint16]route{},
		lastPort: map[string]uint16{}, lastKey: map[uint16]string{}, held: map[uint16]string{},
	}
	if m.bindIP == "" {
		m.bindIP = DefaultBindIP
	}
	if m.first == 0 {
		m.first = DefaultFirstPort
	}
	if m.last == 0 {
		m.last = DefaultLastPort
	}
	m.forgotten = int(m.first)
	if net.ParseIP(m.bindIP) == nil {
		return nil, fmt.Errorf("bridge: bind IP %q is not an IP address (for example 127.0.0.1 or 0.0.0.0)", m.bindIP)
	}
	if m.first > m.last {
		return nil, fmt.Errorf("bridge: empty port range %d-%d", m.first, m.last)
	}
	return m, nil
}

// ParsePorts reads a port range "first-last" (both 1024..65535, first ≤ last; one port alone
// is a range of one).
func ParsePorts(s string) (first, last uint16, err error) {
	lo, hi, ok := strings.Cut(strings.TrimSpace(s), "-")
	if !ok {
		hi = lo
	}
	parse := func(t string) (uint16, error) {
		n, err := strconv.Atoi(strings.TrimSpace(t))
		if err != nil || n < 1024 || n > 65535 {
			return 0, fmt.Errorf("%q is not a port range first-last of ports 1024..65535", s)
		}
		return uint16(n), nil
	}
	if first, err = parse(lo); err != nil {
		return 0, 0, err
	}
	if last, err = parse(hi); err != nil {
		return 0, 0, err
	}
	if first > last {
		return 0, 0, fmt.Errorf("%q: the first port is above the last", s)
	}
	return first, last, nil
}

// BindIP returns the address ports are probed on.
func (m *Manager) BindIP() string { return m.bindIP }

// PortRange returns the range device ports are taken from, as "first-last".
func (m *Manager) PortRange() string { return fmt.Sprintf("%d-%d", m.first, m.last) }

// AllocateDevice gives the channel controlKey of a device its port: the port the hashKey had
// before, if it was allocated and released and is free again; else the first port from
// FirstPort upward that is neither allocated here, nor remembered as another hashKey's (while
// others are left), and that we can bind on BindIP right now. The
// hashKey is modelName + partsName + subPartsName + controlKey. An empty hashKey, an unknown
// device type or a hashKey already allocated (ErrHashKeyInUse) is refused; ErrNoFreePort when
// the range is exhausted.
//
// In the device map the port goes under parts partsName+subPartsName with key controlKey; if
// the model already has parts named partsName under this device type (a multi-camera's parent),
// it goes there with key subPartsName+controlKey, as CLOiSim does, so that cloisim_ros groups the
// sub-devices under one node. Either way parts + key + modelName rebuild the hashKey.
//
// The port is probed, not held: another program may take it before the endpoint binds, which
// the endpoint then reports.
func (m *Manager) AllocateDevice(deviceType DeviceType, modelName, partsName, subPartsName, controlKey string) (hashKey string, port uint16, err error) {
	hashKey = modelName + partsName + subPartsName + controlKey
	if hashKey == "" {
		return "", 0, errors.New("bridge: allocate device: empty hashKey (model, parts, sub-parts and control key are all empty)")
	}
	if !deviceType.Valid() {
		_, err := ParseDeviceType(string(deviceType))
		return hashKey, 0, fmt.Errorf("bridge: allocate %s: %w", hashKey, err)
	}

	m.mu.Lock()
	defer m.mu.Unlock()
	if p, dup := m.byKey[hashKey]; dup {
		return hashKey, 0, fmt.Errorf("bridge: allocate %s: %w (port %d)", hashKey, ErrHashKeyInUse, p)
	}
	port, err = m.freePortLocked(hashKey)
	if err != nil {
		return hashKey, 0, fmt.Errorf("bridge: allocate %s: %w", hashKey, err)
	}
	m.byKey[hashKey] = port
	m.keyOfPort[port] = hashKey
	if old, ok := m.lastKey[port]; ok && old != hashKey {
		delete(m.lastPort, old)
	}
	if old, ok := m.lastPort[hashKey]; ok && old != port {
		delete(m.lastKey, old)
		m.forgotten = min(m.forgotten, int(old))
	}
	m.lastPort[hashKey], m.lastKey[port] = port, hashKey

	r := route{model: modelName, typ: deviceType, partsKey: partsName + subPartsName, key: controlKey}
	if _, ok := m.devices[modelName][deviceType][partsName]; ok {
		r.partsKey, r.key = partsName, subPartsName+controlKey
	}
	types := m.devices[r.model]
	if types == nil {
		types = map[DeviceType]map[string]map[string]uint16{}
		m.devices[r.model] = types
	}
	parts := types[r.typ]
	if parts == nil {
		parts = map[string]map[string]uint16{}
		types[r.typ] = parts
	}
	keys := parts[r.partsKey]
	if keys == nil {
		keys = map[string]uint16{}
		parts[r.partsKey] = keys
	}
	keys[r.key] = port
	m.routes[port] = r
	return hashKey, port, nil
}

// freePortLocked finds hashKey a port: its last one if that is free again, else the first in
// the range that is not ours, skipping ports remembered for other keys unless only those are
// left, and that we can bind.
func (m *Manager) freePortLocked(hashKey string) (uint16, error) {
	if port, ok := m.lastPort[hashKey]; ok && !m.ownedLocked(port) && (m.held[port] == hashKey || tryBind(m.bindIP, port) == nil) {
		return port, nil
	}
	for _, spareOthers := range []bool{true, false} {
		from := int(m.first)
		if spareOthers {
			// The ports below m.forgotten are all remembered: other keys' or hashKey's own
			// last port, tried above. Ports ours are remembered too.
			from = max(from, m.forgotten)
		}
		for p := from; p <= int(m.last); p++ {
			port := uint16(p)
			k, remembered := m.lastKey[port]
			if spareOthers && remembered && p == m.forgotten {
				m.forgotten++
			}
			if m.ownedLocked(port) {
				continue
			}
			if spareOthers && remembered && k != hashKey {
				continue
			}
			err := tryBind(m.bindIP, port)
			if err == nil {
				return port, nil
			}
			if portsExhausted(err) {
				// Not the range: every port would fail alike.
				return 0, fmt.Errorf("opening port %d: %w (the limit of open files is reached: raise ulimit -n)", port, err)
			}
		}
	}
	// Whether the range is used up by this bridge or held by others tells the user which
	// to change: the range, or what else runs.
	size, own := int(m.last)-int(m.first)+1, 0
	for p := int(m.first); p <= int(m.last); p++ {
		if m.ownedLocked(uint16(p)) {
			own++
		}
	}
	if own == size {
		return 0, fmt.Errorf("%w in %d-%d on %s: %w", ErrNoFreePort, m.first, m.last, m.bindIP, ErrRangeUsedUp)
	}
	return 0, fmt.Errorf("%w in %d-%d on %s", ErrNoFreePort, m.first, m.last, m.bindIP)
}

// freeCount is how many ports of the range are not allocated here (another program may have
// some of them).
func (m *Manager) freeCount() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for p := int(m.first); p <= int(m.last); p++ {
		if !m.ownedLocked(uint16(p)) {
			n++
		}
	}
	return n
}

// hold marks port as bound by the bridge for hashKey's device of the next world; unhold ends it.
func (m *Manager) hold(port uint16, hashKey string) {
	m.mu.Lock()
	m.held[port] = hashKey
	m.mu.Unlock()
}

func (m *Manager) unhold(port uint16) {
	m.mu.Lock()
	delete(m.held, port)
	m.mu.Unlock()
}

// ownedLocked reports whether port is allocated here.
func (m *Manager) ownedLocked(port uint16) bool {
	_, key := m.keyOfPort[port]
	_, routed := m.routes[port]
	return key || routed
}

// portsExhausted reports whether err says that no port can be opened for any device now:
// the range is used up, or the process has no files left.
func portsExhausted(err error) bool {
	return errors.Is(err, ErrNoFreePort) || errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE)
}

// tryBind opens and closes a TCP listener on ip:port, reporting why it could not. Go sets
// SO_REUSEADDR, as libzmq does, so a port left in TIME_WAIT counts as free, and a listening
// one does not.
func tryBind(ip string, port uint16) error {
	ln, err := net.Listen("tcp", net.JoinHostPort(ip, strconv.Itoa(int(port))))
	if err != nil {
		return err
	}
	return ln.Close()
}

// DeallocateDevice removes ports from the device map and hashKeys from the flat map, as
// CLOiSim's DeallocateDevice; a device's owner passes all its ports and keys. A port is free again
// once it is in neither map. The error lists ports and keys that were not allocated; the rest
// are removed regardless.
func (m *Manager) DeallocateDevice(ports []uint16, hashKeys []string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	var errs []string
	for _, port := range ports {
		r, ok := m.routes[port]
		if !ok {
			errs = append(errs, fmt.Sprintf("port %d is not in the device map", port))
			continue
		}
		delete(m.routes, port)
		types := m.devices[r.model]
		parts := types[r.typ]
		keys := parts[r.partsKey]
		delete(keys, r.key)
		if len(keys) == 0 {
			delete(parts, r.partsKey)
		}
		if len(parts) == 0 {
			delete(types, r.typ)
		}
		if len(types) == 0 {
			delete(m.devices, r.model)
		}
	}
	for _, k := range hashKeys {
		port, ok := m.byKey[k]
		if !ok {
			errs = append(errs, fmt.Sprintf("hashKey %q is not allocated", k))
			continue
		}
		delete(m.byKey, k)
		delete(m.keyOfPort, port)
	}
	if len(errs) > 0 {
		return fmt.Errorf("bridge: deallocate: %s", strings.Join(errs, "; "))
	}
	return nil
}

// SearchSensorPort returns the port allocated to hashKey; ok is false if there is none (CLOiSim
// returns port 0 then).
func (m *Manager) SearchSensorPort(hashKey string) (port uint16, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	port, ok = m.byKey[hashKey]
	return port, ok
}

// GetDeviceMapList returns a copy of the device map restricted to models whose name starts with
// filter ("" for all): the /control device_list result.
func (m *Manager) GetDeviceMapList(filter string) DeviceMap {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := DeviceMap{}
	for model, types := range m.devices {
		if !strings.HasPrefix(model, filter) {
			continue
		}
		tc := make(map[DeviceType]map[string]map[string]uint16, len(types))
		for typ, parts := range types {
			pc := make(map[string]map[string]uint16, len(parts))
			for name, keys := range parts {
				pc[name] = maps.Clone(keys)
			}
			tc[typ] = pc
		}
		out[model] = tc
	}
	return out
}

// GetDevicePortList returns a copy of the flat hashKey → port map restricted to keys starting
// with filter ("" for all): the /control port_list result.
func (m *Manager) GetDevicePortList(filter string) map[string]uint16 {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[string]uint16)
	for k, p := range m.byKey {
		if strings.HasPrefix(k, filter) {
			out[k] = p
		}
	}
	return out
}
