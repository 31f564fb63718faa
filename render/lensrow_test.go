package render

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestLensRowMatchesGo holds lensRow (each kernel) to lensRowGo's bytes: random taps
// anywhere in a random undistorted image, random vignettes, rows of every length up to a
// few noise draws and a 640-pixel one, through a noisy film with gains.
func TestLensRowMatchesGo(t *testing.T) {
	forEachLensKernel(t, func(t *testing.T) {
		film := filmTable(&Film{Exposure: 1.3, WhiteBalance: [3]float64{1.1, 1, 0.8}, ReadNoise: 2, ShotNoise: 5})
		rng := rand.New(rand.NewPCG(1, 2))
		const iw, ih = 37, 23
		src := randomLin(rng, make([]uint64, iw*ih))
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
	})
}

// randomLin fills src with random packed linear pixels and returns it.
func randomLin(rng *rand.Rand, src []uint64) []uint64 {
	for i := range src {
		src[i] = packLin(rng.Uint32N(linMax+1), rng.Uint32N(linMax+1), rng.Uint32N(linMax+1))
	}
	return src
}

// randomVignette returns n random vignette factors, 0 to linOne.
func randomVignette(rng *rand.Rand, n int) []uint16 {
	vig := make([]uint16, n)
	for i := range vig {
		vig[i] = uint16(rng.IntN(linOne + 1))
	}
	return vig
}

// forEachLensKernel runs f with the scalar row kernels, then with the vector ones where
// the CPU has it.
func forEachLensKernel(t *testing.T, f func(t *testing.T)) {
	has := hasRow8
	defer func() { hasRow8 = has }()
	for _, vector := range []bool{false, true} {
		if vector && !has {
			continue
		}
		hasRow8 = vector
		t.Run(map[bool]string{false: "scalar", true: "vector"}[vector], f)
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

// TestLensRowMatchesGoOnLensMaps holds lensRow to lensRowGo over whole frames of real lens
// maps, for a noisy film and (lensRowEnc) one without noise, whose rows curve across the
// undistorted image's rows (what the AVX-512 kernel's
// loads and permutes follow, gathering elsewhere): barrel, pincushion, decentred and fisheye
// lenses, frame widths that are not multiples of 8, and frames small enough that a round's
// rows would reach past the undistorted image's end (which lies against an unreadable page).
func TestLensRowMatchesGoOnLensMaps(t *testing.T) {
	forEachLensKernel(t, func(t *testing.T) {
		film := filmTable(&Film{Exposure: 0.9, WhiteBalance: [3]float64{1, 1.05, 0.9}, ReadNoise: 1.5, ShotNoise: 4})
		clean := filmTable(&Film{Exposure: 1.4, WhiteBalance: [3]float64{1.1, 1, 0.7}, Gamma: 2}) // lensRowEnc's
		cases := []struct {
			w, h int
			lens Lens
		}{
			{640, 480, Lens{Model: PlumbBob, K1: -0.12, K2: 0.02, P1: 0.001, P2: -0.0008}},
			{84, 84, Lens{Model: PlumbBob, K1: -0.12, K2: 0.02}},
			{101, 37, Lens{Model: PlumbBob, K1: 0.3, K2: 0.1, P1: -0.01}},
			{330, 170, Lens{Fx: 150, Fy: 160, Cx: 140, Cy: 95, Model: PlumbBob, K1: -0.3, K2: 0.08, K3: -0.01}},
			{200, 150, Lens{Model: Equidistant, K1: 0.05, K2: -0.01}},
			{16, 8, Lens{Model: Equidistant, K1: -0.02}},
		}
		rng := rand.New(rand.NewPCG(3, 4))
		for _, c := range cases {
			cam := Camera{Width: c.w, Height: c.h, FovYDeg: 68, Lens: c.lens}
			lm := newLensMap(&cam, lensKey{})
			src := randomLin(rng, guardedUint64s(t, lm.w*lm.h))
			vig := randomVignette(rng, c.w)
			want, got := make([]byte, 3*c.w), make([]byte, 3*c.w)
			for y := range c.h {
				taps := lm.taps[y*c.w : (y+1)*c.w]
				lensRowGo(want, taps, vig, src, lm.w, film.bucket, film.out, uint64(y))
				lensRow(got, taps, vig, src, lm.w, film.bucket, film.out, uint64(y))
				if i := firstDiff(got, want); i >= 0 {
					t.Fatalf("%dx%d %+v row %d: byte %d (pixel %d) is %d, want %d", c.w, c.h, c.lens, y, i, i/3, got[i], want[i])
				}
				lensRowEncGo(want, taps, vig, src, lm.w, clean.enc)
				lensRowEnc(got, taps, vig, src, lm.w, clean.enc)
				if i := firstDiff(got, want); i >= 0 {
					t.Fatalf("%dx%d %+v row %d without noise: byte %d (pixel %d) is %d, want %d", c.w, c.h, c.lens, y, i, i/3, got[i], want[i])
				}
			}
		}
	})
}

// TestLensRowAtSourceEnds puts rounds of taps where the AVX-512 kernel's loads would reach
// just past either end of the undistorted image (which lies between unreadable pages): it
// must gather there, and load right up to the last pixel where that is inside.
func TestLensRowAtSourceEnds(t *testing.T) {
	forEachLensKernel(t, func(t *testing.T) {
		film := filmTable(&Film{ReadNoise: 2, ShotNoise: 2})
		const iw, ih = 32, 16 // 4 KiB: the image starts on a page boundary too
		rng := rand.New(rand.NewPCG(5, 6))
		src := randomLin(rng, guardedUint64s(t, iw*ih))
		last := int32(iw*ih - 2*iw - 16) // the last first tap whose three rows of 16 are inside
		seq := func(from int32) []int32 {
			return []int32{from, from + 1, from + 2, from + 3, from + 4, from + 5, from + 6, from + 7}
		}
		for _, idx := range [][]int32{
			{20, 0, 1, 2, 21, 22, 23, 24}, // taps a row above the first, at the image's start
			seq(last),                     // rows right up to the end
			seq(last + 1),                 // one past
			{last - 4, last - 4 + iw, last - 3, last - 2 + iw, last - 1, last, last + 1, last + 2}, // the row below
			{last + 4, last + 4 + iw, last + 5, last + 6, last + 7, last + 8, last + 9, last + 10}, // the row below, past the end
		} {
			taps := make([]lensTap, 8)
			for i, j := range idx {
				taps[i] = lensTap{idx: j, w: bilinearWeights(rng.Float64(), rng.Float64())}
			}
			vig := []uint16{linOne, linOne, linOne, linOne, linOne, linOne, linOne, linOne}
			want, got := make([]byte, 24), make([]byte, 24)
			lensRowGo(want, taps, vig, src, iw, film.bucket, film.out, 9)
			lensRow(got, taps, vig, src, iw, film.bucket, film.out, 9)
			if i := firstDiff(got, want); i >= 0 {
				t.Fatalf("taps %v: byte %d is %d, want %d", idx, i, got[i], want[i])
			}
		}
	})
}

// BenchmarkLensRow develops a 640×480 frame through a KS0223-like lens and a noisy,
// vignetted film, with the scalar kernel and (where the CPU has AVX-512) the vector one.
func BenchmarkLensRow(b *testing.B) {
	cam := Camera{Width: 640, Height: 480, FovYDeg: 68, Lens: Lens{Model: PlumbBob, K1: -0.12, K2: 0.02, P1: 0.001, P2: -0.0008}}
	lm := newLensMap(&cam, lensKey{})
	film := filmTable(&Film{Exposure: 1.1, WhiteBalance: [3]float64{1.04, 1, 0.94}, Vignette: 0.35, ReadNoise: 1.2, ShotNoise: 3})
	rng := rand.New(rand.NewPCG(1, 2))
	src := make([]uint64, lm.w*lm.h)
	for i := range src { // a smooth gradient with some texture, as frames have
		v := uint32(1000+i%lm.w*4) + rng.Uint32N(300)
		src[i] = packLin(v, v*2/3, v/2)
	}
	vig := make([]uint16, cam.Width)
	for i := range vig {
		vig[i] = uint16(linOne - i*2)
	}
	dst := make([]byte, 3*cam.Width)
	has := hasRow8
	defer func() { hasRow8 = has }()
	for _, vector := range []bool{false, true} {
		name := map[bool]string{false: "scalar", true: "avx512"}[vector]
		b.Run(name, func(b *testing.B) {
			if vector && !has {
				b.Skip("no AVX-512 here")
			}
			hasRow8 = vector
			for b.Loop() {
				for y := range cam.Height {
					lensRow(dst, lm.taps[y*cam.Width:(y+1)*cam.Width], vig, src, lm.w, film.bucket, film.out, uint64(y))
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "frames/s")
		})
	}
}

// TestDevelopNoisyMatchesGo holds developNoisy (each kernel) to developNoisyGo's bytes:
// random lanes of every size a uint64 holds (past linMax too, where the index wraps as a
// uint16), random vignettes, both scales, rows of many lengths.
func TestDevelopNoisyMatchesGo(t *testing.T) {
	forEachLensKernel(t, func(t *testing.T) {
		film := filmTable(&Film{Exposure: 1.2, WhiteBalance: [3]float64{0.9, 1, 1.1}, ReadNoise: 3, ShotNoise: 2})
		rng := rand.New(rand.NewPCG(7, 8))
		for trial := range 120 {
			n := []int{1, 3, 7, 8, 9, 15, 16, 17, 84, 640}[trial%10]
			src, vig := make([]uint64, n), make([]uint16, n)
			for i := range src {
				src[i] = rng.Uint64()
				if trial%2 == 0 {
					src[i] = packLin(rng.Uint32N(linMax+1), rng.Uint32N(linMax+1), rng.Uint32N(linMax+1))
				}
				vig[i] = uint16(rng.IntN(linOne + 1))
			}
			shift := uint(drawnShift)
			if trial%3 == 0 {
				shift = resampledShift
			}
			seed := rng.Uint64()
			want, got := make([]byte, 3*n), make([]byte, 3*n)
			developNoisyGo(want, src, vig, shift, film.bucket, film.out, seed)
			developNoisy(got, src, vig, shift, film.bucket, film.out, seed)
			if i := firstDiff(got, want); i >= 0 {
				t.Fatalf("trial %d (%d pixels, shift %d): byte %d (pixel %d) is %d, want %d", trial, n, shift, i, i/3, got[i], want[i])
			}
		}
	})
}

// TestFramesTheSameOnEveryCPU renders the realistic corridor through each row kernel —
// noisy film with and without a lens, a lens without noise, odd sizes — with the vector
// kernels and without: the same bytes, so a seed's frames (and a run's hash) do not depend on
// the CPU a policy was trained on.
func TestFramesTheSameOnEveryCPU(t *testing.T) {
	if !hasRow8 {
		t.Skip("no vector kernels on this CPU")
	}
	sc, err := newBenchScene()
	if err != nil {
		t.Fatal(err)
	}
	env := RealisticEnvironment()
	env.Seed, env.TextureSwap, env.ColorJitter = 3, 1, 0.2
	st := mustStatic(t, corridorLayout(), &env)
	noisy := Film{Exposure: 1.1, WhiteBalance: [3]float64{1.04, 1, 0.94}, Vignette: 0.35, ReadNoise: 1.2, ShotNoise: 3}
	clean := Film{Exposure: 0.9, Vignette: 0.2}
	lens := Lens{Model: PlumbBob, K1: -0.12, K2: 0.02, P1: 0.001, P2: -0.0008}
	for _, c := range []struct {
		name string
		w, h int
		film Film
		lens Lens
	}{
		{"noisy film", 163, 97, noisy, Lens{}},
		{"noisy film and lens", 163, 97, noisy, lens},
		{"lens", 84, 84, clean, lens},
		{"fisheye", 101, 75, noisy, Lens{Model: Equidistant, K1: 0.05}},
	} {
		cam := benchCamera(c.w, c.h)
		cam.Lens, cam.Film, cam.Seed = c.lens, &c.film, 11
		hasRow8 = false
		scalar := render(t, cam, st, sc.dyn, Options{Workers: 1})
		hasRow8 = true
		vector := render(t, cam, st, sc.dyn, Options{Workers: 1})
		if i := firstDiff(vector.RGB, scalar.RGB); i >= 0 {
			t.Errorf("%s: byte %d differs with the vector kernels (%d, scalar %d)", c.name, i, vector.RGB[i], scalar.RGB[i])
		}
	}
}

// TestBucketTablesLeaveTheLevelBits holds what both kernels rely on to or a noise level into
// a bucket without the Go loop's and with noiseMask: every bucket-table entry is at most
// noiseMask with its low 4 bits clear, over gains, white balance and gamma.
func TestBucketTablesLeaveTheLevelBits(t *testing.T) {
	for _, f := range []Film{
		{ReadNoise: 1},
		{Exposure: 4, WhiteBalance: [3]float64{2, 1, 0.3}, ShotNoise: 5, Gamma: 1},
		{Exposure: 0.1, ReadNoise: 3, Gamma: 2.6},
	} {
		b := filmTable(&f).bucket
		for c := range b {
			for i, v := range b[c] {
				if v&(noiseLevels-1) != 0 || v > noiseMask {
					t.Fatalf("%+v: channel %d's bucket %d is %d", f, c, i, v)
				}
			}
		}
	}
}
