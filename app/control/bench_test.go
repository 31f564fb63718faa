package control

import "testing"

func BenchmarkGorillaEcho(b *testing.B)     { benchEcho(b) }
func BenchmarkHandoffEcho(b *testing.B)     { benchHandoffEcho(b) }
func BenchmarkStepRoundTrip(b *testing.B)   { benchStepRoundTrip(b) }
func BenchmarkLoopStepIdle(b *testing.B)    { benchLoopSteps(0)(b) }
func BenchmarkLoopStepFlood16(b *testing.B) { benchLoopSteps(16)(b) }
