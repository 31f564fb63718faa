package window

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"time"
)

// probeDisplay connects to the X display the window would open on (Ebiten's GLFW backend
// uses X11 on Linux, XWayland under Wayland), so that a missing or unreachable display is
// reported at once as ErrNoDisplay. DISPLAY is ":N[.S]", "unix:N" or "host:N" (TCP 6000+N).
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
	c, err := net.DialTimeout(network, addr, 2*time.Second)
	if err != nil {
		if network == "unix" {
			// An abstract socket (Linux) serves the same display when the file is gone.
			if c, err2 := net.DialTimeout("unix", "@"+addr, 2*time.Second); err2 == nil {
				c.Close()
				return nil
			}
		}
		return fmt.Errorf("%w: cannot connect to display %s (%v)", ErrNoDisplay, d, err)
	}
	c.Close()
	return nil
}
