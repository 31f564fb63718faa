package bridge

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"testing"
)

// Raw ZMTP 3.0 wire bytes, written by hand so that tests can send what no library would.

// zmtpGreeting is a NULL-mechanism greeting of a client.
func zmtpGreeting() []byte {
	g := make([]byte, greetingLen)
	g[0], g[9], g[10], g[11] = 0xff, 0x7f, 3, 0
	copy(g[12:], "NULL")
	return g
}

// zmtpFrame is one frame with flags (more 0x01, command 0x04; long is set as needed).
func zmtpFrame(flags byte, body []byte) []byte {
	if len(body) > 255 {
		return append(zmtpHeader(flags|flagLong, uint64(len(body))), body...)
	}
	return append([]byte{flags, byte(len(body))}, body...)
}

// zmtpHeader is a frame header alone, declaring size bytes.
func zmtpHeader(flags byte, size uint64) []byte {
	if flags&flagLong == 0 {
		return []byte{flags, byte(size)}
	}
	return binary.BigEndian.AppendUint64([]byte{flags}, size)
}

const flagCommand = 0x04

// zmtpReady is the READY command of a peer of socket type typ.
func zmtpReady(typ string) []byte {
	body := []byte("\x05READY\x0bSocket-Type")
	body = binary.BigEndian.AppendUint32(body, uint32(len(typ)))
	body = append(body, typ...)
	return zmtpFrame(flagCommand, body)
}

func concat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

func TestFrameScanner(t *testing.T) {
	const max = 100
	g, ready := zmtpGreeting(), zmtpReady("PUB")
	body := func(n int) []byte { return bytes.Repeat([]byte{'x'}, n) }
	for _, tc := range []struct {
		name   string
		stream []byte
		bad    bool
	}{
		{"greeting only", g, false},
		{"greeting, READY, messages", concat(g, ready, zmtpFrame(0, body(10)), zmtpFrame(0, body(max))), false},
		{"a message at the limit over three frames", concat(g, ready, zmtpFrame(flagMore, body(40)), zmtpFrame(flagMore, nil), zmtpFrame(0, body(60))), false},
		{"long size form for a small frame", concat(g, zmtpHeader(flagLong, 3), body(3)), false},
		{"64 frames", concat(g, bytes.Repeat(zmtpFrame(flagMore, nil), maxFrames-1), zmtpFrame(0, nil)), false},
		{"65 frames", concat(g, bytes.Repeat(zmtpFrame(flagMore, nil), maxFrames), zmtpFrame(0, nil)), true},
		{"one byte over", concat(g, ready, zmtpFrame(0, body(max+1))), true},
		{"over across frames", concat(g, zmtpFrame(flagMore, body(60)), zmtpHeader(0, 41)), true},
		{"2^62 in the handshake", concat(g, zmtpHeader(flagCommand|flagLong, 1<<62)), true},
		{"2^64-1 after READY", concat(g, ready, zmtpHeader(flagLong, ^uint64(0))), true},
		{"2^40 header", concat(g, zmtpHeader(flagLong, 1<<40)), true},
		{"limit resets after a message", concat(g, zmtpFrame(0, body(max)), zmtpFrame(0, body(max))), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Whole, and one byte at a time: where reads split the stream must not matter.
			whole := newFrameScanner(max)
			errWhole := whole.scan(tc.stream)
			bytewise := newFrameScanner(max)
			var errBytes error
			for i := range tc.stream {
				if errBytes = bytewise.scan(tc.stream[i : i+1]); errBytes != nil {
					break
				}
			}
			for name, err := range map[string]error{"whole": errWhole, "byte by byte": errBytes} {
				if tc.bad != (err != nil) {
					t.Errorf("%s: err %v, want error %v", name, err, tc.bad)
				}
				if err != nil && !errors.Is(err, ErrMessageTooLarge) {
					t.Errorf("%s: %v is not ErrMessageTooLarge", name, err)
				}
			}
			if errWhole == nil && whole != bytewise {
				t.Errorf("states differ: whole %+v, byte by byte %+v", whole, bytewise)
			}
		})
	}
}

// TestLimitedConnStopsBeforeTheBody: the read that would deliver an oversize header fails, so
// nothing upstream learns the size.
func TestLimitedConnStopsBeforeTheBody(t *testing.T) {
	stream := concat(zmtpGreeting(), zmtpHeader(flagLong, 1<<62))
	c := newLimitedConn(&byteConn{r: bytes.NewReader(stream)}, 100)
	buf := make([]byte, 4096)
	n, err := c.Read(buf)
	if n != 0 || !errors.Is(err, ErrMessageTooLarge) {
		t.Fatalf("Read: %d, %v", n, err)
	}
	if n, err2 := c.Read(buf); n != 0 || err2 != err {
		t.Errorf("second Read: %d, %v (want the same error)", n, err2)
	}
}

// byteConn is a net.Conn that reads from r; nothing else of it is used.
type byteConn struct {
	net.Conn
	r io.Reader
}

func (c *byteConn) Read(p []byte) (int, error) { return c.r.Read(p) }
