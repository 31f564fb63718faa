package transport

import (
	"strings"
	"testing"

	"simgui/app/bench"
)

// BenchmarkTransport runs the cases this package registers with simgui/app/bench:
//
//	go test -run '^$' -bench Transport ./app/transport
func BenchmarkTransport(b *testing.B) {
	for _, c := range bench.Cases() {
		if strings.HasPrefix(c.Name, "transport/") {
			b.Run(strings.TrimPrefix(c.Name, "transport/"), c.F)
		}
	}
}
