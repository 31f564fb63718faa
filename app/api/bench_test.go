package api

import "testing"

func BenchmarkEcho84(b *testing.B)        { benchEcho(b) }
func BenchmarkStep84(b *testing.B)        { BenchStep(b) }
func BenchmarkStep8Isolated(b *testing.B) { BenchStepIsolated(8)(b) }
