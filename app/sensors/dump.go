package sensors

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"google.golang.org/protobuf/encoding/protojson"

	"simgui/app/transport/msgs"
	"simgui/safefile"
)

// StartDump writes every reading from now on into dir, which is created if needed: each
// camera and depth frame as a PNG file <model>__<sensor>__step<step>_t<simTime>s.png, with
// ep<n>_ before "step" in the n-th episode after a reset (depth
// false-coloured with Turbo from blue at the sensor's near range to red at its far range,
// black where nothing was hit), and the readings of every other sensor as JSON lines in
// <model>__<sensor>.jsonl, one line per reading:
//
//	{"episode":0,"step":12,"simTime":0.06,"model":"ego","sensor":"imu","msg":{...}}
//
// (episode counts resets since the system started) where msg is the topic message in protobuf's JSON mapping (non-finite numbers as the
// strings "Infinity", "-Infinity", "NaN"). While a dump runs, image sensors render every
// frame (none is dropped, so a slow disk slows the loop down). Call it before the loop runs or
// on the loop goroutine.
func (s *System) StartDump(dir string) error {
	made, err := safefile.MkdirAll(dir, 0o755)
	if err != nil {
		return fmt.Errorf("sensor dump: %w", err)
	}
	// A folder holding an earlier run's files would end up describing neither run: its
	// .jsonl files rewritten, its images left beside the new ones.
	if entries, err := os.ReadDir(dir); err != nil {
		safefile.RemoveMade(made)
		return fmt.Errorf("sensor dump: %w", err)
	} else if len(entries) == 1 {
		return fmt.Errorf("sensor dump: %s holds %s: give an empty or new folder", dir, entries[0].Name())
	} else if len(entries) > 1 {
		return fmt.Errorf("sensor dump: %s holds %d entries (%s, ...): give an empty or new folder", dir, len(entries), entries[0].Name())
	}
	// A folder that cannot be written (another user's, a read-only mount) is said now, not
	// at the first frame, after the run has started.
	if err := safefile.CanCreateIn(dir); err != nil {
		safefile.RemoveMade(made)
		return fmt.Errorf("sensor dump: files cannot be written in %s: %w", dir, err)
	}
	d := &dump{dir: dir, made: made, sensors: map[string]*dumpSensor{}, failed: make(chan struct{})}
	if old := s.dump.Swap(d); old != nil {
		s.Flush()
		old.close()
	}
	return nil
}

// DiscardDump stops the running dump and removes what it wrote (its JSON-lines files and
// frames) and the folders StartDump made: for a run that failed to start (a port taken),
// whose dump would otherwise be left holding its first steps, and refused as not empty when
// the same command is given again. It does nothing when no dump runs. Call it where StopDump
// may be called.
func (s *System) DiscardDump() error {
	if s.dump.Load() == nil {
		return nil
	}
	s.Flush() // no frame is still being written
	d := s.dump.Swap(nil)
	if d == nil {
		return nil
	}
	d.close() // its error is of files about to go
	return d.remove()
}

// remove deletes the files the closed dump wrote, found by its sensors' names (the folder was
// empty or new when it started, but another program may have put files there since), then
// the folders it made.
func (d *dump) remove() error {
	d.mu.Lock()
	bases := make([]string, 0, len(d.sensors))
	for _, ds := range d.sensors {
		bases = append(bases, dumpBase(ds.stat.Model, ds.stat.Sensor))
	}
	d.mu.Unlock()
	entries, err := os.ReadDir(d.dir)
	if err != nil {
		return fmt.Errorf("sensor dump: %w", err)
	}
	var errs []error
	for _, e := range entries {
		name := e.Name()
		ours := slices.ContainsFunc(bases, func(base string) bool {
			return name == base+".jsonl" || strings.HasPrefix(name, base+"__") && strings.HasSuffix(name, ".png")
		})
		if !ours || !e.Type().IsRegular() {
			continue
		}
		if err := os.Remove(filepath.Join(d.dir, name)); err != nil {
			errs = append(errs, fmt.Errorf("sensor dump: %w", err))
		}
	}
	safefile.RemoveMade(d.made)
	return errors.Join(errs...)
}

// dumpBase is the start of the names of a sensor's files in a dump.
func dumpBase(model, sensor string) string { return fileSafe(model) + "__" + fileSafe(sensor) }

// DumpFailed is closed when the running dump first fails to write (a full disk, a folder
// made unwritable): StopDump returns the error, and a run that would go on for hours writing
// nothing can stop at once. It is nil, which blocks for ever, when no dump runs.
func (s *System) DumpFailed() <-chan struct{} {
	if d := s.dump.Load(); d != nil {
		return d.failed
	}
	return nil
}

// StopDump waits for queued frames, closes the dump's files and says what was written. It
// returns an empty summary when no dump runs. Call it on the loop goroutine or after the loop
// has stopped.
func (s *System) StopDump() (DumpSummary, error) {
	if s.dump.Load() == nil {
		return DumpSummary{}, nil
	}
	s.Flush()
	d := s.dump.Swap(nil)
	if d == nil {
		return DumpSummary{}, nil
	}
	return d.close()
}

// DumpStat is what a dump wrote for one sensor.
type DumpStat struct {
	Model  string `json:"model"`
	Sensor string `json:"sensor"`
	Kind   string `json:"kind"`
	// Path is the JSON-lines file, or the pattern of the PNG files.
	Path string `json:"path"`
	// Files counts PNG files, Lines JSON lines; Bytes is their total size.
	Files int   `json:"files,omitempty"`
	Lines int   `json:"lines,omitempty"`
	Bytes int64 `json:"bytes"`
}

// DumpSummary is what a dump wrote, sensor by sensor in the order they first wrote.
type DumpSummary struct {
	Dir     string     `json:"dir"`
	Sensors []DumpStat `json:"sensors"`
}

// String says in a few lines what was written where.
func (d DumpSummary) String() string {
	if d.Dir == "" {
		return "no sensor dump"
	}
	var b strings.Builder
	files, lines, bytes := 0, 0, int64(0)
	for _, s := range d.Sensors {
		files += s.Files
		lines += s.Lines
		bytes += s.Bytes
	}
	fmt.Fprintf(&b, "sensor dump in %s: %d PNG frames, %d JSON lines, %.1f MB", d.Dir, files, lines, float64(bytes)/1e6)
	for _, s := range d.Sensors {
		if s.Files > 0 {
			fmt.Fprintf(&b, "\n  %-10s %-22s %6d PNG   %s", s.Model, s.Sensor, s.Files, s.Path)
		} else {
			fmt.Fprintf(&b, "\n  %-10s %-22s %6d lines %s", s.Model, s.Sensor, s.Lines, s.Path)
		}
	}
	return b.String()
}

type dump struct {
	dir string
	// made are the folders StartDump made (outermost first), which DiscardDump removes.
	made    []string
	mu      sync.Mutex
	sensors map[string]*dumpSensor // by topic: a sensor rebuilt at reset keeps its file
	order   []string
	err     error
	failed  chan struct{} // closed with the first error
	closed  bool
}

// dumpSensor is one sensor's part of a dump. A JSON-lines file is not kept open: its lines
// wait in buf and are appended (open, write, close) when dumpFlushBytes of them are waiting
// and when the dump ends. A fleet's dump has a file per scalar sensor, 25,000 for 5,000
// KS0223s, which held open ran into the process's open-file limit ("too many open files",
// said only when the run had ended) and kept a 64 KiB buffer each.
type dumpSensor struct {
	stat DumpStat
	buf  []byte
}

// dumpFlushBytes is how many bytes of JSON lines a sensor gathers before appending them to
// its file.
const dumpFlushBytes = 16 << 10

// flushLocked appends the waiting lines of a JSON-lines sensor to its file.
func (ds *dumpSensor) flushLocked() error {
	if len(ds.buf) == 0 {
		return nil
	}
	f, err := os.OpenFile(ds.stat.Path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return fmt.Errorf("sensor dump: %w", err)
	}
	_, err = f.Write(ds.buf)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	ds.buf = ds.buf[:0]
	if err != nil {
		return fmt.Errorf("sensor dump: %w", err)
	}
	return nil
}

// fileSafe keeps a name usable as part of a file name.
func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == os.PathSeparator || r < ' ' {
			return '_'
		}
		return r
	}, s)
}

// sensorLocked returns the bookkeeping of o, creating it (and its JSON-lines file) on first use.
func (d *dump) sensorLocked(o *Output, image bool) (*dumpSensor, error) {
	if ds, ok := d.sensors[o.Topic]; ok {
		return ds, nil
	}
	base := dumpBase(o.Model, o.Sensor)
	ds := &dumpSensor{stat: DumpStat{Model: o.Model, Sensor: o.Sensor, Kind: o.Kind}}
	if image {
		ds.stat.Path = filepath.Join(d.dir, base+"__*step*.png")
	} else {
		ds.stat.Path = filepath.Join(d.dir, base+".jsonl")
		f, err := os.Create(ds.stat.Path)
		if err != nil {
			return nil, fmt.Errorf("sensor dump: %w", err)
		}
		if err := f.Close(); err != nil {
			return nil, fmt.Errorf("sensor dump: %w", err)
		}
	}
	d.sensors[o.Topic] = ds
	d.order = append(d.order, o.Topic)
	return ds, nil
}

func (d *dump) fail(err error) {
	if d.err == nil {
		d.err = err
		close(d.failed)
	}
}

// write records one reading; called from the loop goroutine (JSON lines) and from image
// workers (PNG files).
func (d *dump) write(o *Output, r Reading) {
	if im, ok := r.Msg.(*msgs.Image); ok {
		d.writeImage(o, r, im)
		return
	}
	line, err := jsonLine(o, r)
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return
	}
	if err != nil {
		d.fail(err)
		return
	}
	ds, err := d.sensorLocked(o, false)
	if err != nil {
		d.fail(err)
		return
	}
	if ds.buf == nil {
		ds.buf = make([]byte, 0, dumpFlushBytes+len(line))
	}
	ds.buf = append(ds.buf, line...)
	ds.stat.Lines++
	ds.stat.Bytes += int64(len(line))
	if len(ds.buf) >= dumpFlushBytes {
		if err := ds.flushLocked(); err != nil {
			d.fail(err)
		}
	}
}

// jsonLine formats a reading as one compact JSON line.
func jsonLine(o *Output, r Reading) ([]byte, error) {
	m, err := protojson.Marshal(r.Msg)
	if err != nil {
		return nil, fmt.Errorf("sensor dump %s: %w", o.Topic, err)
	}
	head, _ := json.Marshal(struct {
		Episode int     `json:"episode"`
		Step    uint64  `json:"step"`
		SimTime float64 `json:"simTime"`
		Model   string  `json:"model"`
		Sensor  string  `json:"sensor"`
	}{o.Episode, r.Step, r.Stamp.Seconds(), o.Model, o.Sensor})
	var b bytes.Buffer
	b.Write(head[:len(head)-1])
	b.WriteString(`,"msg":`)
	if err := json.Compact(&b, m); err != nil { // protojson varies its spacing on purpose
		return nil, err
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}

// writeImage encodes a frame as PNG and writes it to a temporary file renamed into place, so
// that a reader never sees half a frame. Frames are not fsynced: a dump is for looking at, and
// an fsync per frame would make it crawl.
func (d *dump) writeImage(o *Output, r Reading, im *msgs.Image) {
	data, err := framePNG(o, im)
	episode := ""
	if o.Episode > 0 {
		episode = fmt.Sprintf("ep%d_", o.Episode)
	}
	name := fmt.Sprintf("%s__%sstep%08d_t%.6fs.png", dumpBase(o.Model, o.Sensor), episode, r.Step, r.Stamp.Seconds())
	path := filepath.Join(d.dir, name)
	if err == nil {
		tmp := path + ".tmp"
		if err = os.WriteFile(tmp, data, 0o644); err == nil {
			err = os.Rename(tmp, path)
		}
		if err != nil {
			// A full disk left a half-written .tmp file for every frame that failed.
			os.Remove(tmp)
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return
	}
	if err != nil {
		d.fail(fmt.Errorf("sensor dump: %w", err))
		return
	}
	ds, err := d.sensorLocked(o, true)
	if err != nil {
		d.fail(err)
		return
	}
	ds.stat.Files++
	ds.stat.Bytes += int64(len(data))
}

// framePNG encodes an image message for viewing.
func framePNG(o *Output, im *msgs.Image) ([]byte, error) {
	w, h := int(im.GetWidth()), int(im.GetHeight())
	var buf bytes.Buffer
	var err error
	switch im.GetPixelFormatType() {
	case msgs.PixelFormatType_RGB_INT8:
		var img image.NRGBA
		rgbToNRGBA(&img, im.GetData(), w, h)
		err = pngEncoder.Encode(&buf, &img)
	case msgs.PixelFormatType_L_INT8:
		err = pngEncoder.Encode(&buf, &image.Gray{Pix: im.GetData(), Stride: w, Rect: image.Rect(0, 0, w, h)})
	case msgs.PixelFormatType_R_FLOAT32:
		depth := make([]float32, w*h)
		for i := range depth {
			depth[i] = math.Float32frombits(binary.LittleEndian.Uint32(im.GetData()[4*i:]))
		}
		var img image.NRGBA
		DepthColor(&img, depth, w, h, o.DepthRange[0], o.DepthRange[1])
		err = pngEncoder.Encode(&buf, &img)
	default:
		return nil, fmt.Errorf("sensor dump %s: pixel format %v is not drawn", o.Topic, im.GetPixelFormatType())
	}
	return buf.Bytes(), err
}

// close appends the JSON lines still waiting and returns the summary.
func (d *dump) close() (DumpSummary, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	sum := DumpSummary{Dir: d.dir}
	if d.closed {
		return sum, d.err
	}
	d.closed = true
	var errs []error
	if d.err != nil {
		errs = append(errs, d.err)
	}
	for _, topic := range d.order {
		ds := d.sensors[topic]
		if err := ds.flushLocked(); err != nil {
			errs = append(errs, err)
		}
		sum.Sensors = append(sum.Sensors, ds.stat)
	}
	return sum, errors.Join(errs...)
}
