package api

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"simgui/app/scenario"
	"simgui/app/sensors/jpegenc"
	"simgui/app/world"
	"simgui/physics"
	"simgui/plugins"
	"simgui/render"
)

// frameID is the frameId of every rusim camera frame.
const frameID = "camera/front/image_raw"

// cameraSpec is an agent's front camera as the API renders it: the vehicle's first camera
// mount, its frame size from the contract shape and the image post-processing drawn by domain
// randomization (or given as vehicle params).
type cameraSpec struct {
	mount          plugins.SensorMount
	width, height  int
	quality        int
	fovDeg         float64
	near, far      float64
	gain           [3]float64 // brightness × colour gain per channel
	noise          float64    // Gaussian stddev, 0..255 (the contract's noise)
	hasPostProcess bool
}

// newCameraSpec reads v's first camera; ok is false for a vehicle without one.
func newCameraSpec(v *plugins.VehicleDescriptor, image map[string]float64) (cameraSpec, bool) {
	var c cameraSpec
	found := false
	for _, m := range v.Sensors {
		if m.Kind != plugins.SensorCamera {
			continue
		}
		c.mount, found = m, true
		break
	}
	if !found {
		return c, false
	}
	c.width, c.height = 640, 480
	if v.Contract != nil {
		for _, s := range v.Contract.Sensors {
			if s.ID == c.mount.ID && len(s.Shape) >= 2 {
				c.height, c.width = s.Shape[0], s.Shape[1]
			}
		}
	}
	param := func(name string, def float64) float64 {
		if x, ok := c.mount.Params[name]; ok {
			return x
		}
		return def
	}
	c.fovDeg = param("fovDeg", 68)
	c.near = param("near", 0.03)
	c.far = param("far", 50)
	c.quality = int(param("jpegQuality", 84))
	b := valueOr(image, scenario.KeyBrightness, 1)
	c.gain = [3]float64{
		b * valueOr(image, scenario.KeyColorGainR, 1),
		b * valueOr(image, scenario.KeyColorGainG, 1),
		b * valueOr(image, scenario.KeyColorGainB, 1),
	}
	if v.Contract != nil {
		for _, s := range v.Contract.Sensors {
			if s.ID == c.mount.ID && s.Noise != nil {
				c.noise = s.Noise.Stddev
			}
		}
	}
	c.hasPostProcess = c.gain != [3]float64{1, 1, 1} || c.noise > 0
	return c, true
}

func valueOr(m map[string]float64, k string, def float64) float64 {
	if x, ok := m[k]; ok {
		return x
	}
	return def
}

// cameraRig renders agents' camera frames from the world it belongs to. It lives on that
// world's loop goroutine (it is used inside Loop.Call) and caches what does not change per
// frame: the static scene per layout, meshes per vehicle and box, the frame buffers.
type cameraRig struct {
	statics       *staticCache
	r             *render.Renderer
	static        *render.Static
	layoutVersion uint64
	vehicles      map[*plugins.VehicleDescriptor]*render.Mesh
	boxes         map[string]*render.Mesh
	frames        map[[2]int]*render.Frame
	objects       []render.Object
	lut           [3][256]byte
	lutGain       [3]float64
}

func newCameraRig(statics *staticCache) *cameraRig {
	return &cameraRig{
		statics:  statics,
		r:        render.NewRenderer(render.Options{}),
		vehicles: map[*plugins.VehicleDescriptor]*render.Mesh{},
		boxes:    map[string]*render.Mesh{},
		frames:   map[[2]int]*render.Frame{},
	}
}

// Close stops the renderer's helpers.
func (c *cameraRig) Close() { c.r.Close() }

// render draws what agent name's camera sees in w and appends the JPEG to dst. With
// seePeers false the other vehicles are left out (rusim's SetPeerVisibility(false)). noise is
// the agent's image-noise stream. Loop goroutine only.
func (c *cameraRig) render(dst []byte, w *world.World, name string, spec *cameraSpec, seePeers bool, noise *rand.Rand) ([]byte, error) {
	if c.static == nil || c.layoutVersion != w.LayoutVersion() {
		s, err := c.statics.get(drawableLayout(w.Layout()))
		if err != nil {
			return dst, fmt.Errorf("camera: %w", err)
		}
		c.static, c.layoutVersion = s, w.LayoutVersion()
		clear(c.boxes)
	}
	self := w.Model(name)
	if self == nil {
		return dst, fmt.Errorf("camera: no model %q", name)
	}
	c.objects = c.objects[:0]
	for _, m := range w.Models() {
		if m != self && !seePeers {
			continue
		}
		mesh, err := c.vehicleMesh(m.Vehicle)
		if err != nil {
			return dst, err
		}
		c.objects = append(c.objects, render.Object{Mesh: mesh, Pose: bodyPose(m.Body)})
	}
	if err := c.addBoxes(w); err != nil {
		return dst, err
	}
	cam := render.Camera{
		Pose:    bodyPose(self.Body).Compose(render.PoseFromPose3(spec.mount.Pose)),
		FovYDeg: spec.fovDeg, Near: spec.near, Far: spec.far, Width: spec.width, Height: spec.height,
	}
	key := [2]int{spec.width, spec.height}
	f := c.frames[key]
	if f == nil {
		f = render.NewFrame(spec.width, spec.height, true, false)
		c.frames[key] = f
	}
	if err := c.r.Render(f, cam, c.static, c.objects); err != nil {
		return dst, fmt.Errorf("camera: %w", err)
	}
	if spec.hasPostProcess {
		c.postProcess(f.RGB, spec, noise)
	}
	return jpegenc.Default().Encode(dst, f.RGB, spec.width, spec.height, 3*spec.width, spec.quality)
}

// drawableLayout returns l, or a copy with a plain floor when the renderer does not know its
// floor texture (basic_arena's "grass"): the floor keeps its colour.
func drawableLayout(l *plugins.Layout) *plugins.Layout {
	if l == nil || l.Floor.Texture == "" || slices.Contains(render.TextureNames(), l.Floor.Texture) {
		return l
	}
	c := *l
	c.Floor.Texture = ""
	return &c
}

// bodyPose is a body's pose for the renderer: on the ground (or at its altitude), upright.
func bodyPose(b *physics.Body) render.Pose {
	p := b.Pose()
	return render.Pose{X: p.X, Y: p.Y, Z: b.Base, Yaw: p.Yaw}
}

func (c *cameraRig) vehicleMesh(v *plugins.VehicleDescriptor) (*render.Mesh, error) {
	if m, ok := c.vehicles[v]; ok {
		return m, nil
	}
	m, err := render.NewVehicleMesh(render.VehicleSpecFor(v))
	if err != nil {
		return nil, fmt.Errorf("camera: vehicle %s: %w", v.ID, err)
	}
	c.vehicles[v] = m
	return m, nil
}

// addBoxes adds the movable boxes, matched to their layout elements by name.
func (c *cameraRig) addBoxes(w *world.World) error {
	boxes := w.Boxes()
	if len(boxes) == 0 {
		return nil
	}
	for _, b := range boxes {
		mesh, ok := c.boxes[b.Name]
		if !ok {
			for i := range w.Layout().Elements {
				e := &w.Layout().Elements[i]
				if e.Movable && e.Name == b.Name {
					var err error
					if mesh, err = render.NewElementMesh(e); err != nil {
						return fmt.Errorf("camera: %w", err)
					}
					break
				}
			}
			c.boxes[b.Name] = mesh // nil when unmatched: drawn as nothing
		}
		if mesh != nil {
			c.objects = append(c.objects, render.Object{Mesh: mesh, Pose: bodyPose(b)})
		}
	}
	return nil
}

// postProcess applies the gains per channel (through a lookup table) and Gaussian noise.
func (c *cameraRig) postProcess(rgb []byte, spec *cameraSpec, noise *rand.Rand) {
	if c.lutGain != spec.gain {
		for ch := range 3 {
			for v := range 256 {
				c.lut[ch][v] = clamp8(float64(v) * spec.gain[ch])
			}
		}
		c.lutGain = spec.gain
	}
	if spec.gain != [3]float64{1, 1, 1} {
		for i := 0; i+2 < len(rgb); i += 3 {
			rgb[i] = c.lut[0][rgb[i]]
			rgb[i+1] = c.lut[1][rgb[i+1]]
			rgb[i+2] = c.lut[2][rgb[i+2]]
		}
	}
	if spec.noise > 0 && noise != nil {
		for i, v := range rgb {
			rgb[i] = clamp8(float64(v) + noise.NormFloat64()*spec.noise)
		}
	}
}

func clamp8(x float64) byte {
	x = math.Round(x)
	switch {
	case x <= 0:
		return 0
	case x >= 255:
		return 255
	}
	return byte(x)
}

// staticCache shares static scenes between worlds and episodes: a track's textures take
// milliseconds to build, and every reset builds new worlds of mostly the same layouts. Keyed
// by the layout's content; safe for concurrent use (render.Static is immutable).
type staticCache struct {
	mu    sync.Mutex
	m     map[[sha256.Size]byte]*render.Static
	order [][sha256.Size]byte
}

// staticCacheSize bounds the cache: a few tracks with a few generated variants each.
const staticCacheSize = 32

func newStaticCache() *staticCache {
	return &staticCache{m: map[[sha256.Size]byte]*render.Static{}}
}

func (c *staticCache) get(l *plugins.Layout) (*render.Static, error) {
	b, err := json.Marshal(l)
	if err != nil {
		return nil, err
	}
	key := sha256.Sum256(b)
	c.mu.Lock()
	s, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		return s, nil
	}
	if s, err = render.NewStatic(l, nil); err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[key]; !ok {
		if len(c.order) >= staticCacheSize {
			delete(c.m, c.order[0])
			c.order = c.order[1:]
		}
		c.m[key] = s
		c.order = append(c.order, key)
	}
	return s, nil
}
