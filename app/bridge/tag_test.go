package bridge

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Vectors computed with g++ 12.2 from CLOiSim's C++ tag hash (cloisim_ros).
var tagVectors = []struct {
	key  string
	want uint64
}{
	{"", 0x553e93901e462a6e},
	{"WorldSimulationWorldClock", 0x74b772c3e891192c},
	{"WorldSimulationWorldControl", 0xf45f058291c66d64},
	{"ks0223micomRx", 0x976c9a320cfc810b},
	{"ks0223micomTx", 0xc96f7323e6a1714a},
	{"cloi0lidarData", 0x08728ab0c4c42f5f},
}

func TestTagReferenceVectors(t *testing.T) {
	for _, v := range tagVectors {
		if got := Tag(v.key); got != v.want {
			t.Errorf("Tag(%q) = %#016x, want %#016x", v.key, got, v.want)
		}
	}
}

func TestTagBytesLittleEndian(t *testing.T) {
	want := [8]byte{0x2c, 0x19, 0x91, 0xe8, 0xc3, 0x72, 0xb7, 0x74} // the reference's wire bytes
	if got := TagBytes("WorldSimulationWorldClock"); got != want {
		t.Errorf("TagBytes = % x, want % x", got, want)
	}
	got := AppendTag([]byte("x"), "WorldSimulationWorldClock")
	if !bytes.Equal(got, append([]byte("x"), want[:]...)) {
		t.Errorf("AppendTag = % x", got)
	}
}

// hashProgram prints libstdc++'s std::hash<std::string> of each hex-encoded input line.
const hashProgram = `#include <cstdio>
#include <functional>
#include <iostream>
#include <string>
int main() {
	std::string line;
	while (std::getline(std::cin, line)) {
		std::string s;
		for (size_t i = 0; i + 1 < line.size(); i += 2) s.push_back((char)std::stoi(line.substr(i, 2), nullptr, 16));
		std::printf("%016zx\n", std::hash<std::string>{}(s));
	}
}
`

// TestTagMatchesLibstdcxx compiles a C++ program with g++ and compares its std::hash with Tag on
// random byte strings of every length 0..17 (every tail length, one and two 8-byte blocks),
// some longer ones, and the reference keys.
func TestTagMatchesLibstdcxx(t *testing.T) {
	gxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("g++ not found; install Debian package g++ to check Tag against libstdc++")
	}
	dir := t.TempDir()
	src, bin := filepath.Join(dir, "hash.cpp"), filepath.Join(dir, "hash")
	if err := os.WriteFile(src, []byte(hashProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(gxx, "-O1", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("g++: %v\n%s", err, out)
	}

	rng := rand.New(rand.NewPCG(1, 2))
	var keys []string
	for n := 0; n <= 17; n++ {
		for range 2 {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(rng.IntN(256)) // includes NUL and bytes >= 0x80 (signed char in C++)
			}
			keys = append(keys, string(b))
		}
	}
	for _, n := range []int{23, 24, 25, 31, 40, 64, 100} {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('a' + rng.IntN(26))
		}
		keys = append(keys, string(b))
	}
	for _, v := range tagVectors {
		keys = append(keys, v.key)
	}

	var in strings.Builder
	for _, k := range keys {
		in.WriteString(hex.EncodeToString([]byte(k)) + "\n")
	}
	cmd := exec.Command(bin)
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("run hash program: %v", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	i := 0
	for ; sc.Scan(); i++ {
		want, err := strconv.ParseUint(sc.Text(), 16, 64)
		if err != nil || i >= len(keys) {
			t.Fatalf("bad output line %d %q", i, sc.Text())
		}
		if got := Tag(keys[i]); got != want {
			t.Errorf("len %d %q: Tag %#016x, std::hash %#016x", len(keys[i]), keys[i], got, want)
		}
	}
	if i != len(keys) {
		t.Fatalf("hash program printed %d lines for %d keys", i, len(keys))
	}
	t.Logf("%d strings agree with %s", len(keys), gxx)
}

func BenchmarkTag(b *testing.B) {
	for b.Loop() {
		Tag("WorldSimulationWorldClock")
	}
}
