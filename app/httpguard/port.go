package httpguard

import (
	"fmt"
	"os"
	"strconv"
)

// PortFromEnv returns the port in the environment variable name, or def when it is unset:
// the one rule both faces' variables follow (0..65535, 0 a free port).
func PortFromEnv(name string, def int) (int, error) {
	v := os.Getenv(name)
	if v == "" {
		return def, nil
	}
	p, err := strconv.Atoi(v)
	if err != nil || p < 0 || p > 65535 {
		return 0, fmt.Errorf("%s=%q is not a port number (0-65535, 0 for a free one)", name, v)
	}
	return p, nil
}
