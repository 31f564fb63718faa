package window

import (
	"encoding/binary"
	"fmt"
	"math"
	"sync"
	"time"

	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/plugins"
)

// Sensor topics, as app/sensors publishes them (docs/ARCHITECTURE.md).
func imageTopic(model, sensor string) string {
	return "/model/" + model + "/sensor/" + sensor + "/image"
}
func depthTopic(model, sensor string) string {
	return "/model/" + model + "/sensor/" + sensor + "/depth_image"
}
func scanTopic(model, sensor string) string { return "/model/" + model + "/sensor/" + sensor + "/scan" }
func scalarTopic(model, sensor string) string {
	return "/model/" + model + "/sensor/" + sensor + "/scalar"
}

// sensorUltrasonic is the kind of the range sensors whose readings the window shows.
const sensorUltrasonic = "ultrasonic"

// frame is a camera image converted for display: RGBA, rows top first.
type frame struct {
	W, H  int
	Pix   []byte
	Stamp time.Duration
}

// scan is a lidar reading with the sensor pose it was taken from (world frame).
type scan struct {
	sensor                   string
	x, y, yaw                float64
	angleMin, step, rangeMax float64
	ranges                   []float64
	// hasPose says the reading carried its world pose; otherwise the window places it at the
	// sensor's mount on the robot as it is now.
	hasPose bool
}

// feed receives one sensor topic on its own goroutine and keeps the newest reading converted
// for display, with the rate readings arrive at.
type feed struct {
	Sensor string // sensor id
	Kind   string // camera, depth or lidar
	Topic  string
	far    float64 // depth: the distance drawn black, metres

	sub  *transport.Subscription
	done chan struct{}

	mu     sync.Mutex
	latest *frame // not yet taken
	spare  []byte // a shown frame's pixels, for reuse
	scan   *scan
	value  float64 // the newest scalar reading (a range, metres); NaN before the first
	meter  rateMeter
	frames uint64
	err    string
	stamp  time.Duration // the newest reading's sim time (any kind), when frames > 0
}

// openFeed subscribes to topic and starts converting. Close it with close.
func openFeed(bus *transport.Bus, sensor, kind, topic string, far float64) *feed {
	f := &feed{Sensor: sensor, Kind: kind, Topic: topic, far: far, done: make(chan struct{}), value: math.NaN(),
		sub: bus.Subscribe(topic, transport.WithQueueLen(2))}
	go f.run()
	return f
}

func (f *feed) run() {
	defer close(f.done)
	for m := range f.sub.C() {
		now := time.Now()
		f.mu.Lock()
		f.stamp = m.Stamp
		f.mu.Unlock()
		switch msg := m.Msg.(type) {
		case *msgs.Image:
			fr, err := convertImage(msg, f.far, f.buffer())
			f.mu.Lock()
			if err != nil {
				f.err = err.Error()
			} else {
				fr.Stamp = m.Stamp
				f.latest, f.err = fr, ""
			}
			f.frames++
			f.meter.add(now)
			f.mu.Unlock()
		case *msgs.LaserScan:
			sc := convertScan(msg)
			sc.sensor = f.Sensor
			f.mu.Lock()
			f.scan = sc
			f.frames++
			f.meter.add(now)
			f.mu.Unlock()
		case *msgs.Float_V:
			if d := msg.GetData(); len(d) > 0 {
				f.mu.Lock()
				f.value = float64(d[0])
				f.frames++
				f.meter.add(now)
				f.mu.Unlock()
			}
		}
	}
}

// buffer returns pixels to convert the next frame into: those of a frame the game has not
// taken (it is superseded) or of one it has shown.
func (f *feed) buffer() []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.latest != nil {
		b := f.latest.Pix
		f.latest = nil
		return b
	}
	b := f.spare
	f.spare = nil
	return b
}

// recycle gives back the pixels of a frame the game has uploaded.
func (f *feed) recycle(b []byte) {
	f.mu.Lock()
	f.spare = b
	f.mu.Unlock()
}

// next returns the newest frame not yet returned, or nil.
func (f *feed) next() *frame {
	f.mu.Lock()
	defer f.mu.Unlock()
	fr := f.latest
	f.latest = nil
	return fr
}

// status returns the frames received, the rate in Hz of wall time and the last error.
func (f *feed) status(now time.Time) (frames uint64, hz float64, err string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.frames, f.meter.rate(now), f.err
}

// readingAt returns the sim time of the newest reading; ok is false before the first.
func (f *feed) readingAt() (at time.Duration, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.stamp, f.frames > 0
}

// lastValue returns the newest scalar reading, NaN before the first.
func (f *feed) lastValue() float64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.value
}

// lastScan returns the newest lidar scan.
func (f *feed) lastScan() *scan {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.scan
}

func (f *feed) close() {
	f.sub.Close()
	<-f.done
}

// rateMeter measures how often something happens, over the last two seconds of wall time. It
// counts events in slots of a tenth of a second rather than keeping their times: a busy machine
// hands a feed its backlog of frames at once, and the times of the newest few would then give
// the rate of the burst (tens of kHz for a training env's camera) instead of the stream's.
type rateMeter struct {
	count [rateSlots]int       // events of each slot (time / rateSlot, modulo rateSlots)
	first [rateSlots]time.Time // its earliest event
	last  time.Time            // the newest event
}

const (
	rateWindow = 2 * time.Second
	rateSlot   = rateWindow / 20
	rateSlots  = 21 // the window's slots and the one being filled
)

func (r *rateMeter) add(t time.Time) {
	s := t.UnixNano() / int64(rateSlot)
	i := int(s % rateSlots)
	if r.count[i] == 0 || r.first[i].UnixNano()/int64(rateSlot) != s { // an older slot's
		r.count[i], r.first[i] = 0, t
	}
	r.count[i]++
	r.last = t
}

// rate is events per second from the first to the newest of those in the last 2 s; 0 when
// fewer than two.
func (r *rateMeter) rate(now time.Time) float64 {
	count := 0
	var first time.Time
	for i, n := range r.count {
		if n == 0 || now.Sub(r.first[i]) > rateWindow {
			continue
		}
		count += n
		if first.IsZero() || r.first[i].Before(first) {
			first = r.first[i]
		}
	}
	if count < 2 || !r.last.After(first) || now.Sub(r.last) > rateWindow {
		return 0
	}
	return float64(count-1) / r.last.Sub(first).Seconds()
}

// convertImage turns a gz.msgs.Image into RGBA for display, reusing buf when it is the right
// size. Depth (R_FLOAT32, metres) is drawn grey, near white, far (and +Inf) black.
func convertImage(m *msgs.Image, far float64, buf []byte) (*frame, error) {
	w, h := int(m.GetWidth()), int(m.GetHeight())
	if w <= 0 || h <= 0 || w > 8192 || h > 8192 {
		return nil, fmt.Errorf("bad image size %d×%d", w, h)
	}
	format := m.GetPixelFormatType()
	bpp := map[msgs.PixelFormatType]int{
		msgs.PixelFormatType_RGB_INT8: 3, msgs.PixelFormatType_BGR_INT8: 3,
		msgs.PixelFormatType_RGBA_INT8: 4, msgs.PixelFormatType_BGRA_INT8: 4,
		msgs.PixelFormatType_L_INT8: 1, msgs.PixelFormatType_R_FLOAT32: 4,
	}[format]
	if bpp == 0 {
		return nil, fmt.Errorf("pixel format %s is not shown", format)
	}
	step := int(m.GetStep())
	if step == 0 {
		step = w * bpp
	}
	data := m.GetData()
	if step < w*bpp || len(data) < step*(h-1)+w*bpp {
		return nil, fmt.Errorf("image %d×%d %s: %d bytes of data, step %d", w, h, format, len(data), step)
	}
	if len(buf) != 4*w*h {
		buf = make([]byte, 4*w*h)
	}
	if far <= 0 {
		far = 10
	}
	for y := range h {
		row := data[y*step:]
		out := buf[4*w*y : 4*w*(y+1)]
		switch format {
		case msgs.PixelFormatType_RGB_INT8:
			for x := range w {
				out[4*x], out[4*x+1], out[4*x+2], out[4*x+3] = row[3*x], row[3*x+1], row[3*x+2], 255
			}
		case msgs.PixelFormatType_BGR_INT8:
			for x := range w {
				out[4*x], out[4*x+1], out[4*x+2], out[4*x+3] = row[3*x+2], row[3*x+1], row[3*x], 255
			}
		case msgs.PixelFormatType_RGBA_INT8:
			for x := range w {
				out[4*x], out[4*x+1], out[4*x+2], out[4*x+3] = row[4*x], row[4*x+1], row[4*x+2], 255
			}
		case msgs.PixelFormatType_BGRA_INT8:
			for x := range w {
				out[4*x], out[4*x+1], out[4*x+2], out[4*x+3] = row[4*x+2], row[4*x+1], row[4*x], 255
			}
		case msgs.PixelFormatType_L_INT8:
			for x := range w {
				out[4*x], out[4*x+1], out[4*x+2], out[4*x+3] = row[x], row[x], row[x], 255
			}
		case msgs.PixelFormatType_R_FLOAT32:
			for x := range w {
				d := float64(math.Float32frombits(binary.LittleEndian.Uint32(row[4*x:])))
				v := uint8(0)
				if d > 0 && d < far {
					v = uint8(255 * (1 - math.Sqrt(d/far)))
				}
				out[4*x], out[4*x+1], out[4*x+2], out[4*x+3] = v, v, v, 255
			}
		}
	}
	return &frame{W: w, H: h, Pix: buf}, nil
}

// convertScan keeps what drawing a scan needs.
func convertScan(m *msgs.LaserScan) *scan {
	sc := &scan{angleMin: m.GetAngleMin(), step: m.GetAngleStep(), rangeMax: m.GetRangeMax(), ranges: m.GetRanges()}
	if sc.step == 0 && len(sc.ranges) > 1 {
		sc.step = (m.GetAngleMax() - m.GetAngleMin()) / float64(len(sc.ranges)-1)
	}
	if p := m.GetWorldPose(); p != nil && p.GetPosition() != nil {
		q := p.GetOrientation()
		sc.x, sc.y = p.GetPosition().GetX(), p.GetPosition().GetY()
		sc.yaw = math.Atan2(2*(q.GetW()*q.GetZ()+q.GetX()*q.GetY()), 1-2*(q.GetY()*q.GetY()+q.GetZ()*q.GetZ()))
		sc.hasPose = true
	}
	return sc
}

// feedsFor lists the feeds a robot offers: its cameras and depth cameras (panels), its range
// sensors (readings in the HUD and on the frusta), and its lidars (rays) when lidar is true.
func feedsFor(model string, d *plugins.VehicleDescriptor, lidar bool) []feedSpec {
	var out []feedSpec
	if d == nil {
		return nil
	}
	for _, s := range d.Sensors {
		switch s.Kind {
		case plugins.SensorCamera:
			out = append(out, feedSpec{s.ID, s.Kind, imageTopic(model, s.ID), 0})
		case plugins.SensorDepth:
			out = append(out, feedSpec{s.ID, s.Kind, depthTopic(model, s.ID), s.Param("far")})
		case sensorUltrasonic:
			out = append(out, feedSpec{s.ID, s.Kind, scalarTopic(model, s.ID), 0})
		case plugins.SensorLidar:
			if lidar {
				out = append(out, feedSpec{s.ID, s.Kind, scanTopic(model, s.ID), 0})
			}
		}
	}
	return out
}

type feedSpec struct {
	sensor, kind, topic string
	far                 float64
}
