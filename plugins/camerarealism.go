package plugins

// The camera kind's realism parameters: lens intrinsics and distortion (OpenCV's models), the
// film (exposure, white balance, vignetting, noise, motion blur, transfer curve) and the look
// the camera sees the scene in (the sun, ambient light, shadows, the scene's visual domain
// randomization). simgui/render implements them (render.MountCamera); domain randomization
// (app/scenario) draws them per reset and per agent as sensor.<id>.<param> vehicle params.
var cameraRealismParams = []ParamSpec{
	// Lens, OpenCV pixel coordinates ((0, 0) is the centre of the top-left pixel) of the
	// contract's frame size; a frame drawn at another size scales them.
	{Name: "fx", Unit: "px", Default: 0, Min: 0, Max: maxFocalPx, Doc: "horizontal focal length (0: fy when it is given, else from fovDeg; square pixels)"},
	{Name: "fy", Unit: "px", Default: 0, Min: 0, Max: maxFocalPx, Doc: "vertical focal length (0: fx when it is given, else from fovDeg)"},
	{Name: "cx", Unit: "px", Default: 0, Min: 0, Max: 16384, Doc: "principal point column in OpenCV's pixel coordinates (the left column's centre is 0), inside the frame (0: the centre, (W − 1)/2)"},
	{Name: "cy", Unit: "px", Default: 0, Min: 0, Max: 16384, Doc: "principal point row (the top row's centre is 0), inside the frame (0: the centre, (H − 1)/2)"},
	{Name: "fxScale", Default: 1, Min: 0.5, Max: 2, Doc: "factor on the horizontal focal length (intrinsics jitter at any frame size)"},
	{Name: "fyScale", Default: 1, Min: 0.5, Max: 2, Doc: "factor on the vertical focal length"},
	{Name: "cxShift", Default: 0, Min: -0.25, Max: 0.25, Doc: "principal point shift right, share of the frame width"},
	{Name: "cyShift", Default: 0, Min: -0.25, Max: 0.25, Doc: "principal point shift down, share of the frame height"},
	{Name: "lensModel", Default: 0, Min: 0, Max: 1, Integer: true, Doc: "distortion model: 0 plumb_bob (k1 k2 p1 p2 k3), 1 equidistant fisheye (k1..k4)"},
	{Name: "k1", Default: 0, Min: -10, Max: 10, Doc: "radial distortion coefficient"},
	{Name: "k2", Default: 0, Min: -10, Max: 10, Doc: "radial distortion coefficient"},
	{Name: "k3", Default: 0, Min: -10, Max: 10, Doc: "radial distortion coefficient"},
	{Name: "k4", Default: 0, Min: -10, Max: 10, Doc: "radial distortion coefficient (equidistant only)"},
	{Name: "p1", Default: 0, Min: -1, Max: 1, Doc: "tangential distortion coefficient (plumb_bob only)"},
	{Name: "p2", Default: 0, Min: -1, Max: 1, Doc: "tangential distortion coefficient (plumb_bob only)"},
	// Film, in linear light.
	{Name: "exposure", Default: 1, Min: 0.01, Max: 64, Doc: "exposure gain"},
	{Name: "gamma", Default: 0, Min: 0.2, Max: 5, ZeroOff: true, Doc: "transfer curve exponent (0: sRGB)"},
	{Name: "wbR", Default: 1, Min: 0, Max: 16, Doc: "white balance gain, red"},
	{Name: "wbG", Default: 1, Min: 0, Max: 16, Doc: "white balance gain, green"},
	{Name: "wbB", Default: 1, Min: 0, Max: 16, Doc: "white balance gain, blue"},
	{Name: "vignette", Default: 0.2, Min: 0, Max: 1, Doc: "light lost at the image corners"},
	{Name: "readNoise", Default: 0.6, Min: 0, Max: 255, Doc: "Gaussian read noise stddev, linear 0..255 units"},
	{Name: "shotNoise", Default: 1.5, Min: 0, Max: 255, Doc: "shot noise stddev at full scale, linear 0..255 units"},
	{Name: "shutterS", Unit: "s", Default: 0, Min: 0, Max: 1, Doc: "exposure time for motion blur (0: none)"},
	// Look.
	{Name: "realistic", Default: 0, Min: 0, Max: 1, Integer: true, Doc: "1: materials, sun, shadows and film (3 to 6 times the flat look's cost a frame); 0: the flat look, which leaves the film (exposure to shutterS) and the look (the rows below) unused; the lens acts in both"},
	{Name: "sunAzimuthDeg", Unit: "deg", Default: 35, Min: -360, Max: 360, Doc: "sun direction, counter-clockwise from east"},
	{Name: "sunElevationDeg", Unit: "deg", Default: 50, Min: 0, Max: 90, Doc: "sun height above the horizon"},
	{Name: "sunIntensity", Default: 0.85, Min: 0, Max: 16, Doc: "direct light on a surface facing the sun"},
	{Name: "sunR", Default: 1, Min: 0, Max: 16, Doc: "sun colour, red gain"},
	{Name: "sunG", Default: 0.96, Min: 0, Max: 16, Doc: "sun colour, green gain"},
	{Name: "sunB", Default: 0.9, Min: 0, Max: 16, Doc: "sun colour, blue gain"},
	{Name: "ambient", Default: 0.42, Min: 0, Max: 16, Doc: "sky (ambient) light"},
	{Name: "shadows", Default: 1, Min: 0, Max: 1, Integer: true, Doc: "1: elements and vehicles cast shadows"},
	{Name: "contactShadow", Default: 0.55, Min: 0, Max: 1, Doc: "darkening where walls meet the floor"},
	{Name: "lookSeed", Default: 0, Min: 0, Max: 2147483647, Integer: true, Doc: "seed of the scene's randomized textures, colours and distractors"},
	{Name: "textureSwap", Default: 0, Min: 0, Max: 1, Doc: "share of elements taking a random texture of their material's set"},
	{Name: "colorJitter", Default: 0, Min: 0, Max: 0.5, Doc: "per-element albedo jitter, ± per channel"},
	{Name: "distractors", Default: 0, Min: 0, Max: 64, Integer: true, Doc: "distractor objects on the floor off the path robots drive, spawn point to route end (drawn only)"},
}

// realisticOnly are the camera parameters only the realistic look draws with (the film's and
// the look's, from exposure on, but realistic itself): the flat look leaves them unused. The
// lens acts in both.
var realisticOnly = func() map[string]bool {
	m := map[string]bool{}
	film := false
	for _, p := range cameraRealismParams {
		film = film || p.Name == "exposure"
		if film && p.Name != "realistic" {
			m[p.Name] = true
		}
	}
	return m
}()

// CameraViewParams are the camera parameters that decide how far it sees across its frame:
// fovDeg and the lens's, its intrinsics and distortion (the realism table's rows before the
// film's); the others (clip range, film, look) do not.
var CameraViewParams = func() []string {
	names := []string{"fovDeg"}
	for _, p := range cameraRealismParams {
		if p.Name == "exposure" {
			break
		}
		names = append(names, p.Name)
	}
	return names
}()

// The camera kind's table holds them after its own parameters.
func init() {
	for i := range sensorKinds {
		if sensorKinds[i].Name == "camera" {
			sensorKinds[i].Params = append(sensorKinds[i].Params, cameraRealismParams...)
		}
	}
}
