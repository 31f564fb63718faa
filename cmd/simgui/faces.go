package main

// The process's headless faces, registered with app by their packages; the window registers
// itself where the window is built in.
import (
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"syscall"

	_ "simgui/app/api"
	"simgui/app/bridge"
	_ "simgui/app/control"
	_ "simgui/app/fastpath"
	_ "simgui/app/foxglovews"
	_ "simgui/app/record"
	"simgui/safefile"
)

// faceFlags names, for each face that listens, what it is to people and the flags that move
// it elsewhere (another port or socket; another address) or turn it off.
var faceFlags = map[string]struct{ label, move, bind, off string }{
	"faces.api": {"training API", "choose another with --api-port", "bind another address with $UAVSIM_API_HOST",
		"turn it off with --no-api"},
	"faces.control": {"control service", "choose another with --control-port",
		"bind another address with --control-ip (it follows --bridge-ip)", "turn it off with --no-control"},
	"faces.bridge": {"device bridge", "bind another address with --bridge-ip", "bind another address with --bridge-ip",
		"turn it off with --no-bridge"},
	"faces.fastpath": {"training fast path", "choose another with --fast-path", "", "leave --fast-path out"},
	"faces.foxglove": {"Foxglove live view", "choose another with --foxglove-port", "", "leave --foxglove-port out"},
}

// explainFaceError rewrites a face's failure to listen (app.Host.Run's "faces.api: training
// API: listen on ...: listen tcp ...: bind: address already in use") as one clause and the
// flags that get round it:
//
//	training API: 127.0.0.1:18777 is already in use (another simgui?); choose another with --api-port or turn it off with --no-api
//
// Other errors are returned as they are.
func explainFaceError(err error) error {
	if err == nil {
		return nil
	}
	id, rest, _ := strings.Cut(err.Error(), ": ")
	face, ok := faceFlags[id]
	if !ok {
		return err
	}
	hint := face.move + " or " + face.off
	var op *net.OpError
	addr := ""
	if errors.As(err, &op) && op.Addr != nil {
		addr = op.Addr.String()
	}
	switch {
	case errors.Is(err, syscall.EADDRINUSE) && addr != "":
		return fmt.Errorf("%s: %s is already in use (another simgui?); %s", face.label, addr, hint)
	case errors.Is(err, syscall.EADDRNOTAVAIL) && addr != "":
		return fmt.Errorf("%s: %s is not an address of this machine; %s or %s", face.label, addr, face.bind, face.off)
	case errors.Is(err, bridge.ErrRangeUsedUp):
		_, why, _ := strings.Cut(rest, bridge.ErrNoFreePort.Error())
		why, _, _ = strings.Cut(why, ": ")
		return fmt.Errorf("%s: too few ports%s for the devices; widen the range with --bridge-ports or %s", face.label, why, face.off)
	case errors.Is(err, bridge.ErrNoFreePort):
		// The bridge probes ports before it binds: on an address that is not this machine's
		// every probe fails, and no port seems free.
		_, why, _ := strings.Cut(rest, bridge.ErrNoFreePort.Error())
		ip := why[strings.LastIndex(why, " ")+1:]
		if ln, lerr := net.Listen("tcp", net.JoinHostPort(ip, "0")); errors.Is(lerr, syscall.EADDRNOTAVAIL) {
			return fmt.Errorf("%s: %s is not an address of this machine; %s or %s", face.label, ip, face.bind, face.off)
		} else if lerr == nil {
			ln.Close()
		}
		return fmt.Errorf("%s: every port is taken%s (other simgui?); %s", face.label, why, hint)
	}
	// The fast path finds its socket answered by another process before it listens.
	if p, ok := strings.CutPrefix(rest, "fast path: "); ok {
		if path, ok := strings.CutSuffix(p, " is in use by another process"); ok {
			return fmt.Errorf("%s: %s is already in use (another simgui?); %s", face.label, path, hint)
		}
	}
	return err
}

// checkRecordDir makes --record-dir d and checks that a file can be written in it, now rather
// than at the first start_record: a missing folder said "not a directory" to a client, and
// one that is there but cannot be written (another user's, a read-only mount) let a server
// start only to answer every start_record "permission denied".
func checkRecordDir(d string) error { return checkOutputDir("--record-dir", d, "recordings") }

// checkOutputDir makes the folder d that flag names and checks that files (what, for the
// message) can be written in it.
func checkOutputDir(flag, d, what string) error {
	if err := os.MkdirAll(d, 0o755); err != nil {
		return fmt.Errorf("%s %s: %w", flag, d, err)
	}
	if err := safefile.CanCreateIn(d); err != nil {
		return fmt.Errorf("%s %s: %s cannot be written there: %w", flag, d, what, err)
	}
	return nil
}
