package bridge

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"sync"
	"testing"
)

func newManager(t *testing.T, opts Options) *Manager {
	t.Helper()
	m, err := NewManager(opts)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// nextBindable returns the first port >= from that can be bound on 127.0.0.1 now. Other
// programs on the machine may hold ports in the range, so tests compute their expectations this
// way rather than assume 49152 is free.
func nextBindable(t *testing.T, from int) uint16 {
	t.Helper()
	for p := from; p <= 65535; p++ {
		if tryBind("127.0.0.1", uint16(p)) == nil {
			return uint16(p)
		}
	}
	t.Fatalf("no bindable port from %d", from)
	return 0
}

func listen(t *testing.T, port uint16) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(int(port)))
	if err != nil {
		t.Fatalf("hold port %d: %v", port, err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln
}

// TestAllocationOrder: ports come from 49152 upward; one held by another listener is skipped,
// one we allocated is skipped even though nobody listens on it.
func TestAllocationOrder(t *testing.T) {
	m := newManager(t, Options{})
	first := nextBindable(t, DefaultFirstPort)
	key, port, err := m.AllocateDevice(DeviceMicom, "ks0223", "micom", "", "Rx")
	if err != nil {
		t.Fatal(err)
	}
	if key != "ks0223micomRx" || port != first {
		t.Fatalf("got %s:%d, want ks0223micomRx:%d (first bindable from %d)", key, port, first, DefaultFirstPort)
	}

	// Another program listens on the next free port: it must be skipped.
	held := nextBindable(t, int(first)+1)
	listen(t, held)
	want := nextBindable(t, int(held)+1)
	_, port, err = m.AllocateDevice(DeviceMicom, "ks0223", "micom", "", "Tx")
	if err != nil {
		t.Fatal(err)
	}
	if port != want {
		t.Fatalf("second port %d, want %d (skipping %d, held by a listener)", port, want, held)
	}
	if port == first || port == held {
		t.Fatalf("port %d reused", port)
	}

	// A listener on the wildcard address also blocks the loopback port.
	wild, err := net.Listen("tcp", "0.0.0.0:"+strconv.Itoa(int(nextBindable(t, int(port)+1))))
	if err != nil {
		t.Fatal(err)
	}
	defer wild.Close()
	wildPort := uint16(wild.Addr().(*net.TCPAddr).Port)
	_, port, err = m.AllocateDevice(DeviceMicom, "ks0223", "micom", "", "Info")
	if err != nil {
		t.Fatal(err)
	}
	if port == wildPort {
		t.Fatalf("port %d allocated although another socket listens on 0.0.0.0:%d", port, wildPort)
	}
}

// freeRange finds n consecutive bindable ports above Linux's ephemeral range (which ends at
// 60999), so that the small-range tests do not race outgoing connections; the start depends on
// the pid so that parallel test processes tend to pick different ports.
func freeRange(t *testing.T, n int) uint16 {
	t.Helper()
next:
	for base := 61000 + os.Getpid()%1000*3; base+n-1 <= 65535; base += n {
		for p := base; p < base+n; p++ {
			if tryBind("127.0.0.1", uint16(p)) != nil {
				continue next
			}
		}
		return uint16(base)
	}
	t.Fatalf("no %d free consecutive ports", n)
	return 0
}

func TestExhaustionAndReuse(t *testing.T) {
	base := freeRange(t, 3)
	m := newManager(t, Options{FirstPort: base, LastPort: base + 2})
	listen(t, base+1)
	_, p1, err := m.AllocateDevice(DeviceLaser, "cloi0", "lidar", "", "Data")
	if err != nil || p1 != base {
		t.Fatalf("first: port %d err %v, want %d", p1, err, base)
	}
	_, p2, err := m.AllocateDevice(DeviceLaser, "cloi0", "lidar", "", "Info")
	if err != nil || p2 != base+2 {
		t.Fatalf("second: port %d err %v, want %d", p2, err, base+2)
	}
	if _, _, err := m.AllocateDevice(DeviceLaser, "cloi0", "lidar", "", "Tf"); !errors.Is(err, ErrNoFreePort) || errors.Is(err, ErrRangeUsedUp) {
		t.Fatalf("third: err %v, want ErrNoFreePort, another program holding a port", err)
	}
	// Deallocating the first device frees its port for the next allocation.
	if err := m.DeallocateDevice([]uint16{p1}, []string{"cloi0lidarData"}); err != nil {
		t.Fatal(err)
	}
	if _, p, err := m.AllocateDevice(DeviceLaser, "cloi0", "lidar", "", "Tf"); err != nil || p != base {
		t.Fatalf("after deallocate: port %d err %v, want %d", p, err, base)
	}
}

func TestDuplicateHashKeyRefused(t *testing.T) {
	m := newManager(t, Options{})
	_, port, err := m.AllocateDevice(DeviceCamera, "ks0223", "cam", "", "Data")
	if err != nil {
		t.Fatal(err)
	}
	// Same concatenation from different pieces and a different type: still the same hashKey.
	key, _, err := m.AllocateDevice(DeviceDepthCamera, "ks0223", "ca", "m", "Data")
	if !errors.Is(err, ErrHashKeyInUse) || key != "ks0223camData" {
		t.Fatalf("duplicate: key %q err %v, want ErrHashKeyInUse", key, err)
	}
	if got := m.GetDevicePortList(""); len(got) != 1 || got["ks0223camData"] != port {
		t.Errorf("port list after refused duplicate: %v", got)
	}
	if got := m.GetDeviceMapList(""); len(got["ks0223"]) != 1 {
		t.Errorf("device map after refused duplicate: %v", got)
	}
}

func TestBadArgumentsAndOptions(t *testing.T) {
	m := newManager(t, Options{})
	if _, _, err := m.AllocateDevice(DeviceCamera, "", "", "", ""); err == nil {
		t.Error("empty hashKey accepted")
	}
	if _, _, err := m.AllocateDevice("LIDAR", "m", "p", "", "Data"); err == nil {
		t.Error("unknown device type accepted")
	}
	if _, err := NewManager(Options{BindIP: "localhost"}); err == nil {
		t.Error("host name accepted as bind IP")
	}
	if _, err := NewManager(Options{FirstPort: 60000, LastPort: 50000}); err == nil {
		t.Error("empty range accepted")
	}
	if got := newManager(t, Options{}).BindIP(); got != "127.0.0.1" {
		t.Errorf("default bind IP %q", got)
	}
	// The range the start line logs: the defaults, or the one given.
	if got, want := newManager(t, Options{}).PortRange(), fmt.Sprintf("%d-%d", DefaultFirstPort, DefaultLastPort); got != want {
		t.Errorf("default port range %q, want %q", got, want)
	}
	if got := newManager(t, Options{FirstPort: 25000, LastPort: 25100}).PortRange(); got != "25000-25100" {
		t.Errorf("port range %q, want 25000-25100", got)
	}
}

// TestDeallocateFreesBothMaps also checks the device map layout and its JSON form.
func TestDeallocateFreesBothMaps(t *testing.T) {
	m := newManager(t, Options{})
	_, rx, err := m.AllocateDevice(DeviceMicom, "ks0223", "micom", "", "Rx")
	if err != nil {
		t.Fatal(err)
	}
	_, tx, err := m.AllocateDevice(DeviceMicom, "ks0223", "micom", "", "Tx")
	if err != nil {
		t.Fatal(err)
	}
	_, lidar, err := m.AllocateDevice(DeviceLaser, "ks0223", "lidar", "", "Data")
	if err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(m.GetDeviceMapList(""))
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf(`{"ks0223":{"LASER":{"lidar":{"Data":%d}},"MICOM":{"micom":{"Rx":%d,"Tx":%d}}}}`, lidar, rx, tx)
	if string(js) != want {
		t.Errorf("device_list JSON\n got %s\nwant %s", js, want)
	}

	if err := m.DeallocateDevice([]uint16{rx, tx}, []string{"ks0223micomRx", "ks0223micomTx"}); err != nil {
		t.Fatal(err)
	}
	if _, ok := m.SearchSensorPort("ks0223micomRx"); ok {
		t.Error("Rx still in the flat map")
	}
	if p, ok := m.SearchSensorPort("ks0223lidarData"); !ok || p != lidar {
		t.Errorf("lidar lookup %d %v, want %d", p, ok, lidar)
	}
	js, _ = json.Marshal(m.GetDeviceMapList(""))
	if want := fmt.Sprintf(`{"ks0223":{"LASER":{"lidar":{"Data":%d}}}}`, lidar); string(js) != want {
		t.Errorf("after deallocate: %s, want %s (empty levels pruned)", js, want)
	}
	// The freed ports stay their keys' while other ports are free: a new key takes another,
	// and the old key gets its own back.
	if _, p, err := m.AllocateDevice(DeviceIMU, "ks0223", "imu", "", "Data"); err != nil || p == rx || p == tx {
		t.Errorf("a new key got %d %v, a port freed by Rx (%d) or Tx (%d)", p, err, rx, tx)
	}
	if _, p, err := m.AllocateDevice(DeviceMicom, "ks0223", "micom", "", "Tx"); err != nil || p != tx {
		t.Errorf("Tx allocated again got %d %v, want its port %d", p, err, tx)
	}
	err = m.DeallocateDevice([]uint16{1}, []string{"nope"})
	if err == nil {
		t.Error("deallocating unknown port and key gave no error")
	}
	t.Log(err)
}

// A model whose ports were released gets the same ones when it comes back, whatever was
// allocated in between, as long as nobody else holds them: cloisim_ros keeps its node for a
// (model, type, parts) it already runs and never reads the ports again, so a model moved to
// other ports (the bridge moving to an episode that lists a newcomer first) went silent, and
// cloisim_ros ends itself after some seconds of silence.
func TestReleasedKeysGetTheirPortsBack(t *testing.T) {
	base := freeRange(t, 8)
	m := newManager(t, Options{FirstPort: base, LastPort: base + 7})
	alloc := func(model, key string) uint16 {
		t.Helper()
		_, p, err := m.AllocateDevice(DeviceMicom, model, "Micom", "", key)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	release := func(model string, ports ...uint16) {
		t.Helper()
		if err := m.DeallocateDevice(ports, []string{model + "MicomRx", model + "MicomTx"}); err != nil {
			t.Fatal(err)
		}
	}
	rx, tx := alloc("ego", "Rx"), alloc("ego", "Tx")
	release("ego", rx, tx)
	// The next world lists a newcomer first.
	nrx, ntx := alloc("agent_2", "Rx"), alloc("agent_2", "Tx")
	if nrx == rx || nrx == tx || ntx == rx || ntx == tx {
		t.Errorf("agent_2 took ego's released ports: %d %d (ego had %d %d)", nrx, ntx, rx, tx)
	}
	if r, x := alloc("ego", "Rx"), alloc("ego", "Tx"); r != rx || x != tx {
		t.Errorf("ego came back on %d %d, want its ports %d %d", r, x, rx, tx)
	}
	// Remembered ports are lent out once nothing else is left, and their key then takes
	// another.
	release("agent_2", nrx, ntx)
	var lent []uint16
	for _, k := range []string{"a", "b", "c", "d", "e", "f"} {
		lent = append(lent, alloc("x", k))
	}
	if _, _, err := m.AllocateDevice(DeviceMicom, "x", "Micom", "", "g"); !errors.Is(err, ErrRangeUsedUp) {
		t.Fatalf("a ninth port in a range of eight, all this bridge's: %v, want ErrRangeUsedUp", err)
	}
	if lent[4] != min(nrx, ntx) && lent[4] != max(nrx, ntx) {
		t.Errorf("the fifth newcomer got %d, want one of agent_2's remembered ports %d %d (all others taken)", lent[4], nrx, ntx)
	}
}

// Models churning through the range leave every port remembered; a newcomer's search that
// spares remembered ports then starts past them (it walked over all of them, about 1 ms an
// allocation in the default range, 2.5 s for a reset of 256 new models), and a port forgotten
// later, below that start, is found again.
func TestChurnLeavesNoWalkOverRememberedPorts(t *testing.T) {
	base := freeRange(t, 16)
	m := newManager(t, Options{FirstPort: base, LastPort: base + 15})
	alloc := func(model string) uint16 {
		t.Helper()
		_, p, err := m.AllocateDevice(DeviceMicom, model, "Micom", "", "Rx")
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	release := func(model string, port uint16) {
		t.Helper()
		if err := m.DeallocateDevice([]uint16{port}, []string{model + "MicomRx"}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 16 { // every port of the range remembered, for a model gone
		release(fmt.Sprint("old", i), alloc(fmt.Sprint("old", i)))
	}
	if p := alloc("new"); p != base {
		t.Fatalf("a newcomer with every port remembered got %d, want the first, %d", p, base)
	}
	if m.forgotten != int(base)+16 {
		t.Errorf("the search sparing remembered ports starts at %d, want %d, past the range: all are remembered", m.forgotten, int(base)+16)
	}
	// old3 comes back while its port is held elsewhere: it takes another (new's, the only
	// one free, lent), and its old port is remembered for nobody.
	held := listen(t, base+3)
	release("new", base)
	if p := alloc("old3"); p != base {
		t.Fatalf("old3 with its port held got %d, want %d", p, base)
	}
	held.Close()
	if p := alloc("new2"); p != base+3 {
		t.Errorf("a newcomer got %d, want %d, the port no key remembers", p, base+3)
	}
}

// TestSubPartsGrouping: sub-devices of an existing parts entry (a multi-camera) are listed under
// it with key subParts+controlKey; otherwise parts and sub-parts form the parts name.
func TestSubPartsGrouping(t *testing.T) {
	m := newManager(t, Options{})
	_, info, _ := m.AllocateDevice(DeviceMultiCamera, "bot", "multicam", "", "Info")
	_, front, _ := m.AllocateDevice(DeviceMultiCamera, "bot", "multicam", "front", "Data")
	_, left, _ := m.AllocateDevice(DeviceCamera, "bot", "cam", "left", "Data")
	got := m.GetDeviceMapList("")["bot"]
	want := map[DeviceType]map[string]map[string]uint16{
		DeviceMultiCamera: {"multicam": {"Info": info, "frontData": front}},
		DeviceCamera:      {"camleft": {"Data": left}},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
	if p, _ := m.SearchSensorPort("botmulticamfrontData"); p != front {
		t.Errorf("flat map has %d for botmulticamfrontData, want %d", p, front)
	}
}

func TestFiltersReturnCopies(t *testing.T) {
	m := newManager(t, Options{})
	for _, model := range []string{"ks0223", "ks0223b", "drone"} {
		if _, _, err := m.AllocateDevice(DeviceMicom, model, "micom", "", "Rx"); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := m.AllocateDevice(DeviceWorld, "World", "SimulationWorld", "", "Clock"); err != nil {
		t.Fatal(err)
	}
	dm := m.GetDeviceMapList("ks")
	if len(dm) != 2 || dm["ks0223"] == nil || dm["ks0223b"] == nil {
		t.Errorf("device map filter ks: %v", dm)
	}
	if all := m.GetDeviceMapList(""); len(all) != 4 {
		t.Errorf("unfiltered device map has %d models, want 4", len(all))
	}
	pl := m.GetDevicePortList("ks0223b")
	if len(pl) != 1 || pl["ks0223bmicomRx"] == 0 {
		t.Errorf("port list filter ks0223b: %v", pl)
	}
	if pl := m.GetDevicePortList("World"); len(pl) != 1 || pl["WorldSimulationWorldClock"] == 0 {
		t.Errorf("port list filter World: %v", pl)
	}
	if pl := m.GetDevicePortList("zzz"); len(pl) != 0 {
		t.Errorf("port list filter zzz: %v", pl)
	}

	// Mutating the copies leaves the registry alone.
	dm["ks0223"][DeviceMicom]["micom"]["Rx"] = 1
	delete(dm, "ks0223b")
	pl["ks0223bmicomRx"] = 1
	if p, _ := m.SearchSensorPort("ks0223bmicomRx"); p == 1 {
		t.Error("port list is not a copy")
	}
	if again := m.GetDeviceMapList("ks"); len(again) != 2 || again["ks0223"][DeviceMicom]["micom"]["Rx"] == 1 {
		t.Error("device map is not a deep copy")
	}
}

// TestConcurrentAllocation: 16 goroutines allocating at once get distinct ports, all recorded.
func TestConcurrentAllocation(t *testing.T) {
	m := newManager(t, Options{})
	const goroutines, each = 16, 4
	var mu sync.Mutex
	seen := map[uint16]string{}
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range each {
				model := fmt.Sprintf("robot%02d", g)
				key, port, err := m.AllocateDevice(DeviceSensor, model, "sensor", strconv.Itoa(i), "Data")
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				if other, dup := seen[port]; dup {
					t.Errorf("port %d given to %s and %s", port, other, key)
				}
				seen[port] = key
				mu.Unlock()
				_ = m.GetDeviceMapList("robot") // readers alongside writers
			}
		})
	}
	wg.Wait()
	if len(seen) != goroutines*each {
		t.Fatalf("%d distinct ports, want %d", len(seen), goroutines*each)
	}
	pl := m.GetDevicePortList("")
	for port, key := range seen {
		if pl[key] != port {
			t.Errorf("%s: port list has %d, want %d", key, pl[key], port)
		}
	}
}

// TestParsePorts reads --bridge-ports' ranges and refuses the rest with the text given.
func TestParsePorts(t *testing.T) {
	for _, tc := range []struct {
		in          string
		first, last uint16
	}{{"47200-47299", 47200, 47299}, {" 50000 - 50000 ", 50000, 50000}, {"60000", 60000, 60000}, {"1024-65535", 1024, 65535}} {
		f, l, err := ParsePorts(tc.in)
		if err != nil || f != tc.first || l != tc.last {
			t.Errorf("%q: %d-%d %v", tc.in, f, l, err)
		}
	}
	for _, bad := range []string{"", "-", "80-90", "50000-49000", "49152-70000", "a-b", "1e4-2e4", "49152-65535-1"} {
		if _, _, err := ParsePorts(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestBridgePortRange: a bridge given a port range serves every device port from it.
func TestBridgePortRange(t *testing.T) {
	const first, last = 47960, 47999
	tw := startWorldOpts(t, testCar, Config{Logger: quiet, FirstPort: first, LastPort: last})
	ports := tw.bridge.Manager().GetDevicePortList("")
	if len(ports) == 0 {
		t.Fatal("no device ports")
	}
	for key, p := range ports {
		if p < first || p > last {
			t.Errorf("%s on port %d, outside %d-%d", key, p, first, last)
		}
	}
}
