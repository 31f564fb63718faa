package bridge

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"google.golang.org/protobuf/proto"

	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/app/world"
	"simgui/plugins"
	"simgui/render"
)

// sensorKind says how a sensor mount kind appears on CLOiSim's wire.
type sensorKind struct {
	typ DeviceType
	// reading is the last element of the sensor topic /model/<model>/sensor/<id>/<reading>.
	reading string
	// queue is the bus subscription's length: small for big frames, longer for fast IMUs.
	queue int
	// encode makes the Data frame (s.Frame and the payload) of one reading.
	encode func(d *sensorDevice, s *socket, m transport.Message) ([]byte, error)
	// info answers the kind's own Info requests (besides request_ros2 and request_transform).
	info func(d *sensorDevice, req infoRequest) proto.Message
}

// sensorKinds maps mount kinds (plugins.Sensor*) to their bridge. Other kinds (speedometer,
// line tracker, ...) have no CLOiSim device and are not served.
var sensorKinds = map[string]sensorKind{
	plugins.SensorLidar:  {typ: DeviceLaser, reading: "scan", queue: 4, encode: encodeScan, info: lidarInfo},
	plugins.SensorIMU:    {typ: DeviceIMU, reading: "imu", queue: 16, encode: encodeIMU},
	plugins.SensorCamera: {typ: DeviceCamera, reading: "image", queue: 2, encode: encodeImage, info: cameraInfo},
	plugins.SensorDepth:  {typ: DeviceDepthCamera, reading: "depth_image", queue: 2, encode: encodeImage, info: cameraInfo},
	ultrasonicKind:       {typ: DeviceSonar, reading: "scalar", queue: 4, encode: encodeSonar},
}

// ultrasonicKind is the mount kind of range sensors served as SONAR devices.
const ultrasonicKind = "ultrasonic"

// SensorTopic is the bus topic of a sensor's readings (docs/ARCHITECTURE.md, "Topics").
func SensorTopic(model, sensorID, reading string) string {
	return "/model/" + model + "/sensor/" + sensorID + "/" + reading
}

// sensorDevice is one served sensor. Its parts name (the sanitised sensor id) is also its
// ROS topic name and frame id.
type sensorDevice struct {
	b        *Bridge
	kind     sensorKind
	model    string
	parts    string
	mount    plugins.SensorMount
	contract *plugins.SensorDescriptor // nil if the contract does not list the sensor

	mu         sync.Mutex
	w, h       uint32 // last frame size (cameras); from the contract until a frame arrives
	lensWarned bool   // the lens CameraSensor cannot carry was logged
}

// openSensor opens a sensor's Info (REP) and Data (PUB) ports and its forwarder.
func (b *Bridge) openSensor(m world.ModelState, mount plugins.SensorMount, kind sensorKind) (*node, error) {
	d := &sensorDevice{b: b, kind: kind, model: m.Name, parts: partsName(mount.ID), mount: mount}
	if c := m.Vehicle.Contract; c != nil {
		for i := range c.Sensors {
			if c.Sensors[i].ID == mount.ID {
				d.contract = &c.Sensors[i]
			}
		}
	}
	d.w, d.h = d.contractSize()
	n, err := b.openNode(kind.typ, rosName(m.Name), d.parts,
		channel{key: "Info", kind: kindRep, h: handlers{onRequest: serveInfo(d.info)}},
		channel{key: "Data", kind: kindPub})
	if err != nil {
		return nil, err
	}
	s := n.socks["Data"]
	topic := SensorTopic(m.Name, mount.ID, kind.reading)
	n.run(func() {
		b.forward(n, s, topic, kind.queue, func(msg transport.Message, emit func([]byte)) error {
			frame, err := kind.encode(d, s, msg)
			if err == nil {
				emit(frame)
			}
			return err
		})
	})
	return n, nil
}

// contractSize is the image size the contract gives (shape [height, width, ...]), the default
// if it gives none.
func (d *sensorDevice) contractSize() (w, h uint32) {
	if w, h, ok := d.contract.FrameSize(); ok {
		return uint32(w), uint32(h)
	}
	return plugins.DefaultFrameWidth, plugins.DefaultFrameHeight
}

// info answers request_ros2 and request_transform for every kind and hands the rest to the
// kind.
func (d *sensorDevice) info(req infoRequest) proto.Message {
	switch req.name {
	case reqROS2:
		return ros2Reply(d.parts, d.parts)
	case reqTransform:
		return transformReply(mountPose(d.parts, d.mount.Pose), "base_link")
	}
	if d.kind.info != nil {
		return d.kind.info(d, req)
	}
	return nil
}

// param returns a mount parameter, or the kind's documented default.
func (d *sensorDevice) param(name string) float64 {
	if v, ok := d.mount.Params[name]; ok {
		return v
	}
	specs, _ := plugins.SensorParams(d.mount.Kind)
	for _, s := range specs {
		if s.Name == name {
			return s.Default
		}
	}
	return 0
}

func lidarInfo(_ *sensorDevice, req infoRequest) proto.Message {
	if req.name == reqOutputType {
		return param("output_type", anyString("LaserScan"))
	}
	return nil
}

// cameraInfo answers request_camera_info with a bare CameraSensor. Mounts give the vertical
// field of view; CameraSensor wants the horizontal one, which follows from the aspect ratio.
// A camera's lens goes as cloisim_ros reads it back: the horizontal field of view its fx
// gives (fx = fy = width / (2 tan(hfov/2))) and plumb_bob's k1, k2, k3, p1, p2.
func cameraInfo(d *sensorDevice, req infoRequest) proto.Message {
	if req.name != reqCameraInfo {
		return nil
	}
	d.mu.Lock()
	w, h := d.w, d.h
	d.mu.Unlock()
	vfov := d.param("fovDeg") * math.Pi / 180
	hfov := 2 * math.Atan(math.Tan(vfov/2)*float64(w)/float64(h))
	near, far := d.param("near"), d.param("far")
	cs := &msgs.CameraSensor{
		HorizontalFov: hfov,
		ImageSize:     &msgs.Vector2D{X: float64(w), Y: float64(h)},
		NearClip:      near,
		FarClip:       far,
		PixelFormat:   msgs.PixelFormatType_RGB_INT8,
	}
	if d.kind.typ == DeviceDepthCamera {
		cs.IsDepthCamera = true
		cs.PixelFormat = msgs.PixelFormatType_R_FLOAT32
		cs.DepthNearClip = &msgs.Double{Data: near}
		cs.DepthFarClip = &msgs.Double{Data: far}
		return cs
	}
	cam, _, err := render.MountCamera(d.mount.Params, int(w), int(h), nil)
	if err != nil {
		return cs
	}
	fx, fy, cx, cy := cam.Intrinsics()
	cs.HorizontalFov = 2 * math.Atan(float64(w)/(2*fx))
	l := cam.Lens
	if l.Model == render.PlumbBob {
		cs.Distortion = &msgs.Distortion{Center: &msgs.Vector2D{X: (cx + 0.5) / float64(w), Y: (cy + 0.5) / float64(h)},
			K1: l.K1, K2: l.K2, K3: l.K3, P1: l.P1, P2: l.P2}
	}
	// What the message cannot carry: ROS's CameraInfo would silently be another camera's.
	var lost []string
	if math.Abs(fx-fy) > 1e-9*fx {
		lost = append(lost, fmt.Sprintf("fx %g ≠ fy %g", fx, fy))
	}
	if math.Abs(cx-float64(w-1)/2) > 0.5 || math.Abs(cy-float64(h-1)/2) > 0.5 {
		lost = append(lost, fmt.Sprintf("a principal point (%g, %g) off the centre", cx, cy))
	}
	if l.Model == render.Equidistant {
		lost = append(lost, "the equidistant (fisheye) model")
	}
	d.mu.Lock()
	warn := len(lost) > 0 && !d.lensWarned
	d.lensWarned = d.lensWarned || warn
	d.mu.Unlock()
	if warn {
		d.b.log.Warn("bridge: CLOiSim's camera info cannot carry this lens; ROS gets a centred plumb_bob camera of the same fx",
			"model", d.model, "sensor", d.mount.ID, "lost", strings.Join(lost, "; "))
	}
	return cs
}

var errWrongType = errors.New("unexpected message type")

// encodeSonar turns an ultrasonic reading (Float_V with the range in metres) into CLOiSim's
// Sonar, which cloisim_ros_range publishes as sensor_msgs/Range: range_min and range_max from
// the mount, radius the cone's opening in radians (the Range message's field of view).
func encodeSonar(d *sensorDevice, s *socket, m transport.Message) ([]byte, error) {
	sn, err := d.sonar(m)
	if err != nil {
		return nil, err
	}
	return s.frameOf(sn)
}

// sonar builds the Sonar message of an ultrasonic reading.
func (d *sensorDevice) sonar(m transport.Message) (*msgs.Sonar, error) {
	in, ok := m.Msg.(*msgs.Float_V)
	if !ok || len(in.GetData()) == 0 {
		return nil, fmt.Errorf("%w %s on an ultrasonic topic", errWrongType, m.Type)
	}
	header := in.GetHeader()
	if header == nil {
		header = &msgs.Header{Stamp: msgs.NewTime(m.Stamp)}
	}
	return &msgs.Sonar{
		Header: header, Frame: d.parts, WorldPose: d.worldPose(),
		RangeMin: d.param("rangeMin"), RangeMax: d.param("rangeMax"),
		Radius: d.param("coneDeg") * math.Pi / 180, Range: float64(in.GetData()[0]),
	}, nil
}

// worldPose is where the mount is in the served world now, from its latest snapshot, as the
// lidar gives its world_pose: the position and the heading (a rotation about z); nil when
// the model is not in the world.
func (d *sensorDevice) worldPose() *msgs.Pose {
	m, ok := d.b.source().Snapshot().Model(d.model)
	if !ok {
		return nil
	}
	p, mp := m.Pose, d.mount.Pose
	s, c := math.Sincos(p.Yaw)
	qz, qw := math.Sincos((p.Yaw + mp.YawDeg*math.Pi/180) / 2)
	return &msgs.Pose{
		Position:    &msgs.Vector3D{X: p.X + c*mp.X - s*mp.Y, Y: p.Y + s*mp.X + c*mp.Y, Z: p.Z + mp.Z},
		Orientation: &msgs.Quaternion{Z: qz, W: qw},
	}
}

// encodeScan writes a LaserScan as CLOiSim does: misses and hits nearer than range_min (+Inf
// and −Inf here) as NaN, as CLOiSim writes every range outside min..max, intensities as
// long as ranges (cloisim_ros indexes both alike), count and vertical_count filled in, frame
// named after the device (the ROS frame id cloisim_ros announces for it).
func encodeScan(d *sensorDevice, s *socket, m transport.Message) ([]byte, error) {
	in, ok := m.Msg.(*msgs.LaserScan)
	if !ok {
		return nil, fmt.Errorf("%w %s on a lidar topic", errWrongType, m.Type)
	}
	out := &msgs.LaserScan{
		Header: in.Header, WorldPose: in.WorldPose,
		AngleMin: in.AngleMin, AngleMax: in.AngleMax, AngleStep: in.AngleStep,
		RangeMin: in.RangeMin, RangeMax: in.RangeMax, Count: in.Count,
		VerticalAngleMin: in.VerticalAngleMin, VerticalAngleMax: in.VerticalAngleMax,
		VerticalAngleStep: in.VerticalAngleStep, VerticalCount: in.VerticalCount,
		Ranges:      make([]float64, len(in.Ranges)),
		Intensities: make([]float64, len(in.Ranges)),
	}
	if out.Header == nil {
		out.Header = &msgs.Header{Stamp: msgs.NewTime(m.Stamp)}
	}
	out.Frame = d.parts
	if out.VerticalCount == 0 {
		out.VerticalCount = 1
	}
	if out.Count == 0 {
		out.Count = uint32(len(in.Ranges)) / out.VerticalCount
	}
	nan := math.NaN()
	for i, r := range in.Ranges {
		if math.IsInf(r, 0) {
			r = nan
		}
		out.Ranges[i] = r
	}
	n := copy(out.Intensities, in.Intensities)
	for i := n; i < len(out.Intensities); i++ {
		out.Intensities[i] = nan
	}
	return s.frameOf(out)
}

// encodeIMU passes the reading through, stamped and named after the device if the sensor
// left those empty.
func encodeIMU(d *sensorDevice, s *socket, m transport.Message) ([]byte, error) {
	in, ok := m.Msg.(*msgs.IMU)
	if !ok {
		return nil, fmt.Errorf("%w %s on an IMU topic", errWrongType, m.Type)
	}
	if in.Header == nil || in.EntityName == "" {
		c := &msgs.IMU{
			Header: in.Header, EntityName: in.EntityName, Orientation: in.Orientation,
			OrientationCovariance: in.OrientationCovariance, AngularVelocity: in.AngularVelocity,
			AngularVelocityCovariance: in.AngularVelocityCovariance, LinearAcceleration: in.LinearAcceleration,
			LinearAccelerationCovariance: in.LinearAccelerationCovariance,
		}
		if c.Header == nil {
			c.Header = &msgs.Header{Stamp: msgs.NewTime(m.Stamp)}
		}
		if c.EntityName == "" {
			c.EntityName = d.parts
		}
		in = c
	}
	return s.frameOf(in)
}

// encodeImage writes a camera or depth frame as RAWI and remembers its size for
// request_camera_info.
func encodeImage(d *sensorDevice, s *socket, m transport.Message) ([]byte, error) {
	img, ok := m.Msg.(*msgs.Image)
	if !ok {
		return nil, fmt.Errorf("%w %s on an image topic", errWrongType, m.Type)
	}
	out, err := appendRAWI(s.Frame(RAWIHeaderSize+len(img.GetData())), stampOf(img.GetHeader(), m.Stamp), img)
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	d.w, d.h = img.GetWidth(), img.GetHeight()
	d.mu.Unlock()
	return out, nil
}

// looper is a Source that runs work on its world's loop (a *world.Loop).
type looper interface {
	Do(fn func(w *world.World)) error
}

// forward feeds a PUB port from a topic of the node's bus while a client subscribes to the
// port: the topic is subscribed only then, so sensors that render only for subscribers
// (cameras) do no work for nobody. encode turns one message into frames, passing each to emit.
// The bus subscription's bounded queue drops its oldest reading if encoding falls behind; the
// socket never blocks. While the world's sim time stands still (paused, or a lockstep world
// nobody steps), the last frames are sent again every KeepAlive, so that clients which end
// themselves after a few seconds of silence stay up; a client that subscribed meanwhile gets
// the world's newest reading first (World.Republish).
func (b *Bridge) forward(n *node, s *socket, topic string, queue int, encode func(m transport.Message, emit func([]byte)) error) {
	b.forwardOr(n, s, topic, queue, encode, nil)
}

// forwardOr is forward with a frame for a port whose topic has nothing to send (idle, nil:
// none): sent to a subscribed client every KeepAlive while the topic has sent nothing, time
// running or not, as CLOiSim's micom sends an empty transform to a model without links.
func (b *Bridge) forwardOr(n *node, s *socket, topic string, queue int, encode func(m transport.Message, emit func([]byte)) error, idle func() ([]byte, error)) {
	var sub *transport.Subscription
	defer func() {
		if sub != nil {
			sub.Close()
		}
	}()
	// Checked four times per KeepAlive, so the silence never lasts much longer than KeepAlive.
	keep := time.NewTicker(b.opts.KeepAlive / 4)
	defer keep.Stop()
	var (
		last    [][]byte // the frames of the last message
		lastAt  time.Time
		simTick time.Duration // the world's sim time at the previous keep-alive tick
	)
	collect := func(f []byte) { last = append(last, f); s.Publish(f) }
	warned := false
	asked := false // for a reading while time stands still, since the subscription began
	for {
		var in <-chan transport.Message
		if sub != nil {
			in = sub.C()
		}
		select {
		case <-n.done:
			return
		case <-s.Demand():
			switch want := s.Subscribed(); {
			case want && sub == nil:
				sub = n.bus.Subscribe(topic, transport.WithQueueLen(queue))
				asked = false
				lastAt = time.Now() // an idle frame only after KeepAlive without one
			case !want && sub != nil:
				sub.Close()
				sub = nil
			}
		case m, ok := <-in:
			if !ok { // the bus closed
				sub = nil
				continue
			}
			last = last[:0]
			if err := encode(m, collect); err != nil && !warned {
				b.log.Warn("bridge: cannot forward reading", "topic", topic, "err", err)
				warned = true
			}
			lastAt = time.Now()
		case now := <-keep.C:
			// Sim time that has not moved since the previous check stands still.
			sim := b.source().Snapshot().SimTime
			still := sim == simTick
			simTick = sim
			if sub != nil && len(last) == 0 && idle != nil && now.Sub(lastAt) >= b.opts.KeepAlive {
				if f, err := idle(); err == nil {
					s.Publish(f)
					lastAt = now
				}
				continue
			}
			if sub != nil && len(last) == 0 && still && !asked {
				// Nothing to repeat: no step has published since the client came. The world
				// publishes what it has at once (world.Republisher), once per subscription.
				asked = true
				if l, ok := b.source().(looper); ok {
					l.Do(func(w *world.World) { w.Republish(topic) })
				}
			}
			if sub == nil || len(last) == 0 || now.Sub(lastAt) < b.opts.KeepAlive || !still {
				continue
			}
			for _, f := range last {
				s.Publish(f)
			}
			lastAt = now
		}
	}
}
