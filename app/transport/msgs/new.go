package msgs

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// ErrUnknownType is returned (wrapped) by New and Lookup for a type name no
// linked-in protobuf package registers.
var ErrUnknownType = errors.New("unknown message type")

// legacyPrefix is the package gz-msgs used before the rename to gz.msgs;
// old scenario files still say "ignition.msgs.Double".
const legacyPrefix = "ignition.msgs."

// Lookup returns the message type registered under a full name such as
// "gz.msgs.Twist". "ignition.msgs.X" is read as "gz.msgs.X". Safe for
// concurrent use.
func Lookup(typeName string) (protoreflect.MessageType, error) {
	name := typeName
	if rest, ok := strings.CutPrefix(name, legacyPrefix); ok {
		name = "gz.msgs." + rest
	}
	mt, err := protoregistry.GlobalTypes.FindMessageByName(protoreflect.FullName(name))
	if err != nil {
		return nil, fmt.Errorf("%w %q: give a full name such as gz.msgs.Double", ErrUnknownType, typeName)
	}
	return mt, nil
}

// New returns a new empty message of the full type name typeName, for example
// New("gz.msgs.Double") returns a *Double. Safe for concurrent use.
func New(typeName string) (proto.Message, error) {
	mt, err := Lookup(typeName)
	if err != nil {
		return nil, err
	}
	return mt.New().Interface(), nil
}

// NewTime converts a duration (for example a sim time) to a Time.
func NewTime(d time.Duration) *Time {
	t := new(Time)
	t.SetDuration(d)
	return t
}

// SetDuration sets t to the duration d, as NewTime converts it.
func (t *Time) SetDuration(d time.Duration) {
	t.Sec, t.Nsec = int64(d/time.Second), int32(d%time.Second)
}

// AsDuration converts t to a duration; a nil t is zero. Values beyond
// ±292 years overflow, as time.Duration does.
func (t *Time) AsDuration() time.Duration {
	if t == nil {
		return 0
	}
	return time.Duration(t.GetSec())*time.Second + time.Duration(t.GetNsec())
}
