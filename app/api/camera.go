package api

import (
	"encoding/base64"
	"fmt"

	"simgui/app/scenario"
	"simgui/app/sensors"
	"simgui/app/sensors/jpegenc"
	"simgui/plugins"
	"simgui/render"
)

// frameID is the frameId of every rusim camera frame.
const frameID = "camera/front/image_raw"

// cameraSpec is an agent's front camera: the vehicle's first camera mount, drawn by the
// world's sensors system (sensors.System.Frame: the mount's pose, field of view, clip range,
// frame size, JPEG quality and contract noise, the peers as SetPeerVisibility says), through
// the brightness and colour gains of domain randomization.
type cameraSpec struct {
	id            string
	width, height int // the frame size its contract declares
	quality       int
	lut           *render.GainTable // brightness × colour gain per channel
}

// newCameraSpec reads v's first camera; ok is false for a vehicle without one.
func newCameraSpec(v *plugins.VehicleDescriptor, image map[string]float64) (*cameraSpec, bool) {
	for _, m := range v.Sensors {
		if m.Kind != plugins.SensorCamera {
			continue
		}
		c := &cameraSpec{id: m.ID, quality: int(m.Param("jpegQuality"))}
		c.width, c.height, _ = v.FrameSize()
		c.lut = render.NewGainTable(scenario.ImageGains(image))
		return c, true
	}
	return nil, false
}

// frame draws what agent sees now into img, a world's scratch image, and returns the JPEG in
// base64, its decoded length and the frame size. An RGB camera draws the gains in itself (its
// world's image gains, set by buildEpisode). Loop goroutine only.
func (c *cameraSpec) frame(sys *sensors.System, agent string, img *sensors.Image) (b64 string, n, w, h int, err error) {
	if err := sys.Frame(agent, c.id, img); err != nil {
		return "", 0, 0, 0, fmt.Errorf("camera %s of %s: %w", c.id, agent, err)
	}
	w, h = img.Width, img.Height
	asSent := c.lut == nil || img.Channels == 3
	if asSent && img.Format == sensors.FormatJPEGBase64 {
		return string(img.Data), base64.StdEncoding.DecodedLen(len(img.Data)) - padding(img.Data), w, h, nil
	}
	if asSent && img.Format == sensors.FormatJPEG {
		return base64.StdEncoding.EncodeToString(img.Data), len(img.Data), w, h, nil
	}
	// Another format, or a grey camera with gains: encode the pixels here (a grey camera's
	// gains go on the RGB it is sent as).
	pix := img.Pixels
	if img.Channels == 1 {
		rgb := make([]byte, 3*w*h)
		for i, g := range pix[:w*h] {
			rgb[3*i], rgb[3*i+1], rgb[3*i+2] = g, g, g
		}
		pix = rgb
		c.lut.Apply(pix)
	}
	jpeg, err := jpegenc.Default().Encode(nil, pix, w, h, 3*w, c.quality)
	if err != nil {
		return "", 0, 0, 0, fmt.Errorf("camera %s of %s: %w", c.id, agent, err)
	}
	return base64.StdEncoding.EncodeToString(jpeg), len(jpeg), w, h, nil
}

// padding counts the '=' at the end of base64 text.
func padding(b []byte) int {
	n := 0
	for i := len(b) - 1; i >= 0 && b[i] == '='; i-- {
		n++
	}
	return n
}
