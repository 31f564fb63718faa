package window

import (
	"fmt"
	"math/bits"
	"strings"
	"testing"
	"unicode/utf8"
)

// fitText keeps the longest start that fits, as trying every length did, and finds it in a
// few measurements of a line of any length: the HUD's world line of a training episode of
// 10,000 agents (69 KB) was measured once for every rune it lost.
func TestFitTextMeasuresFewTimes(t *testing.T) {
	// A monospace measure: 7 px a rune.
	mono := func(s string) float32 { return 7 * float32(utf8.RuneCountInString(s)) }
	names := make([]string, 10000)
	for i := range names {
		names[i] = fmt.Sprintf("agent-%d", i+1)
	}
	long := "world: episode 1 · " + strings.Join(names, ", ")
	for _, c := range []struct {
		s     string
		width float32
		want  string
	}{
		{"short", 100, "short"},
		{"abcdefgh", 35, "abcd…"}, // 5 runes of 7 px
		{"abcdefgh", 14, "a…"},    // the shortest start there is
		{"abcdefgh", 13, ""},      // none fits
		{"välkommen", 28, "väl…"}, // runes, not bytes
		{long, 700, string([]rune(long)[:99]) + "…"},
	} {
		calls := 0
		got := fitWith(c.s, c.width, func(s string) float32 { calls++; return mono(s) })
		if got != c.want {
			t.Errorf("fit %.20q… in %g px: %q, want %q", c.s, c.width, got, c.want)
		}
		// One for the whole line, then one for each halving of its runes.
		if limit := 2 + bits.Len(uint(utf8.RuneCountInString(c.s))); calls > limit {
			t.Errorf("fit a line of %d runes: %d measurements, want at most %d", utf8.RuneCountInString(c.s), calls, limit)
		}
	}
}
