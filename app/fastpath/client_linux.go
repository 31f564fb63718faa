package fastpath

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"slices"

	"golang.org/x/sys/unix"
)

// Client is a Go client of the fast path, as the Python package's (python/simgui/fastpath.py)
// is: one session over the socket, the shared memory mapped read-only. simgui's benchmarks
// use it; it is not safe for concurrent use.
type Client struct {
	conn  *net.UnixConn
	rep   OpenReply
	mem   []byte
	field map[string]int
	msg   []byte
}

// maxReply bounds a reply the client reads: a bound against a broken peer, far above what
// simgui sends (a step reply lists the resets with, when asked for, the tracks' elements).
const maxReply = 64 << 20

// Step request kinds, one per env (doc.go).
const (
	KindHold  = kindHold  // leave the env as it is
	KindStep  = kindStep  // apply the action and advance one action period
	KindReset = kindReset // start a new episode with the seed
)

// Dial connects to the fast path's socket.
func Dial(path string) (*Client, error) {
	c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, err
	}
	return &Client{conn: c}, nil
}

// Open opens the session (the request's Protocol is filled in) and maps its shared memory.
func (c *Client) Open(req OpenRequest) (OpenReply, error) {
	if c.mem != nil {
		return OpenReply{}, errors.New("fast path client: the session is open already")
	}
	req.Protocol = ProtocolVersion
	b, err := json.Marshal(req)
	if err != nil {
		return OpenReply{}, err
	}
	if err := c.send(msgOpen, b); err != nil {
		return OpenReply{}, err
	}
	typ, body, fd, err := c.recv()
	if err != nil {
		return OpenReply{}, err
	}
	if fd < 0 || typ != msgOpened {
		if fd >= 0 {
			unix.Close(fd)
		}
		return OpenReply{}, fmt.Errorf("fast path: open answered 0x%02x without the shared memory", typ)
	}
	defer unix.Close(fd)
	var rep OpenReply
	if err := json.Unmarshal(body, &rep); err != nil {
		return OpenReply{}, fmt.Errorf("fast path: open reply: %w", err)
	}
	if rep.Memory.Size <= 0 || rep.Envs < 1 {
		return OpenReply{}, fmt.Errorf("fast path: open reply with %d envs and %d bytes of memory", rep.Envs, rep.Memory.Size)
	}
	mem, err := unix.Mmap(fd, 0, rep.Memory.Size, unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return OpenReply{}, fmt.Errorf("fast path: mmap: %w", err)
	}
	c.rep, c.mem, c.field = rep, mem, map[string]int{}
	for i, f := range rep.Memory.StateFields {
		c.field[f] = i
	}
	return rep, nil
}

// Step sends one step request (a kind, an action and a seed per env) and returns the resets
// the reply lists. A refused request is an error and changes nothing.
//
// An action is (throttle, steer, vertical); vertical is sent only in a session whose reply's
// Actions list it (a flying vehicle's).
func (c *Client) Step(kinds []byte, actions [][3]float64, seeds []int64) ([]ResetInfo, error) {
	n := c.rep.Envs
	if len(kinds) != n || len(actions) != n || len(seeds) != n {
		return nil, fmt.Errorf("fast path client: %d kinds, %d actions and %d seeds for %d envs", len(kinds), len(actions), len(seeds), n)
	}
	c.msg = AppendStep(c.msg[:0], kinds, actions, seeds, len(c.rep.Actions))
	if err := c.send(msgStep, c.msg); err != nil {
		return nil, err
	}
	typ, body, _, err := c.recv()
	if err != nil {
		return nil, err
	}
	if typ != msgStepped {
		return nil, fmt.Errorf("fast path: step answered 0x%02x", typ)
	}
	if len(body) == 0 {
		return nil, nil
	}
	var r StepReply
	err = json.Unmarshal(body, &r)
	return r.Resets, err
}

// Image returns env i's latest frame: a view of the shared memory, rewritten by the next step.
func (c *Client) Image(i int) []byte {
	m := c.rep.Memory
	return c.mem[m.ImageOffset+i*m.ImageStride : m.ImageOffset+(i+1)*m.ImageStride]
}

// State returns env i's state field name (OpenReply.Memory.StateFields) after the latest step.
func (c *Client) State(i int, name string) (float64, error) {
	k, ok := c.field[name]
	if !ok {
		return 0, fmt.Errorf("fast path: no state field %q", name)
	}
	m := c.rep.Memory
	return math.Float64frombits(binary.LittleEndian.Uint64(c.mem[m.StateOffset+i*m.StateStride+8*k:])), nil
}

// Close ends the session and unmaps the memory.
func (c *Client) Close() error {
	err := c.conn.Close()
	if c.mem != nil {
		unix.Munmap(c.mem)
		c.mem = nil
	}
	return err
}

// AppendStep appends a step request's payload for len(kinds) envs of width actions each (the
// session's len(OpenReply.Actions), 2 or 3) to dst (the layout is in doc.go: n, a zero word, the
// kinds padded to 8 bytes, the actions, the seeds).
func AppendStep(dst []byte, kinds []byte, actions [][3]float64, seeds []int64, width int) []byte {
	n := len(kinds)
	width = min(max(width, 2), maxActions)
	size := stepPayloadLen(n, width)
	start := len(dst)
	dst = slices.Grow(dst, size)[:start+size]
	b := dst[start:]
	clear(b)
	binary.LittleEndian.PutUint32(b, uint32(n))
	copy(b[8:], kinds)
	a := b[8+pad8(n):]
	for i, x := range actions {
		for k := range width {
			binary.LittleEndian.PutUint64(a[8*(width*i+k):], math.Float64bits(x[k]))
		}
	}
	for i, s := range seeds {
		binary.LittleEndian.PutUint64(a[8*width*n+8*i:], uint64(s))
	}
	return dst
}

func (c *Client) send(typ byte, payload []byte) error {
	h := header(typ, len(payload))
	if _, err := c.conn.Write(h[:]); err != nil {
		return err
	}
	_, err := c.conn.Write(payload)
	return err
}

// recv reads a reply and the descriptor that came with it (-1 for none); an error reply is
// returned as an error.
func (c *Client) recv() (typ byte, body []byte, fd int, err error) {
	var h [headerLen]byte
	oob := make([]byte, unix.CmsgSpace(4))
	n, oobn, _, _, err := c.conn.ReadMsgUnix(h[:], oob)
	if err != nil {
		return 0, nil, -1, err
	}
	fd = -1
	if oobn > 0 {
		msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
		if err != nil || len(msgs) != 1 {
			return 0, nil, -1, fmt.Errorf("fast path: control message: %v", err)
		}
		fds, err := unix.ParseUnixRights(&msgs[0])
		if err != nil || len(fds) != 1 {
			return 0, nil, -1, fmt.Errorf("fast path: descriptors: %v", err)
		}
		fd = fds[0]
	}
	fail := func(err error) (byte, []byte, int, error) {
		if fd >= 0 {
			unix.Close(fd)
		}
		return 0, nil, -1, err
	}
	if _, err := io.ReadFull(c.conn, h[n:]); err != nil {
		return fail(err)
	}
	if h[0] != magic[0] || h[1] != magic[1] {
		return fail(fmt.Errorf("fast path: not a fast path reply (header % x)", h))
	}
	size := binary.LittleEndian.Uint32(h[4:])
	if size > maxReply {
		return fail(fmt.Errorf("fast path: reply of %d bytes", size))
	}
	body = make([]byte, size)
	if _, err := io.ReadFull(c.conn, body); err != nil {
		return fail(err)
	}
	if h[2] == msgError {
		var e struct{ Error string }
		json.Unmarshal(body, &e)
		return fail(fmt.Errorf("fast path: %s", e.Error))
	}
	return h[2], body, fd, nil
}
