// Package bench is the registry behind `simgui bench`: packages register named benchmark cases
// (plain testing.B functions) in init, and the command runs them in one process so that a case
// and its baseline are measured in the same run on the same machine.
//
// A case names its baseline; the report gives the ratio case/baseline of ns per op, which is
// what the issues ask for on a shared, noisy machine.
package bench

import (
	"fmt"
	"regexp"
	"sort"
	"sync"
	"testing"
)

// Case is one benchmark.
type Case struct {
	// Name is a slash-separated path, for example "world/step/ks0223/1000".
	Name string
	// Baseline is the Name of the case this one is compared against, or "".
	Baseline string
	// Doc says in one line what is measured.
	Doc string
	// F is the benchmark body, written as for `go test -bench`.
	F func(b *testing.B)
}

var (
	mu    sync.Mutex
	cases = map[string]Case{}
)

// Register adds a case. It panics on an empty or duplicate name, or a nil F: both are
// programming errors found at init.
func Register(c Case) {
	if c.Name == "" || c.F == nil {
		panic("bench: Register needs a Name and F")
	}
	mu.Lock()
	defer mu.Unlock()
	if _, dup := cases[c.Name]; dup {
		panic("bench: duplicate case " + c.Name)
	}
	cases[c.Name] = c
}

// Cases returns the registered cases sorted by name.
func Cases() []Case {
	mu.Lock()
	defer mu.Unlock()
	out := make([]Case, 0, len(cases))
	for _, c := range cases {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Result is one measured case.
type Result struct {
	Name        string             `json:"name"`
	Doc         string             `json:"doc,omitempty"`
	N           int                `json:"n"`
	NsPerOp     float64            `json:"nsPerOp"`
	AllocsPerOp int64              `json:"allocsPerOp"`
	BytesPerOp  int64              `json:"bytesPerOp"`
	Extra       map[string]float64 `json:"extra,omitempty"`
	Baseline    string             `json:"baseline,omitempty"`
	// Ratio is NsPerOp divided by the baseline's NsPerOp (0 when there is no baseline).
	Ratio float64 `json:"ratio,omitempty"`
}

// Run measures every case whose name matches filter (nil = all), plus the baselines they need,
// calling progress (if not nil) before each case.
func Run(filter *regexp.Regexp, progress func(name string)) ([]Result, error) {
	all := Cases()
	byName := map[string]Case{}
	for _, c := range all {
		byName[c.Name] = c
	}
	want := map[string]bool{}
	for _, c := range all {
		if filter == nil || filter.MatchString(c.Name) {
			want[c.Name] = true
			if c.Baseline != "" {
				if _, ok := byName[c.Baseline]; !ok {
					return nil, fmt.Errorf("bench: case %s names unknown baseline %s", c.Name, c.Baseline)
				}
				want[c.Baseline] = true
			}
		}
	}
	var results []Result
	measured := map[string]float64{}
	for _, c := range all {
		if !want[c.Name] {
			continue
		}
		if progress != nil {
			progress(c.Name)
		}
		r := testing.Benchmark(c.F)
		res := Result{
			Name: c.Name, Doc: c.Doc, N: r.N,
			AllocsPerOp: r.AllocsPerOp(), BytesPerOp: r.AllocedBytesPerOp(),
			Baseline: c.Baseline, Extra: r.Extra,
		}
		if r.N > 0 {
			res.NsPerOp = float64(r.T.Nanoseconds()) / float64(r.N)
		}
		measured[c.Name] = res.NsPerOp
		results = append(results, res)
	}
	for i := range results {
		if b := results[i].Baseline; b != "" && measured[b] > 0 {
			results[i].Ratio = results[i].NsPerOp / measured[b]
		}
	}
	return results, nil
}
