package timeline

import "testing"

// The cases `simgui bench` runs (bench.go), for `go test -bench`.

func BenchmarkStepNoService(b *testing.B)   { BenchStep("")(b) }
func BenchmarkStepFastService(b *testing.B) { BenchStep("fast")(b) }
func BenchmarkStepSlowService(b *testing.B) { BenchStep("slow")(b) }
