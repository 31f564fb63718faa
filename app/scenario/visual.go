package scenario

import (
	"math"

	"simgui/plugins"
)

// Visual domain randomization: the sensors.camera_* lens and film parameters and the visual.*
// look parameters land on the vehicle's first camera as sensor.<id>.<param> vehicle params
// (plugins.SensorParams("camera")), so every agent's camera has its own lens, film and look —
// drawn per reset and per agent, from the agent's seed, and replayable from Draw.Values.
// Whenever a visual.* parameter is drawn, the look also gets a seed of its own
// (sensor.<id>.lookSeed) for the per-element choices (textures, colours, distractor places),
// and the camera draws the realistic look (sensor.<id>.realistic = 1), the only one that shows
// those draws, unless its mount chooses the look itself.

// visualParams are the visual randomization parameters, after the vehicle and sensor ones in
// RandomParams: the camera's extrinsics, intrinsics and distortion, its film, and the look of
// its scene.
var visualParams = []RandomParam{
	{Name: "sensors.camera_position_m", Mode: Offset, Limit: [2]float64{-1, 1}, Doc: "camera mount x, y, z (drawn apart), metres added"},
	{Name: "sensors.camera_yaw_deg", Mode: Offset, Limit: [2]float64{-180, 180}, Doc: "camera yaw, degrees added"},
	{Name: "sensors.camera_roll_deg", Mode: Offset, Limit: [2]float64{-180, 180}, Doc: "camera roll, degrees added"},
	{Name: "sensors.camera_focal", Mode: Scale, Default: [2]float64{1, 1}, Limit: [2]float64{0.5, 2}, Doc: "focal lengths fx, fy (drawn apart), factor"},
	{Name: "sensors.camera_principal", Mode: Offset, Limit: [2]float64{-0.25, 0.25}, Doc: "principal point shift right and down (drawn apart), share of the frame size"},
	{Name: "sensors.distortion_k1", Mode: Offset, Limit: [2]float64{-10, 10}, Doc: "radial distortion k1, added"},
	{Name: "sensors.distortion_k2", Mode: Offset, Limit: [2]float64{-10, 10}, Doc: "radial distortion k2, added"},
	{Name: "sensors.distortion_k3", Mode: Offset, Limit: [2]float64{-10, 10}, Doc: "radial distortion k3, added"},
	{Name: "sensors.distortion_p", Mode: Offset, Limit: [2]float64{-1, 1}, Doc: "tangential distortion p1, p2 (drawn apart), added"},
	{Name: "sensors.exposure", Mode: Scale, Default: [2]float64{1, 1}, Limit: [2]float64{0.01, 64}, Doc: "film exposure, factor"},
	{Name: "sensors.white_balance", Mode: Scale, Default: [2]float64{1, 1}, Limit: [2]float64{0.01, 16}, Doc: "film white balance gains r, g, b (drawn apart), factor"},
	{Name: "sensors.vignette", Mode: Absolute, Limit: [2]float64{0, 1}, Doc: "film vignetting, 0..1"},
	{Name: "sensors.read_noise", Mode: Absolute, Limit: [2]float64{0, 255}, Doc: "film read noise stddev, linear 0..255"},
	{Name: "sensors.shot_noise", Mode: Absolute, Limit: [2]float64{0, 255}, Doc: "film shot noise stddev at full scale, linear 0..255"},
	{Name: "visual.textures", Mode: Absolute, Limit: [2]float64{0, 1}, Doc: "share of elements taking a random texture of their material's set, 0..1"},
	{Name: "visual.color_jitter", Mode: Absolute, Limit: [2]float64{0, 0.5}, Doc: "per-element colour jitter, ± per channel, 0..0.5"},
	{Name: "visual.sun_azimuth_deg", Mode: Offset, Limit: [2]float64{-360, 360}, Doc: "sun azimuth, degrees added"},
	{Name: "visual.sun_elevation_deg", Mode: Offset, Limit: [2]float64{-90, 90}, Doc: "sun elevation, degrees added"},
	{Name: "visual.sun_intensity", Mode: Scale, Default: [2]float64{1, 1}, Limit: [2]float64{0, 16}, Doc: "direct sunlight, factor"},
	{Name: "visual.sun_color", Mode: Scale, Default: [2]float64{1, 1}, Limit: [2]float64{0, 16}, Doc: "sun colour gains r, g, b (drawn apart), factor"},
	{Name: "visual.ambient", Mode: Scale, Default: [2]float64{1, 1}, Limit: [2]float64{0, 16}, Doc: "sky (ambient) light, factor"},
	{Name: "visual.distractors", Mode: Absolute, Limit: [2]float64{0, 64}, Doc: "number of distractor objects off the path robots drive, spawn point to route end (rounded)"},
}

// visualTargets returns where a visual randomization parameter lands on v's first camera.
func visualTargets(name string, v *plugins.VehicleDescriptor) []target {
	cam := cameraMount(v)
	if cam == nil {
		return nil
	}
	key := func(p string) string { return "sensor." + cam.ID + "." + p }
	param := func(p string) target {
		specs, _ := plugins.SensorParams(plugins.SensorCamera)
		for _, s := range specs {
			if s.Name == p {
				base, ok := cam.Params[p]
				if !ok {
					base = s.Default
				}
				return target{key: key(p), base: base, min: s.Min, max: s.Max, integer: s.Integer}
			}
		}
		return target{key: key(p), min: math.Inf(-1), max: math.Inf(1)}
	}
	pose := func(p string, base float64) target {
		lim := 10.0
		if p != "x" && p != "y" && p != "z" {
			lim = 180
		}
		return target{key: key(p), base: base, min: -lim, max: lim}
	}
	all := func(ps ...string) []target {
		out := make([]target, len(ps))
		for i, p := range ps {
			out[i] = param(p)
		}
		return out
	}
	switch name {
	case "sensors.camera_position_m":
		return []target{pose("x", cam.Pose.X), pose("y", cam.Pose.Y), pose("z", cam.Pose.Z)}
	case "sensors.camera_yaw_deg":
		return []target{pose("yawDeg", cam.Pose.YawDeg)}
	case "sensors.camera_roll_deg":
		return []target{pose("rollDeg", cam.Pose.RollDeg)}
	case "sensors.camera_focal":
		// Factors and shares, not pixels: the API may set the frame size after the draw.
		return all("fxScale", "fyScale")
	case "sensors.camera_principal":
		return all("cxShift", "cyShift")
	case "sensors.distortion_k1":
		return all("k1")
	case "sensors.distortion_k2":
		return all("k2")
	case "sensors.distortion_k3":
		return all("k3")
	case "sensors.distortion_p":
		return all("p1", "p2")
	case "sensors.exposure":
		return all("exposure")
	case "sensors.white_balance":
		return all("wbR", "wbG", "wbB")
	case "sensors.vignette":
		return all("vignette")
	case "sensors.read_noise":
		return all("readNoise")
	case "sensors.shot_noise":
		return all("shotNoise")
	case "visual.textures":
		return all("textureSwap")
	case "visual.color_jitter":
		return all("colorJitter")
	case "visual.sun_azimuth_deg":
		return all("sunAzimuthDeg")
	case "visual.sun_elevation_deg":
		return all("sunElevationDeg")
	case "visual.sun_intensity":
		return all("sunIntensity")
	case "visual.sun_color":
		return all("sunR", "sunG", "sunB")
	case "visual.ambient":
		return all("ambient")
	case "visual.distractors":
		return all("distractors")
	}
	return nil
}

// addLookSeed draws the seed of the look's per-element choices and turns the realistic look
// on where the camera's mount leaves it to its default.
func (d *Draw) addLookSeed(seed int64, v *plugins.VehicleDescriptor) {
	cam := cameraMount(v)
	if cam == nil {
		return
	}
	if _, chosen := cam.Params["realistic"]; !chosen {
		key := "sensor." + cam.ID + ".realistic"
		d.Values = append(d.Values, Drawn{Param: "visual", Key: key, Value: 1})
		d.Vehicle[key] = 1.0
	}
	key := "sensor." + cam.ID + ".lookSeed"
	x := float64(1 + stream(seed, key).IntN(2147483646))
	d.Values = append(d.Values, Drawn{Param: "visual", Key: key, Value: x})
	d.Vehicle[key] = x
}
