package camera_test

import (
	"bytes"
	"image"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"simgui/app/scenario"
	"simgui/app/sensors"
	"simgui/app/sensors/sensortest"
	"simgui/plugins"
)

// galleryBlock is the visual domain randomization of the gallery: every lens, film and look
// parameter on.
const galleryBlock = `world: {trackId: track.cardboard_corridor.v1}
vehicle: {vehicleId: vehicle.ks0223.v1}
randomization:
  sensors: {camera_position_m: 0.005, camera_yaw_deg: 2, camera_roll_deg: 2, camera_focal: 0.05,
            camera_principal: 0.01, distortion_k1: [-0.16, 0.02], distortion_k2: [0, 0.04], distortion_p: 0.002,
            exposure: [0.6, 1.5], white_balance: 0.12, vignette: [0, 0.5], read_noise: [0, 2.5], shot_noise: [0, 5]}
  visual: {textures: [0.5, 1], color_jitter: 0.2, sun_azimuth_deg: 180, sun_elevation_deg: [-25, 25],
           sun_intensity: 0.4, sun_color: 0.12, ambient: 0.4, distractors: [2, 10]}
`

// galleryFrame renders the KS0223's camera at the corridor's spawn point, 256×192, for a
// vehicle with params, and returns the frame and the robot's pose.
func galleryFrame(t *testing.T, params map[string]any) (*image.NRGBA, [3]float64) {
	t.Helper()
	v := sensortest.KS0223(t)
	params["camera.width"], params["camera.height"] = 256, 192
	v, err := plugins.ApplyVehicleConfig(v, params)
	if err != nil {
		t.Fatal(err)
	}
	env := sensortest.Default(t, v, sensors.Options{})
	env.Step(1)
	var im sensors.Image
	if err := env.System.Frame("ego", "camera.front.rgb", &im); err != nil {
		t.Fatal(err)
	}
	img := image.NewNRGBA(image.Rect(0, 0, im.Width, im.Height))
	for i := range im.Width * im.Height {
		copy(img.Pix[4*i:4*i+3], im.Pixels[3*i:3*i+3])
		img.Pix[4*i+3] = 255
	}
	p := env.World.Model("ego").Body.Pose()
	return img, [3]float64{p.X, p.Y, p.Yaw}
}

// TestGallery draws the KS0223's view at the corridor's spawn point under eight draws of the
// visual randomization: the robot stands where it stands, and every frame looks different; a
// draw rendered again gives the same bytes. With SIMGUI_GALLERY set to a folder, it writes the
// frames there (docs/gallery), and the flat look beside the realistic one.
func TestGallery(t *testing.T) {
	sc, err := scenario.Parse([]byte(galleryBlock), "gallery.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r, err := scenario.ParseRandomization(&sc.Randomization)
	if err != nil {
		t.Fatal(err)
	}
	v := sensortest.KS0223(t)
	dir := os.Getenv("SIMGUI_GALLERY")
	var frames []*image.NRGBA
	var pose0 [3]float64
	for seed := int64(1); seed <= 8; seed++ {
		d, err := r.Sample(seed, v, nil)
		if err != nil {
			t.Fatal(err)
		}
		params := map[string]any{}
		for k, x := range d.Vehicle {
			if len(k) > 7 && k[:7] == "sensor." || k == "camera.pitch_deg" {
				params[k] = x // the camera's draws; the dynamics' do not show at the first step
			}
		}
		img, pose := galleryFrame(t, params)
		if seed == 1 {
			pose0 = pose
			again, _ := galleryFrame(t, copyParams(params))
			if !bytes.Equal(img.Pix, again.Pix) {
				t.Fatal("the same draw renders different bytes")
			}
		} else if pose != pose0 {
			t.Fatalf("seed %d: the robot is at %v, with seed 1 at %v: the look must not move it", seed, pose, pose0)
		}
		for i, f := range frames {
			if d := meanDiff(f, img); d < 4 {
				t.Errorf("draws %d and %d differ by %.1f per channel: want different looks", i+1, seed, d)
			}
		}
		frames = append(frames, img)
		if dir != "" {
			writeGallery(t, filepath.Join(dir, "randomized-"+string(rune('0'+seed))+".png"), img)
		}
	}
	flat, _ := galleryFrame(t, map[string]any{})
	real, _ := galleryFrame(t, map[string]any{"sensor.camera.front.rgb.realistic": 1})
	if d := meanDiff(flat, real); d < 4 {
		t.Errorf("the flat and the realistic look differ by %.1f per channel", d)
	}
	if dir != "" {
		pair := image.NewNRGBA(image.Rect(0, 0, 2*flat.Rect.Dx()+4, flat.Rect.Dy()))
		draw.Draw(pair, pair.Bounds(), image.White, image.Point{}, draw.Src)
		draw.Draw(pair, flat.Rect, flat, image.Point{}, draw.Src)
		draw.Draw(pair, real.Rect.Add(image.Pt(flat.Rect.Dx()+4, 0)), real, image.Point{}, draw.Src)
		writeGallery(t, filepath.Join(dir, "flat-vs-realistic.png"), pair)
	}
}

func copyParams(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

func meanDiff(a, b *image.NRGBA) float64 {
	s := 0
	for i := range a.Pix {
		d := int(a.Pix[i]) - int(b.Pix[i])
		s += max(d, -d)
	}
	return float64(s) / float64(len(a.Pix)*3/4)
}

func writeGallery(t *testing.T, path string, img image.Image) {
	t.Helper()
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
