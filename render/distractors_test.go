package render

import (
	"slices"
	"testing"

	"simgui/plugins"
)

// TestDistractorsShareTextures builds the realistic corridor with many distractors under
// several look seeds: their random colours are tints of the materials' own textures, so the
// texture cache holds at most one texture per material variant (a texture made in each
// distractor's colour was made anew at every reset), and the tints turn a material's own
// colour into the distractor's.
func TestDistractorsShareTextures(t *testing.T) {
	texCache.Lock()
	texCache.m, texCache.bytes = nil, 0
	texCache.Unlock()
	layout := &plugins.Layout{Floor: plugins.Floor{Length: 4, Width: 4}} // nothing else textured
	for seed := range uint64(6) {
		env := RealisticEnvironment()
		env.Seed, env.Distractors = seed+1, 32
		mustStatic(t, layout, &env)
	}
	texCache.Lock()
	n := 0
	for k := range texCache.m {
		if slices.Contains(distractorMaterials, k.name) {
			n++
			if k.color != "" {
				t.Errorf("a distractor texture made in colour %s", k.color)
			}
		}
	}
	texCache.Unlock()
	if max := len(distractorMaterials) * 8; n == 0 || n > max {
		t.Fatalf("%d distractor textures cached after 6 looks of 32 distractors: want 1 to %d (one a material variant)", n, max)
	}
	if g := tintTo(RGB{200, 100, 50}, RGB{200, 100, 50}); g != [3]float32{1, 1, 1} {
		t.Errorf("tint from a colour to itself %v, want 1s", g)
	}
	if g := tintTo(RGB{240, 240, 240}, RGB{1, 1, 1}); g != [3]float32{maxTint, maxTint, maxTint} {
		t.Errorf("tint from near black %v, want the cap %d", g, maxTint)
	}
}

// TestLookSeedMattersOnlyWhenItPicks builds the realistic corridor under two look seeds: with
// nothing for the seed to pick (no texture swap, colour jitter or distractors) both are the
// same shared scene, as a reset that randomizes only the film needs; with texture swap on,
// they are two scenes.
func TestLookSeedMattersOnlyWhenItPicks(t *testing.T) {
	layout := &plugins.Layout{Floor: plugins.Floor{Length: 3, Width: 3},
		Elements: []plugins.Element{{Kind: plugins.ElementWall, X: 1, Length: 0.05, Width: 2, Height: 0.3}}}
	static := func(seed uint64, swap float64) *Static {
		env := RealisticEnvironment()
		env.Seed, env.TextureSwap = seed, swap
		s, err := SharedStatic(layout, &env)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if static(3, 0) != static(4, 0) {
		t.Error("two look seeds with nothing to pick built two scenes")
	}
	if static(3, 1) == static(4, 1) {
		t.Error("two look seeds with texture swap on share one scene")
	}
}

// The texture cache holds no more than its maxBytes: past it, it starts afresh.
func TestTextureCacheBytesAreBounded(t *testing.T) {
	texCache.Lock()
	texCache.m, texCache.bytes = nil, 0
	texCache.Unlock()
	defer func(b int) { texCache.maxBytes = b }(texCache.maxBytes)
	big := func() (*Texture, error) { return &Texture{levels: []texLevel{{texels: make([]RGB, 100_000)}}}, nil }
	one, _ := big()
	texCache.maxBytes = 3*one.bytes() + 1
	for v := range 10 {
		if _, err := cachedTexture(texKey{name: "big", variant: v}, big); err != nil {
			t.Fatal(err)
		}
		texCache.Lock()
		n, b := len(texCache.m), texCache.bytes
		texCache.Unlock()
		if b > texCache.maxBytes || b != n*one.bytes() || n == 0 {
			t.Fatalf("after %d textures of %d bytes: %d cached in %d bytes, want at most %d bytes", v+1, one.bytes(), n, b, texCache.maxBytes)
		}
	}
}

// Distractors stand off the whole path robots drive: from the spawn point to the route's
// first waypoint, along the route, and back to its start when it loops (the first and the
// last leg once had objects across them, which robots drove through, as distractors are drawn
// only).
func TestDistractorsKeepOffTheDrivenPath(t *testing.T) {
	layout := &plugins.Layout{
		Floor:       plugins.Floor{Length: 4, Width: 4},
		SpawnPoints: []plugins.SpawnPoint{{X: -1.5, Y: -1.5}},
		Route:       &plugins.Route{Waypoints: [][2]float64{{1.5, -1.5}, {1.5, 1.5}, {-1.5, 1.5}}, Loop: true},
	}
	legs := [][2][2]float64{
		{{-1.5, -1.5}, {1.5, -1.5}}, // spawn point to the first waypoint
		{{1.5, -1.5}, {1.5, 1.5}},
		{{1.5, 1.5}, {-1.5, 1.5}},
		{{-1.5, 1.5}, {1.5, -1.5}}, // the loop's closing leg, across the floor
	}
	placed := 0
	for seed := range uint64(20) {
		env := RealisticEnvironment()
		env.Distractors = 64
		p := newPick(seed + 1)
		for _, d := range distractors(layout, &env, &p) {
			placed++
			x, y := float64(d.mesh.min[0]+d.mesh.max[0])/2, float64(d.mesh.min[1]+d.mesh.max[1])/2
			for i, leg := range legs {
				if dist := plugins.SegmentDistance(leg[0], leg[1], [2]float64{x, y}); dist < distractorClearance {
					t.Errorf("seed %d: a distractor at (%.2f, %.2f), %.3f m from leg %d of the driven path; want %g m or more",
						seed+1, x, y, dist, i, distractorClearance)
				}
			}
		}
	}
	if placed < 200 {
		t.Errorf("%d distractors placed in 20 looks of 64: the floor has room for more", placed)
	}
}
