// Package render is simgui's software 3D renderer: it draws what a camera sees — a track, its
// floor and sky, vehicles and markers — into an RGB image and a depth image, with no GPU and no
// display, deterministically, spread over a fixed pool of goroutines. Camera sensors use it,
// and so do the window's 3D chase view and the editor's preview, so a person sees what a
// camera sees.
//
// # Usage
//
//	static, err := render.NewStatic(&layout, nil) // once per track layout
//	ks, err := render.NewVehicleMesh(render.VehicleSpec{Shape: "ks0223"}) // once per vehicle
//	r := render.NewRenderer(render.Options{Workers: 1})
//	defer r.Close()
//	cam := render.Camera{Pose: body.Compose(mount), FovYDeg: 68, Near: 0.03, Far: 50, Width: 84, Height: 84}
//	frame := render.NewFrame(84, 84, true, true)
//	err = r.Render(frame, cam, static, []render.Object{{Mesh: ks, Pose: body}})
//
// # Scene
//
// A Static holds what does not move: the floor rectangle (z = 0, a procedural texture by name
// — plywood, carpet, tile, checker — or a plain colour), the ground plane beyond it, the sky,
// one directional light, and every non-movable plugins.Element as lit world-frame triangles.
// Element kinds: wall and box (Length along YawDeg, Width across, Height up from Z), cylinder
// (Radius, Height), polygon (Points extruded from Z to Z+Height; flat on the floor when Height
// is 0), road (a strip of Width along Points, with round joints), marker (a square tag of side
// Length: upright at centre height Z > 0 facing YawDeg, 1 mm proud of a wall, or flat on the
// floor when Z = 0, 2 mm up). Flat roads and polygons lie 1 to 1.9 mm above Z, each over the
// ones listed before it where they overlap (a tape line over its road), as the editor's
// top-down view draws them and the window's draws roads. Vehicles ("ks0223", "car", "drone", "box"; others
// can be registered), movable boxes (NewElementMesh) and markers (MeshBuilder: Sphere, Box,
// Segment) are Meshes drawn each frame as Objects at a Pose.
//
// # Looks
//
// The flat look (Environment.Realistic false, DefaultEnvironment) is Lambert plus ambient, flat
// per face, no textures on walls, no shadows: static faces are lit once when the Static is
// built, objects' faces each frame.
//
// The realistic look (RealisticEnvironment, or a camera mount's parameters through
// MountCamera) draws in linear light:
//   - Materials: every element has a texture mapped in metres along its faces (Material,
//     RegisterMaterial; built in: cardboard, painted_wood, concrete, brick, tape and the floor
//     textures, each a set of variants), mip-mapped like the floor; a track's own materials
//     are PNG images in its archive (plugins.Material, DecodePNGTexture); vehicles name a
//     material for their main and accent parts.
//   - Light: one sun (direction, colour, intensity), ambient sky light and the sky. The static
//     scene's shadows come from a shadow map built once per Static (a depth map along the
//     sun, texels of 4 mm or more) and are baked where they fall on static surfaces: into
//     the floor's light map and, on each element face another element may shadow, into a
//     grid over the face, both filtered over 3×3 texels, so a static pixel looks no shadow
//     up. A moving caster (a vehicle, a pushable box) whose shadow is in view throws it on
//     the floor as a planar projected shadow: the hulls of its convex parts projected along
//     the sun, rasterized in screen space into a mask of 16 samples a pixel (exact on the
//     plane, its edges antialiased); on triangles (walls, vehicles, its own parts) through a
//     small shadow map drawn each frame with texels about a pixel at its distance, looked up
//     where a run of pixels' light-space box meets the map and lies deeper than the caster.
//     The floor's contact shadow (ambient occlusion) comes from the distance to the foot of
//     whatever stands on it, baked with its light; walls darken towards their foot the same
//     way.
//   - Randomization (Environment.Seed, TextureSwap, ColorJitter, Distractors): each element's
//     texture variant, colour and texture offset, and distractor objects on the floor away
//     from the route, drawn from the seed. With no swap, jitter or distractors the seed is
//     not used: texture offsets then follow the element alone, and looks differing only in
//     the seed are one scene.
//
// A Camera's Lens gives OpenCV intrinsics and distortion (plumb_bob, equidistant): a distorted
// frame is drawn as a pinhole image covering what the lens sees and resampled bilinearly
// through the inverse distortion, which maps 3-D points where OpenCV's projectPoints and
// fisheye.projectPoints do (tested against python3-opencv). Its Film exposes the linear light
// (exposure, white balance), blurs it over the shutter time along the camera's motion,
// vignettes, clips, adds Gaussian read noise and shot noise seeded by Camera.Seed, and encodes
// it (sRGB or a gamma). A camera with a lens or film draws a flat Static the realistic way
// too, with its baked colours as light.
//
// # Frames and units
//
// World frame as in docs/ARCHITECTURE.md: x east, y north, z up, metres. A Pose's rotation is
// Rz(Yaw)·Ry(Pitch)·Rx(Roll) in radians about the body's axes x forward, y left, z up (REP-103):
// positive Pitch looks DOWN, positive Roll lowers the right side. A camera looks along its
// forward axis; the KS0223 camera "pitched 6° down" has Pitch = +6° (in radians). The image has
// row 0 at the top and column 0 at the left; see Camera for the projection. Depth is planar
// (along the optical axis) in metres, float32, +Inf where nothing is hit within Far.
//
// # How it draws
//
// Per frame, serially: the camera's frustum culls whole elements (boxes) and objects
// (spheres); vertices go to the camera frame; back faces and triangles outside one frustum
// plane are dropped; triangles crossing the near or far plane are clipped; the rest are
// projected and queued. Then bands of 16 rows are drawn by the pool, each band completely:
// triangles scanned row by row with a 1/depth buffer (1/depth is affine in screen space, so
// interpolating it is perspective-correct), then the floor, ground and sky behind them, which
// pass also turns 1/depth into metres. The floor is not triangles: each row is ray-cast
// against z = 0, and with a camera that does not roll the hit point moves linearly along a row
// ("mode 7"), so a floor pixel costs a texel fetch from the mip level matching the row's
// footprint. Vehicles are culled part by part (a wheel, a plate), so the vehicle carrying the
// camera costs little, and a far vehicle is drawn (and casts its shadow) with fewer facets on
// its round parts, as many as keep them within 0.4 pixel of the full mesh on screen (lod.go):
// a fleet's far robots cost a fraction of their full triangle count.
//
// The realistic look takes shortcuts that keep its pixels what the long way gives, each held
// to it by a test (shortcut_test.go): a textured pixel reflects its light through tables per
// light (the ambient term times the contact shadow, plus the sun's times its share past the
// shadows); a floor magnified so that a texel spans two pixels or more is sampled every
// 2nd, 4th or 8th pixel and interpolated between; rows keep the columns triangles reached,
// so the floor and sky beyond them take no depth test; a distorted frame's output rows are
// resampled and developed in one pass, by one goroutine as soon as the rows of the drawing
// they read are drawn. That pass, and the film's pass of a frame without a lens, is most of
// such a frame's work, and on amd64 it is written in assembly: a scalar loop
// (lensrow_amd64.s) and, where the CPU has AVX-512, kernels 8 pixels a round
// (lensrow8_amd64.s) that blend the taps with loads and permutes and leave the film's table
// lookups to scalar loads, twice as fast. The Go loops stay the reference each kernel must
// equal byte for byte (a seed's frames do not depend on the CPU) and the loops elsewhere.
//
// Speed is measured by the benchmarks registered with simgui/app/bench (render/rgb/...,
// render/rgbd/..., render/depth/..., render/real/... for the realistic look against the flat
// one), also run by go test -bench Render.
//
// # Determinism and concurrency
//
// The same inputs give byte-identical output whatever the number of workers: the triangle
// queue is built in one goroutine in input order, and every row is computed from the queue by
// the same arithmetic whichever worker draws it (no value is carried from one row to the
// next); the film's noise of a row is seeded by the frame's seed and the row's index. Static, Mesh and Texture are immutable and safe to share. A Renderer renders one frame
// at a time; use one per goroutine that renders.
package render
