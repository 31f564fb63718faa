//go:build !headless

package worldbench

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/ebitengine/purego"

	"simgui/app/bench"
)

// peerSource is the C peer of the scene (cpeer/chipmunk_peer.c), compiled at bench time against
// Debian's libchipmunk-dev with the same -O2 Debian builds the library with.
//
//go:embed cpeer/chipmunk_peer.c
var peerSource string

// chipmunkPeer is the C peer's functions, loaded once per process.
type chipmunkPeer struct {
	new   func(n int32, robots []float64, nw int32, walls []float64, params []float64) unsafe.Pointer
	step  func(h unsafe.Pointer, k int32)
	stats func(h unsafe.Pointer, meanSpeed *float64, links *int32)
	free  func(h unsafe.Pointer)
}

var (
	peerOnce sync.Once
	peerLib  *chipmunkPeer
	peerErr  error
)

// loadPeer builds cpeer/chipmunk_peer.c into a shared library in a temporary folder and loads it.
// The library stays loaded for the life of the process (dlclose of code Go has called into
// is not worth the risk); the folder is removed at once, the mapping keeps the file alive.
func loadPeer() (*chipmunkPeer, error) {
	peerOnce.Do(func() { peerLib, peerErr = buildPeer() })
	return peerLib, peerErr
}

func buildPeer() (*chipmunkPeer, error) {
	if _, err := os.Stat("/usr/include/chipmunk/chipmunk.h"); err != nil {
		return nil, errors.New("the Chipmunk C headers are missing: install libchipmunk-dev (build/setup.sh)")
	}
	cc, err := exec.LookPath("cc")
	if err != nil {
		return nil, errors.New("no C compiler (cc) on PATH to build the Chipmunk peer")
	}
	dir, err := os.MkdirTemp("", "simgui-chipmunk-peer-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	src, lib := filepath.Join(dir, "peer.c"), filepath.Join(dir, "peer.so")
	if err := os.WriteFile(src, []byte(peerSource), 0o600); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, cc, "-O2", "-shared", "-fPIC", "-o", lib, src, "-lchipmunk", "-lm").CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("building the Chipmunk peer: %v: %s", err, strings.TrimSpace(string(out)))
	}
	h, err := purego.Dlopen(lib, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		return nil, fmt.Errorf("loading the Chipmunk peer: %w", err)
	}
	p := &chipmunkPeer{}
	for _, f := range []struct {
		fn   any
		name string
	}{{&p.new, "peer_new"}, {&p.step, "peer_step"}, {&p.stats, "peer_stats"}, {&p.free, "peer_free"}} {
		// Look the symbol up first: RegisterLibFunc panics on a missing one.
		if _, err := purego.Dlsym(h, f.name); err != nil {
			return nil, fmt.Errorf("loading the Chipmunk peer: %w", err)
		}
		purego.RegisterLibFunc(f.fn, h, f.name)
	}
	return p, nil
}

// peerScene is the scene of benchBareCP in Chipmunk 7's C library.
type peerScene struct {
	p *chipmunkPeer
	h unsafe.Pointer
}

// newPeerScene builds the scene of n robots in the C peer; close it with free.
func newPeerScene(n int) (*peerScene, error) {
	p, err := loadPeer()
	if err != nil {
		return nil, err
	}
	sc := newScene(n)
	robots := make([]float64, 0, 5*n)
	for i, ps := range sc.poses {
		robots = append(robots, ps.X, ps.Y, ps.Yaw, sc.targets[i][0], sc.targets[i][1])
	}
	var walls []float64
	for _, e := range sc.walls {
		walls = append(walls, e.X, e.Y, e.Length, e.Width)
	}
	bd := benchKS0223.Body
	params := []float64{benchDt, ks0223Accel, ks0223YawAcc, ks0223Grip, bd.Mass, bd.Length, bd.Width, bd.Friction, wallFriction, collisionSlop, solverIterations}
	h := p.new(int32(n), robots, int32(len(sc.walls)), walls, params)
	if h == nil {
		return nil, errors.New("peer_new: out of memory")
	}
	return &peerScene{p: p, h: h}, nil
}

func (ps *peerScene) step(k int) { ps.p.step(ps.h, int32(k)) }

// stats returns the robots' mean planar speed and the body-arbiter links (see peer_stats).
func (ps *peerScene) stats() (speed float64, links int) {
	var l int32
	ps.p.stats(ps.h, &speed, &l)
	return speed, int(l)
}

func (ps *peerScene) free() { ps.p.free(ps.h) }

// benchChipmunkC steps the scene of benchBareCP in Chipmunk 7's C library.
func benchChipmunkC(b bench.B, n int) {
	ps, err := newPeerScene(n)
	if err != nil {
		b.Skip(err)
	}
	defer ps.free()
	ps.step(settleSteps)
	ops := 0
	for b.Loop() {
		ps.step(1)
		ops++
	}
	b.StopTimer()
	speed, links := ps.stats()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(ops)/1e6, "ms/step")
	b.ReportMetric(speed, "m/s-mean")
	b.ReportMetric(float64(links), "arbiter-links")
}
