package render

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestLensRowMatchesGo holds lensRow (assembly on amd64) to lensRowGo's bytes: random taps
// anywhere in a random undistorted image, random vignettes, rows of every length up to a
// few noise draws and a 640-pixel one, through a noisy film with gains.
func TestLensRowMatchesGo(t *testing.T) {
	film := filmTable(&Film{Exposure: 1.3, WhiteBalance: [3]float64{1.1, 1, 0.8}, ReadNoise: 2, ShotNoise: 5})
	rng := rand.New(rand.NewPCG(1, 2))
	const iw, ih = 37, 23
	src := make([]uint64, iw*ih)
	for i := range src {
		src[i] = packLin(rng.Uint32N(linMax+1), rng.Uint32N(linMax+1), rng.Uint32N(linMax+1))
	}
	lengths := []int{1, 2, 3, 4, 5, 7, 8, 9, 13, 640}
	for trial := range 200 {
		n := lengths[trial%len(lengths)]
		taps, vig := make([]lensTap, n), make([]uint16, n)
		for i := range taps {
			x, y := rng.IntN(iw-1), rng.IntN(ih-1)
			taps[i] = lensTap{idx: int32(y*iw + x), w: bilinearWeights(rng.Float64(), rng.Float64())}
			if rng.IntN(8) == 0 {
				taps[i].w = [4]uint8{} // where the lens sees nothing
			}
			vig[i] = uint16(rng.IntN(linOne + 1))
		}
		seed := rng.Uint64()
		want, got := make([]byte, 3*n), make([]byte, 3*n)
		lensRowGo(want, taps, vig, src, iw, film.bucket, film.out, seed)
		lensRow(got, taps, vig, src, iw, film.bucket, film.out, seed)
		if !bytes.Equal(got, want) {
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("trial %d (%d pixels): byte %d (pixel %d) is %d, want %d", trial, n, i, i/3, got[i], want[i])
				}
			}
		}
	}
}

// TestLensRowFullWhite checks the extremes the tables index: every tap on full-scale white
// with no vignette, and on black.
func TestLensRowFullWhite(t *testing.T) {
	film := filmTable(&Film{ReadNoise: 1, ShotNoise: 1})
	src := []uint64{packLin(linMax, linMax, linMax), packLin(linMax, linMax, linMax), 0, 0, 0, 0}
	taps := []lensTap{{idx: 0, w: [4]uint8{32}}, {idx: 0, w: [4]uint8{16, 16}}, {idx: 2, w: [4]uint8{8, 8, 8, 8}}}
	vig := []uint16{linOne, linOne, linOne}
	want, got := make([]byte, 9), make([]byte, 9)
	lensRowGo(want, taps, vig, src, 2, film.bucket, film.out, 7)
	lensRow(got, taps, vig, src, 2, film.bucket, film.out, 7)
	if !bytes.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if want[0] < 250 || want[8] > 5 {
		t.Fatalf("white developed to %v, black to %v", want[:3], want[6:])
	}
}
