package record

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/foxglove/mcap/go/mcap"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"

	"simgui/safefile"
)

// Message is one recorded message.
type Message struct {
	Topic string
	// Type is the schema name, a full protobuf message name such as "gz.msgs.Twist".
	Type     string
	Sequence uint32
	// LogTime is when the recorder wrote it, on the file's clock (which never goes back);
	// PublishTime is the sim-time stamp the message was published with.
	LogTime, PublishTime time.Duration
	// Data is the protobuf encoding.
	Data []byte
}

// Recording is what ReadFile found in a file.
type Recording struct {
	// Messages in file order.
	Messages []Message
	// Schemas maps a message type to its schema data (a serialized FileDescriptorSet).
	Schemas map[string][]byte
	// Complete is true when the file ends with its footer (the recorder stopped cleanly).
	Complete bool
	// Truncated is true when the file ends early or a chunk is damaged; Messages then hold
	// everything up to the last complete chunk, and Reason says what was wrong.
	Truncated bool
	Reason    error
	// Worlds are the worlds the recording followed, in file order, each with the log time of
	// its first message.
	Worlds []WorldMark
}

// WorldMark is where a world's messages begin in a recording.
type WorldMark struct {
	World
	LogTime time.Duration
}

// Counts returns the number of messages per topic.
func (r *Recording) Counts() map[string]int {
	out := map[string]int{}
	for _, m := range r.Messages {
		out[m.Topic]++
	}
	return out
}

// ReadFile reads an MCAP file from start to end without its index, so it also reads a file cut
// short by a crash: chunks are decompressed and checked against their CRC before any of their
// messages is used, and reading stops at the first incomplete or damaged one. It fails only if
// the file cannot be opened or is not MCAP at all.
func ReadFile(path string) (*Recording, error) {
	f, _, err := safefile.Open(path) // a pipe or a device is refused, not waited on
	if err != nil {
		return nil, fmt.Errorf("read recording: %w", err)
	}
	defer f.Close()
	lex, err := mcap.NewLexer(bufio.NewReaderSize(f, 1<<16), &mcap.LexerOptions{ValidateChunkCRCs: true})
	if err != nil {
		return nil, fmt.Errorf("read recording %s: not an MCAP file: %w", path, err)
	}
	defer lex.Close()
	rec := &Recording{Schemas: map[string][]byte{}}
	schemas := map[uint16]*mcap.Schema{}
	channels := map[uint16]*mcap.Channel{}
	var buf []byte
	for {
		tok, data, err := lex.Next(buf)
		if err != nil {
			if !errors.Is(err, io.EOF) || !rec.Complete {
				rec.Truncated, rec.Reason = true, err
			}
			return rec, nil
		}
		if cap(data) > cap(buf) {
			buf = data
		}
		switch tok {
		case mcap.TokenSchema:
			s, err := mcap.ParseSchema(data)
			if err != nil {
				rec.Truncated, rec.Reason = true, err
				return rec, nil
			}
			schemas[s.ID] = s
			rec.Schemas[s.Name] = s.Data
		case mcap.TokenChannel:
			c, err := mcap.ParseChannel(data)
			if err != nil {
				rec.Truncated, rec.Reason = true, err
				return rec, nil
			}
			channels[c.ID] = c
		case mcap.TokenMessage:
			var m mcap.Message
			if err := m.PopulateFrom(data, true); err != nil {
				rec.Truncated, rec.Reason = true, err
				return rec, nil
			}
			c := channels[m.ChannelID]
			if c == nil {
				rec.Truncated, rec.Reason = true, fmt.Errorf("message on unknown channel %d", m.ChannelID)
				return rec, nil
			}
			typ := ""
			if s := schemas[c.SchemaID]; s != nil {
				typ = s.Name
			}
			rec.Messages = append(rec.Messages, Message{
				Topic: c.Topic, Type: typ, Sequence: m.Sequence, LogTime: time.Duration(m.LogTime),
				PublishTime: time.Duration(m.PublishTime), Data: m.Data,
			})
		case mcap.TokenMetadata:
			md, err := mcap.ParseMetadata(data)
			if err != nil {
				rec.Truncated, rec.Reason = true, err
				return rec, nil
			}
			if md.Name == worldMetadata {
				t, _ := strconv.ParseUint(md.Metadata["logTime"], 10, 64)
				rec.Worlds = append(rec.Worlds, WorldMark{World: World{ID: md.Metadata["id"], Kind: md.Metadata["kind"],
					Label: md.Metadata["label"]}, LogTime: time.Duration(t)})
			}
		case mcap.TokenFooter:
			rec.Complete = true
		}
	}
}

// Decode decodes m with the schema recorded in the file (not with the types linked into this
// program), as Foxglove Studio would.
func (r *Recording) Decode(m Message) (proto.Message, error) {
	data, ok := r.Schemas[m.Type]
	if !ok {
		return nil, fmt.Errorf("decode %s: no schema %q in the recording", m.Topic, m.Type)
	}
	var set descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(data, &set); err != nil {
		return nil, fmt.Errorf("decode %s: schema %s: %w", m.Topic, m.Type, err)
	}
	files, err := protodesc.NewFiles(&set)
	if err != nil {
		return nil, fmt.Errorf("decode %s: schema %s: %w", m.Topic, m.Type, err)
	}
	d, err := files.FindDescriptorByName(protoreflect.FullName(m.Type))
	if err != nil {
		return nil, fmt.Errorf("decode %s: schema %s: %w", m.Topic, m.Type, err)
	}
	md, ok := d.(protoreflect.MessageDescriptor)
	if !ok {
		return nil, fmt.Errorf("decode %s: %s is not a message", m.Topic, m.Type)
	}
	out := dynamicpb.NewMessage(md)
	if err := proto.Unmarshal(m.Data, out); err != nil {
		return nil, fmt.Errorf("decode %s: %w", m.Topic, err)
	}
	return out, nil
}
