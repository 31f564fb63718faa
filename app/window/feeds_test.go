package window

import (
	"encoding/binary"
	"math"
	"slices"
	"testing"
	"time"

	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/plugins"
)

func TestConvertImage(t *testing.T) {
	f32 := func(vs ...float32) []byte {
		b := make([]byte, 4*len(vs))
		for i, v := range vs {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
		}
		return b
	}
	inf := float32(math.Inf(1))
	for _, tc := range []struct {
		name   string
		format msgs.PixelFormatType
		w, h   uint32
		step   uint32
		data   []byte
		want   []byte // RGBA
	}{
		{"rgb", msgs.PixelFormatType_RGB_INT8, 2, 1, 0, []byte{1, 2, 3, 4, 5, 6}, []byte{1, 2, 3, 255, 4, 5, 6, 255}},
		{"rgb with row padding", msgs.PixelFormatType_RGB_INT8, 1, 2, 4, []byte{1, 2, 3, 0, 4, 5, 6, 0}, []byte{1, 2, 3, 255, 4, 5, 6, 255}},
		{"bgr", msgs.PixelFormatType_BGR_INT8, 1, 1, 0, []byte{1, 2, 3}, []byte{3, 2, 1, 255}},
		{"bgra", msgs.PixelFormatType_BGRA_INT8, 1, 1, 0, []byte{1, 2, 3, 9}, []byte{3, 2, 1, 255}},
		{"grey", msgs.PixelFormatType_L_INT8, 2, 1, 0, []byte{7, 200}, []byte{7, 7, 7, 255, 200, 200, 200, 255}},
		// Depth with far 4 m: 0 m white... 1 m is 1-sqrt(1/4) = 0.5, beyond far and +Inf black.
		{"depth", msgs.PixelFormatType_R_FLOAT32, 4, 1, 0, f32(1, 4, 9, inf), []byte{127, 127, 127, 255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fr, err := convertImage(&msgs.Image{Width: tc.w, Height: tc.h, Step: tc.step, Data: tc.data, PixelFormatType: tc.format}, 4, nil)
			if err != nil {
				t.Fatal(err)
			}
			if fr.W != int(tc.w) || fr.H != int(tc.h) || string(fr.Pix) != string(tc.want) {
				t.Fatalf("got %d×%d %v, want %v", fr.W, fr.H, fr.Pix, tc.want)
			}
		})
	}
	for _, tc := range []struct {
		name string
		m    *msgs.Image
	}{
		{"short data", &msgs.Image{Width: 2, Height: 2, Data: make([]byte, 11), PixelFormatType: msgs.PixelFormatType_RGB_INT8}},
		{"no size", &msgs.Image{PixelFormatType: msgs.PixelFormatType_RGB_INT8}},
		{"bayer", &msgs.Image{Width: 1, Height: 1, Data: []byte{1}, PixelFormatType: msgs.PixelFormatType_BAYER_RGGB8}},
	} {
		if _, err := convertImage(tc.m, 10, nil); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

func TestRateMeter(t *testing.T) {
	var r rateMeter
	t0 := time.Unix(100, 0)
	for i := range 31 {
		r.add(t0.Add(time.Duration(i) * time.Second / 15))
	}
	now := t0.Add(2 * time.Second)
	if hz := r.rate(now); math.Abs(hz-15) > 0.01 {
		t.Fatalf("15 Hz measured as %.3f", hz)
	}
	if hz := r.rate(now.Add(3 * time.Second)); hz != 0 {
		t.Fatalf("3 s after the last frame: %.3f Hz, want 0", hz)
	}
	// 1 kHz handed over in bursts, as a loaded machine does: every 100 ms the 100 frames of
	// the last 100 ms, 10 µs apart.
	var b rateMeter
	t1 := time.Unix(200, 0)
	for k := range 40 {
		for i := range 100 {
			b.add(t1.Add(time.Duration(k)*100*time.Millisecond + time.Duration(i)*10*time.Microsecond))
		}
	}
	if hz := b.rate(t1.Add(4 * time.Second)); math.Abs(hz-1000)/1000 > 0.06 {
		t.Fatalf("1 kHz in bursts measured as %.1f Hz", hz)
	}
}

// TestFeedOverBus publishes camera frames on a real transport bus and reads them through a
// feed as the panels do.
func TestFeedOverBus(t *testing.T) {
	bus := transport.NewBus(transport.Options{})
	defer bus.Close()
	topic := imageTopic("car", "camera.front.rgb")
	f := openFeed(bus, "camera.front.rgb", plugins.SensorCamera, topic, 0)
	defer f.close()
	for i := range 5 {
		img := &msgs.Image{Width: 2, Height: 1, Data: []byte{byte(i), 0, 0, 0, 0, 0}, PixelFormatType: msgs.PixelFormatType_RGB_INT8}
		if err := bus.Publish(topic, img, time.Duration(i)*time.Second/15); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	deadline := time.Now().Add(2 * time.Second)
	var fr *frame
	for time.Now().Before(deadline) {
		if n, _, _ := f.status(time.Now()); n == 5 {
			fr = f.next()
			break
		}
		time.Sleep(time.Millisecond)
	}
	if fr == nil || fr.Pix[0] != 4 || fr.Stamp != 4*time.Second/15 {
		t.Fatalf("newest frame %+v, want the fifth", fr)
	}
	if f.next() != nil {
		t.Fatal("a frame was handed out twice")
	}
}

func TestFeedsFor(t *testing.T) {
	v, err := plugins.Builtin().Vehicle("vehicle.ks0223.v1")
	if err != nil {
		t.Fatal(err)
	}
	v.Sensors = append(v.Sensors, plugins.SensorMount{ID: "lidar.top", Kind: plugins.SensorLidar},
		plugins.SensorMount{ID: "depth.front", Kind: plugins.SensorDepth, Params: map[string]float64{"far": 6}})
	got := feedsFor("ego", v, false)
	want := []feedSpec{
		{"camera.front.rgb", "camera", "/model/ego/sensor/camera.front.rgb/image", 0},
		{"ultrasonic.front", "ultrasonic", "/model/ego/sensor/ultrasonic.front/scalar", 0},
		{"depth.front", "depth", "/model/ego/sensor/depth.front/depth_image", 6},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("feeds %+v, want %+v", got, want)
	}
	if got := feedsFor("ego", v, true); len(got) != 4 || got[2].topic != "/model/ego/sensor/lidar.top/scan" {
		t.Fatalf("with lidar: %+v", got)
	}
}

func TestConvertScanPose(t *testing.T) {
	s, c := math.Sincos(0.6 / 2)
	sc := convertScan(&msgs.LaserScan{AngleMin: -1, AngleMax: 1, Ranges: []float64{1, 2, 3},
		WorldPose: &msgs.Pose{Position: &msgs.Vector3D{X: 1, Y: 2}, Orientation: &msgs.Quaternion{W: c, Z: s}}})
	if !sc.hasPose || sc.x != 1 || sc.y != 2 || math.Abs(sc.yaw-0.6) > 1e-12 || sc.step != 1 {
		t.Fatalf("scan %+v", sc)
	}
}
