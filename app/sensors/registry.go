package sensors

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"simgui/app/transport/msgs"
	"simgui/plugins"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Topic kinds: the last element of a sensor topic /model/<model>/sensor/<id>/<kind> and the
// message it carries (docs/ARCHITECTURE.md).
const (
	TopicImage      = "image"       // gz.msgs.Image, RGB_INT8 (L_INT8 for one channel), rows top first
	TopicDepthImage = "depth_image" // gz.msgs.Image, R_FLOAT32 depth in metres, +Inf where nothing is hit
	TopicScan       = "scan"        // gz.msgs.LaserScan, ranges counter-clockwise from angle_min
	TopicIMU        = "imu"         // gz.msgs.IMU
	TopicScalar     = "scalar"      // gz.msgs.Float_V, the contract's shape flattened
)

// topicMessages are the topic kinds' messages.
var topicMessages = map[string]proto.Message{
	TopicImage: &msgs.Image{}, TopicDepthImage: &msgs.Image{}, TopicScan: &msgs.LaserScan{},
	TopicIMU: &msgs.IMU{}, TopicScalar: &msgs.Float_V{},
}

// TopicMessage returns the message a topic kind carries; ok is false for another kind.
func TopicMessage(kind string) (md protoreflect.MessageDescriptor, ok bool) {
	m, ok := topicMessages[kind]
	if !ok {
		return nil, false
	}
	return m.ProtoReflect().Descriptor(), true
}

// Kind is a sensor implementation, registered under the mount kind it implements
// (plugins.SensorMount.Kind: "camera", "lidar", "speedometer", ...).
type Kind struct {
	// Name is the mount kind.
	Name string
	// Topic is the kind's topic kind: TopicImage, TopicDepthImage, TopicScan, TopicIMU or
	// TopicScalar.
	Topic string
	// New builds the sensor of one mount. It runs on the loop goroutine when the model appears
	// (at start, at reset, when spawned); an error names what is wrong with the mount or its
	// contract entry.
	New func(spec *Spec) (Sensor, error)
	// Doc says in one line what the kind measures.
	Doc string
}

var (
	kindMu sync.RWMutex
	kinds  = map[string]Kind{}
)

// Register makes a sensor kind available by name. The kind's parameters, the contract types
// it fills and its values per reading are declared once, in plugins' sensor kind table
// (plugins.LookupSensorKind), which plugin validation checks mounts against. Call it from
// init; it panics when that table has no such kind, on an empty or duplicate name, a missing
// topic or a nil New.
func Register(k Kind) {
	if k.Name == "" || k.Topic == "" || k.New == nil {
		panic("sensors: Register needs a Name, a Topic and New")
	}
	if _, err := plugins.LookupSensorKind(k.Name); err != nil {
		panic("sensors: " + err.Error() + ": declare it in plugins first")
	}
	kindMu.Lock()
	defer kindMu.Unlock()
	if _, dup := kinds[k.Name]; dup {
		panic("sensors: duplicate sensor kind " + k.Name)
	}
	kinds[k.Name] = k
}

// Kinds returns the registered kinds sorted by name.
func Kinds() []Kind {
	kindMu.RLock()
	defer kindMu.RUnlock()
	out := make([]Kind, 0, len(kinds))
	for _, name := range slices.Sorted(maps.Keys(kinds)) {
		out = append(out, kinds[name])
	}
	return out
}

// LookupKind returns the kind registered under name, or an error listing the known kinds.
func LookupKind(name string) (Kind, error) {
	kindMu.RLock()
	k, ok := kinds[name]
	kindMu.RUnlock()
	if !ok {
		names := make([]string, 0)
		for _, k := range Kinds() {
			names = append(names, k.Name)
		}
		known := strings.Join(names, ", ")
		if known == "" {
			known = "none; import simgui/app/sensors/standard"
		}
		return Kind{}, fmt.Errorf("unknown sensor kind %q (known: %s)", name, known)
	}
	return k, nil
}
