package fastpath

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"simgui/app"
	"simgui/app/scenario"
	"simgui/plugins"
)

// testHost runs a host whose scenario world is sc's, paused, with the given faces; it stops
// at the end of the test.
func testHost(tb testing.TB, sc *scenario.Scenario, faces ...app.Face) *app.Host {
	tb.Helper()
	plan, err := scenario.Resolve(sc, plugins.Builtin())
	if err != nil {
		tb.Fatal(err)
	}
	h := app.NewHost(app.HostOptions{Logger: slog.New(slog.DiscardHandler)})
	sim, err := h.Build(plan, app.BuildOptions{Paused: true})
	if err != nil {
		tb.Fatal(err)
	}
	h.SetScenario(sim)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx, faces...) }()
	tb.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			tb.Errorf("host: %v", err)
		}
		h.Close()
	})
	select {
	case <-h.Start.Done():
	case err := <-done:
		tb.Fatalf("host stopped: %v", err)
	case <-time.After(60 * time.Second):
		tb.Fatal("the host did not start")
	}
	return h
}

// startFace runs a host with the fast path on a socket in a temporary folder.
func startFace(tb testing.TB, sc *scenario.Scenario) (*app.Host, *Face) {
	tb.Helper()
	f := &Face{Socket: filepath.Join(shortTempDir(tb), "fp.sock"), IdleTimeout: time.Minute}
	h := testHost(tb, sc, f)
	return h, f
}

// shortTempDir is a temporary folder with a path short enough for a socket.
func shortTempDir(tb testing.TB) string {
	d, err := os.MkdirTemp("", "fp")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(d) })
	return d
}

// client is a fast path client as the Python one is: a socket, the mapped memory, views.
type client struct {
	tb    testing.TB
	conn  *net.UnixConn
	rep   OpenReply
	mem   []byte
	field map[string]int
}

func dial(tb testing.TB, path string) *client {
	tb.Helper()
	c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		tb.Fatal(err)
	}
	cl := &client{tb: tb, conn: c}
	tb.Cleanup(func() {
		c.Close()
		if cl.mem != nil {
			unix.Munmap(cl.mem)
		}
	})
	return cl
}

func (c *client) send(typ byte, payload []byte) {
	c.tb.Helper()
	h := header(typ, len(payload))
	if _, err := c.conn.Write(append(h[:], payload...)); err != nil {
		c.tb.Fatal(err)
	}
}

// recv reads a reply and the file descriptor that came with it (-1 for none).
func (c *client) recv() (byte, []byte, int, error) {
	var h [headerLen]byte
	oob := make([]byte, unix.CmsgSpace(4))
	n, oobn, _, _, err := c.conn.ReadMsgUnix(h[:], oob)
	if err != nil {
		return 0, nil, -1, err
	}
	fd := -1
	if oobn > 0 {
		msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
		if err != nil {
			return 0, nil, -1, err
		}
		fds, err := unix.ParseUnixRights(&msgs[0])
		if err != nil {
			return 0, nil, -1, err
		}
		fd = fds[0]
	}
	for n < headerLen {
		m, err := c.conn.Read(h[n:])
		if err != nil {
			return 0, nil, fd, err
		}
		n += m
	}
	body := make([]byte, binary.LittleEndian.Uint32(h[4:]))
	for got := 0; got < len(body); {
		m, err := c.conn.Read(body[got:])
		if err != nil {
			return 0, nil, fd, err
		}
		got += m
	}
	if h[2] == msgError {
		var e struct{ Error string }
		json.Unmarshal(body, &e)
		if fd >= 0 {
			unix.Close(fd)
		}
		return h[2], body, -1, errors.New(e.Error)
	}
	return h[2], body, fd, nil
}

// open opens a session; it fails the test on an error.
func (c *client) open(req OpenRequest) {
	c.tb.Helper()
	if err := c.tryOpen(req); err != nil {
		c.tb.Fatal(err)
	}
}

func (c *client) tryOpen(req OpenRequest) error {
	if req.Protocol == 0 {
		req.Protocol = ProtocolVersion
	}
	b, _ := json.Marshal(req)
	c.send(msgOpen, b)
	typ, body, fd, err := c.recv()
	if err != nil {
		return err
	}
	if typ != msgOpened || fd < 0 {
		return fmt.Errorf("open answered 0x%02x, fd %d", typ, fd)
	}
	defer unix.Close(fd)
	if err := json.Unmarshal(body, &c.rep); err != nil {
		return err
	}
	if c.mem, err = unix.Mmap(fd, 0, c.rep.Memory.Size, unix.PROT_READ, unix.MAP_SHARED); err != nil {
		return err
	}
	c.field = map[string]int{}
	for i, f := range c.rep.Memory.StateFields {
		c.field[f] = i
	}
	return nil
}

// step sends a step request and returns the resets it reports.
func (c *client) step(kinds []byte, actions [][3]float64, seeds []int64) ([]ResetInfo, error) {
	c.tb.Helper()
	c.send(msgStep, AppendStep(nil, kinds, actions, seeds, len(c.rep.Actions)))
	typ, body, _, err := c.recv()
	if err != nil {
		return nil, err
	}
	if typ != msgStepped {
		return nil, fmt.Errorf("step answered 0x%02x", typ)
	}
	if len(body) == 0 {
		return nil, nil
	}
	var r StepReply
	err = json.Unmarshal(body, &r)
	return r.Resets, err
}

func (c *client) mustStep(kinds []byte, actions [][3]float64, seeds []int64) []ResetInfo {
	c.tb.Helper()
	r, err := c.step(kinds, actions, seeds)
	if err != nil {
		c.tb.Fatal(err)
	}
	return r
}

// resetAll resets every env, env i with seed+i.
func (c *client) resetAll(seed int64) []ResetInfo {
	n := c.rep.Envs
	kinds, seeds := make([]byte, n), make([]int64, n)
	for i := range n {
		kinds[i], seeds[i] = kindReset, seed+int64(i)
	}
	return c.mustStep(kinds, make([][3]float64, n), seeds)
}

// stepAll steps every env with the same action.
func (c *client) stepAll(a [3]float64) {
	n := c.rep.Envs
	kinds, acts := make([]byte, n), make([][3]float64, n)
	for i := range n {
		kinds[i], acts[i] = kindStep, a
	}
	c.mustStep(kinds, acts, make([]int64, n))
}

func stepMessage(kinds []byte, actions [][3]float64, seeds []int64) []byte {
	return AppendStep(nil, kinds, actions, seeds, 2)
}

// image returns env i's frame (a view of the shared memory).
func (c *client) image(i int) []byte {
	m := c.rep.Memory
	return c.mem[m.ImageOffset+i*m.ImageStride : m.ImageOffset+(i+1)*m.ImageStride]
}

// state returns env i's named state value.
func (c *client) state(i int, name string) float64 {
	m := c.rep.Memory
	k, ok := c.field[name]
	if !ok {
		c.tb.Fatalf("no state field %q", name)
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(c.mem[m.StateOffset+i*m.StateStride+8*k:]))
}

// waiting counts the face's connections that have not opened a session.
func (f *Face) waiting() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for s := range f.open {
		if !s.opened.Load() {
			n++
		}
	}
	return n
}

// pollFor polls ok until it holds, for state no channel announces (the face's connections).
func pollFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !ok(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}
