package world

import (
	"fmt"
	"testing"
)

func BenchmarkWorldStep(b *testing.B) {
	for _, n := range []int{1, 100, 1000} {
		b.Run(fmt.Sprintf("ks0223-%d", n), func(b *testing.B) { BenchmarkStep(b, n) })
		b.Run(fmt.Sprintf("bare-cp-%d", n), func(b *testing.B) { benchBareCP(b, n) })
	}
}
