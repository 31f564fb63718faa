package bridge

import (
	"errors"
	"fmt"
	"net"
)

// Limits on what one peer may send a device port.
const (
	// DefaultMaxMessage is the default of Config.MaxMessage, in bytes. The largest message a
	// device accepts is well under 1 KiB: a micom Rx Twist is about 70 bytes with its tag, an
	// Info request (a Param naming the request and a sensor) about 100, and the ZMTP READY
	// command of a libzmq client with a 255-byte routing id about 300. 4 KiB leaves room for
	// longer ids and metadata while keeping what a peer can make us hold small.
	DefaultMaxMessage = 4 << 10
	// MinMaxMessage and MaxMaxMessage bound Config.MaxMessage: a READY command must fit, and
	// no message needs a gigabyte.
	MinMaxMessage = 256
	MaxMaxMessage = 1 << 30
	// DefaultMaxPeers is the default of Config.MaxPeers: connections one port serves at once,
	// including those still in the handshake. cloisim_ros opens one per port.
	DefaultMaxPeers = 64
	// maxFrames bounds the frames of one message: a REQ envelope is two or three, and zmq4
	// keeps every frame of a message (empty ones too) until the last has arrived.
	maxFrames = 64
	// greetingLen is the ZMTP 3.x greeting: signature, version, mechanism, as-server, filler.
	greetingLen = 64
)

// CheckMaxMessage refuses a message limit outside MinMaxMessage..MaxMaxMessage bytes.
func CheckMaxMessage(n int) error {
	if n < MinMaxMessage || n > MaxMaxMessage {
		return fmt.Errorf("%d bytes is outside %d..%d", n, MinMaxMessage, MaxMaxMessage)
	}
	return nil
}

// ErrMessageTooLarge is the error (for errors.Is) of a peer whose frame header declares more
// than the port's limit; the peer is disconnected.
var ErrMessageTooLarge = errors.New("message too large")

// ZMTP 3.x frame flags (ZeroMQ RFC 23).
const (
	flagMore = 0x01
	flagLong = 0x02
)

type scanState uint8

const (
	scanFlags scanState = iota // the next byte is a frame's flags
	scanSize                   // reading the 1- or 8-byte size
	scanBody                   // skipping the body
)

// frameScanner follows the ZMTP 3.x byte stream a peer sends — the 64-byte greeting, then
// frames of a flags byte, a 1-byte size or with flagLong an 8-byte big-endian size, and the
// body — and fails at the first header that would take a message over max bytes or maxFrames
// frames. Commands (the handshake's READY, PING) are frames like any other, so the handshake
// is covered too. It looks only at headers and skips bodies without reading them.
type frameScanner struct {
	max      uint64
	greeting int // greeting bytes still to come
	state    scanState
	flags    byte
	need     int    // size bytes still to come
	size     uint64 // the size being read
	body     uint64 // body bytes still to come
	msgBytes uint64 // bytes declared by the current message's frames so far
	frames   int    // frames of the current message so far
}

func newFrameScanner(max int) frameScanner {
	return frameScanner{max: uint64(max), greeting: greetingLen}
}

// scan consumes b, the next bytes of the stream. After an error the stream is broken: the
// caller must stop.
func (s *frameScanner) scan(b []byte) error {
	for len(b) > 0 {
		switch {
		case s.greeting > 0:
			n := min(len(b), s.greeting)
			s.greeting -= n
			b = b[n:]
		case s.state == scanBody:
			n := min(uint64(len(b)), s.body)
			s.body -= n
			b = b[n:]
			if s.body == 0 {
				s.endFrame()
			}
		case s.state == scanFlags:
			s.flags, b = b[0], b[1:]
			s.state, s.size, s.need = scanSize, 0, 1
			if s.flags&flagLong != 0 {
				s.need = 8
			}
		default: // scanSize
			s.size = s.size<<8 | uint64(b[0])
			b = b[1:]
			if s.need--; s.need > 0 {
				continue
			}
			if err := s.header(); err != nil {
				return err
			}
		}
	}
	return nil
}

// header checks a complete frame header against the limits.
func (s *frameScanner) header() error {
	s.frames++
	if s.frames > maxFrames {
		return fmt.Errorf("%w: more than %d frames in one message", ErrMessageTooLarge, maxFrames)
	}
	if s.size > s.max-s.msgBytes { // msgBytes ≤ max always holds
		return fmt.Errorf("%w: a frame of %d bytes takes the message to %d bytes or more; the limit is %d bytes",
			ErrMessageTooLarge, s.size, satAdd(s.msgBytes, s.size), s.max)
	}
	s.msgBytes += s.size
	s.body, s.state = s.size, scanBody
	if s.body == 0 {
		s.endFrame()
	}
	return nil
}

// endFrame ends the current frame, and the message with it unless the frame said more.
func (s *frameScanner) endFrame() {
	s.state = scanFlags
	if s.flags&flagMore == 0 {
		s.msgBytes, s.frames = 0, 0
	}
}

func satAdd(a, b uint64) uint64 {
	if a+b < a {
		return ^uint64(0)
	}
	return a + b
}

// limitedConn is a peer's connection as zmq4 reads it: every byte read passes the
// frameScanner first, so a frame header over the limit fails the read that would deliver it
// and zmq4 never allocates for it. zmq4.Conn reads a frame's body into a slice made from the
// header's size (conn.go's read), which panics for sizes near 2^63 and exhausts memory for
// smaller huge ones.
type limitedConn struct {
	net.Conn
	scan frameScanner
	err  error // the first violation; every later read returns it
}

func newLimitedConn(c net.Conn, max int) *limitedConn {
	return &limitedConn{Conn: c, scan: newFrameScanner(max)}
}

// Read implements io.Reader. Only the peer's reading goroutine calls it.
func (c *limitedConn) Read(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.Conn.Read(p)
	if serr := c.scan.scan(p[:n]); serr != nil {
		// Nothing of this read is delivered: io.ReadFull would drop an error returned with a
		// full buffer, and the connection is done for anyway.
		c.err = serr
		return 0, serr
	}
	return n, err
}
