package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// keys writes a mapping of n keys under world.params (a free mapping, checked only against the
// track's schema when the scenario resolves), as the hostile probe did under logging.
func keys(n int) []byte {
	var b bytes.Buffer
	b.WriteString("vehicle: {vehicleId: vehicle.ks0223.v1}\nworld:\n  params:\n")
	for i := range n {
		fmt.Fprintf(&b, "    key%07d: %d\n", i, i)
	}
	return b.Bytes()
}

func wantLimit(t *testing.T, err error, limit string, parts ...string) {
	t.Helper()
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != limit {
		t.Fatalf("error %v, want a LimitError for %s", err, limit)
	}
	for _, p := range append(parts, "limit "+limit) {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not say %q", err, p)
		}
	}
}

// A file of one million keys (18 MB) is refused from its size, before a byte of it is parsed;
// yaml.v3 alone took more than 523 s over it.
func TestMillionKeyFileRefusedBySize(t *testing.T) {
	data := keys(1_000_000)
	path := filepath.Join(t.TempDir(), "million.yaml")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err := Load(path)
	t.Logf("%d keys, %d bytes: Load refused it in %v", 1_000_000, len(data), time.Since(start))
	wantLimit(t, err, "MaxBytes", path, fmt.Sprintf("%d bytes", len(data)), "at most 1048576")

	start = time.Now()
	_, err = Parse(data, "million.yaml")
	t.Logf("Parse refused the same bytes in %v", time.Since(start))
	wantLimit(t, err, "MaxBytes", "million.yaml")
}

// Under the size limit, a mapping with too many keys is refused from the node tree, before
// yaml.v3's quadratic duplicate check runs; the error names the file, the line and the key.
func TestMappingKeyLimit(t *testing.T) {
	n := (MaxBytes - 200) / len("  key0000000: 1000000\n")
	start := time.Now()
	_, err := Parse(keys(n), "wide.yaml")
	t.Logf("%d keys in one mapping: refused in %v", n, time.Since(start))
	wantLimit(t, err, "MaxMappingKeys", "wide.yaml", "line 3", fmt.Sprintf("world.params has %d keys", n), fmt.Sprintf("at most %d", MaxMappingKeys))

	// A flow mapping is a mapping too.
	var b bytes.Buffer
	b.WriteString("world: {trackId: track.basic_arena.v1, params: {")
	for i := range MaxMappingKeys + 1 {
		fmt.Fprintf(&b, "k%d: 1, ", i)
	}
	b.WriteString("}}\n")
	_, err = Parse(b.Bytes(), "flow.yaml")
	wantLimit(t, err, "MaxMappingKeys", "flow.yaml", fmt.Sprintf("world.params has %d keys", MaxMappingKeys+1))

	// At the limit the file is read (and the keys reach world.params).
	s, err := Parse(keys(MaxMappingKeys), "ok.yaml")
	if err != nil || len(s.World.Params) != MaxMappingKeys {
		t.Fatalf("%d keys: %v, world.params has %d", MaxMappingKeys, err, len(s.World.Params))
	}
}

// The worst file the limits let through: every mapping at MaxMappingKeys, up to MaxBytes
// (mappings of keys grouped MaxMappingKeys to a group under world.params). Its time is logged, not
// asserted: the machine's load decides it.
func TestWorstFileWithinLimits(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("vehicle: {vehicleId: vehicle.ks0223.v1}\nworld:\n  trackId: track.basic_arena.v1\n  params:\n")
	mappings := 0
	for full := false; !full; mappings++ {
		var block bytes.Buffer
		if mappings%MaxMappingKeys == 0 {
			fmt.Fprintf(&block, "    g%d:\n", mappings/MaxMappingKeys)
		}
		fmt.Fprintf(&block, "      m%d:\n", mappings)
		for i := range MaxMappingKeys {
			fmt.Fprintf(&block, "        k%d: 1\n", i)
		}
		if full = b.Len()+block.Len() > MaxBytes; !full {
			b.Write(block.Bytes())
		}
	}
	start := time.Now()
	if _, err := Parse(b.Bytes(), "worst.yaml"); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d bytes, %d mappings of %d keys: parsed in %v", b.Len(), mappings-1, MaxMappingKeys, time.Since(start))
}

func TestDepthAndNodeLimits(t *testing.T) {
	deep := "world: {params: {a: " + strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth) + "}}\n"
	_, err := Parse([]byte(deep), "deep.yaml")
	wantLimit(t, err, "MaxDepth", "deep.yaml", "more than 64 levels")

	// An alias counts each time it is used: 300 uses of a 1,000-item list are 300,000 nodes.
	var b strings.Builder
	b.WriteString("world:\n params:\n  base: &x [" + strings.Repeat("1, ", 999) + "1]\n  uses: [")
	b.WriteString(strings.Repeat("*x, ", 299) + "*x]\n")
	_, err = Parse([]byte(b.String()), "aliases.yaml")
	wantLimit(t, err, "MaxNodes", "aliases.yaml", "more than 200000 YAML nodes")
}

// .nan and .inf are refused wherever they are, with the line and the key.
func TestNonFiniteNumbersRefused(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"world: {trackId: track.basic_arena.v1}\nagents:\n  vehicles:\n    - {vehicleId: vehicle.ks0223.v1, spawnPose: {position: [.nan, 0], yawDeg: 0}}\n",
			"line 4: agents.vehicles[0].spawnPose.position[0]: .nan is not a finite number"},
		{"world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1, params: {mass: -.inf}}\n",
			"line 2: vehicle.params.mass: -.inf is not a finite number"},
		{"runtime: {stepSize: .Inf}\n", "runtime.stepSize: .Inf is not a finite number"},
	} {
		_, err := Parse([]byte(tc.src), "nan.yaml")
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "nan.yaml: ") {
			t.Errorf("%q: error %v, want %q", tc.src, err, tc.want)
		}
	}
}

// A named pipe as the scenario is refused at once instead of waiting for a writer.
func TestLoadRefusesNonRegularFiles(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "scenario.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(fifo); err == nil || !strings.Contains(err.Error(), "not a regular file (a named pipe)") {
		t.Fatalf("FIFO: %v", err)
	}
	if _, err := Load(t.TempDir()); err == nil || !strings.Contains(err.Error(), "a folder") {
		t.Fatalf("folder: %v", err)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "nope.yaml")); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Fatalf("missing: %v", err)
	}
}

// TestSystemsLimit: MaxSystems plugins: entries load; one more is refused naming the limit.
func TestSystemsLimit(t *testing.T) {
	file := func(n int) string {
		return "world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\nplugins:\n" + strings.Repeat("  - {type: systems.waypoint_follower, config: {models: [ego]}}\n", n)
	}
	if p, err := resolveText(t, file(MaxSystems)); err != nil || len(p.Systems) != MaxSystems {
		t.Fatalf("%d systems: %v", MaxSystems, err)
	}
	if _, err := resolveText(t, file(MaxSystems+1)); err == nil || !strings.Contains(err.Error(), "over the limit of 256") {
		t.Errorf("%d systems: %v, want refused", MaxSystems+1, err)
	}
	// 30 entries with a misspelt key: ten are worded, the rest counted.
	_, err := resolveText(t, "plugins:\n"+strings.Repeat("  - {tpye: x}\n", 30))
	if err == nil || strings.Count(err.Error(), "tpye") != 10 || !strings.Contains(err.Error(), "and 20 more") {
		t.Errorf("30 bad entries: %v", err)
	}
}
