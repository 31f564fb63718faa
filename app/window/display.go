package window

import (
	"fmt"
	"io/fs"
	"net"
	"os"
	"strconv"
	"strings"
	"time"
)

// probeDisplay checks that the X display the window would open on (Ebiten's GLFW backend
// uses X11 on Linux, XWayland under Wayland) is there, so that a missing or unreachable display
// is reported at once as ErrNoDisplay. DISPLAY is ":N[.S]", "unix:N" or "host:N" (TCP 6000+N).
// A local display is judged by its socket file without connecting: an X server such as Xvfb
// refuses a share of connections that follow a closed one within milliseconds, and the window's
// own connection comes right after this check.
func probeDisplay() error {
	d := os.Getenv("DISPLAY")
	if d == "" {
		return fmt.Errorf("%w: DISPLAY is not set", ErrNoDisplay)
	}
	host, rest, ok := strings.Cut(d, ":")
	num, _, _ := strings.Cut(rest, ".")
	n, err := strconv.Atoi(num)
	if !ok || err != nil || n < 0 {
		return fmt.Errorf("%w: DISPLAY=%q is not host:number", ErrNoDisplay, d)
	}
	network, addr := "unix", "/tmp/.X11-unix/X"+num
	if host != "" && host != "unix" {
		network, addr = "tcp", net.JoinHostPort(host, strconv.Itoa(6000+n))
	}
	if network == "unix" {
		if st, err := os.Stat(addr); err == nil && st.Mode()&fs.ModeSocket != 0 {
			return nil
		}
		// Without the file, an abstract socket (Linux) may still serve the display.
		addr = "@" + addr
	}
	c, err := net.DialTimeout(network, addr, 2*time.Second)
	if err != nil {
		return fmt.Errorf("%w: cannot connect to display %s (%v)", ErrNoDisplay, d, err)
	}
	c.Close()
	return nil
}
