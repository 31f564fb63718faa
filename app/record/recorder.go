package record

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/foxglove/mcap/go/mcap"
	"google.golang.org/protobuf/proto"

	"simgui/app/transport"
)

// Defaults of Options.
const (
	DefaultChunkSize = 64 << 10
	DefaultQueueLen  = 16384
)

// Options configure a Recorder. The zero value is usable.
type Options struct {
	// ChunkSize is the uncompressed size at which a chunk is closed and written, in bytes
	// (default 64 KiB). A crash loses at most the chunk being filled.
	ChunkSize int64
	// Compression is "zstd" (default), "lz4" or "none".
	Compression string
	// QueueLen is how many messages may wait for the writer before the oldest is dropped
	// (default 16384).
	QueueLen int
	// Logger receives the first write error; default slog.Default().
	Logger *slog.Logger
}

// Stats describes a recording so far.
type Stats struct {
	// Path is the file being written.
	Path string
	// Messages counts messages written; Topics the topics seen.
	Messages uint64
	Topics   int
	// PerTopic counts messages written per topic.
	PerTopic map[string]uint64
	// Dropped counts messages the bus dropped because the writer fell behind.
	Dropped uint64
}

// Recorder writes every message of a bus to an MCAP file until Stop.
type Recorder struct {
	path string
	f    *os.File
	w    *mcap.Writer
	sub  *transport.Subscription
	log  *slog.Logger
	done chan struct{}

	messages atomic.Uint64

	// Writer-goroutine state; mu guards perTopic and err for Stats and Stop.
	schemas  map[string]uint16 // message type -> schema ID
	channels map[string]uint16 // topic -> channel ID
	seq      map[uint16]uint32
	buf      []byte
	mu       sync.Mutex
	perTopic map[string]uint64
	err      error

	stopOnce sync.Once
	stopErr  error
}

// Start creates path (and its directory) and records every message published on bus from now
// on. It refuses to overwrite an existing file.
func Start(bus *transport.Bus, path string, opts Options) (*Recorder, error) {
	if _, err := compression(opts.Compression); err != nil {
		return nil, fmt.Errorf("record %s: %w", path, err)
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("record %s: %w", path, err)
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("record %s: the file exists; choose another name or remove it", path)
		}
		return nil, fmt.Errorf("record %s: %w", path, err)
	}
	r, err := StartFile(bus, f, opts)
	if err != nil {
		os.Remove(path)
	}
	return r, err
}

// StartFile records every message published on bus from now on into f, a new empty file the
// caller opened (for example through an os.Root). The recorder owns f: it closes it on Stop,
// or at once when it fails, leaving the removal of the file to the caller.
func StartFile(bus *transport.Bus, f *os.File, opts Options) (*Recorder, error) {
	if opts.ChunkSize <= 0 {
		opts.ChunkSize = DefaultChunkSize
	}
	if opts.QueueLen <= 0 {
		opts.QueueLen = DefaultQueueLen
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	path := f.Name()
	comp, err := compression(opts.Compression)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("record %s: %w", path, err)
	}
	w, err := mcap.NewWriter(f, &mcap.WriterOptions{
		Chunked: true, ChunkSize: opts.ChunkSize, Compression: comp, IncludeCRC: true,
	})
	if err == nil {
		err = w.WriteHeader(&mcap.Header{Library: "simgui"})
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("record %s: %w", path, err)
	}
	r := &Recorder{
		path: path, f: f, w: w, log: opts.Logger, done: make(chan struct{}),
		sub:     bus.SubscribeAll(transport.WithQueueLen(opts.QueueLen)),
		schemas: map[string]uint16{}, channels: map[string]uint16{}, seq: map[uint16]uint32{},
		perTopic: map[string]uint64{},
	}
	go r.run()
	return r, nil
}

func compression(name string) (mcap.CompressionFormat, error) {
	switch name {
	case "", "zstd":
		return mcap.CompressionZSTD, nil
	case "lz4":
		return mcap.CompressionLZ4, nil
	case "none":
		return mcap.CompressionNone, nil
	}
	return "", fmt.Errorf("unknown compression %q (known: zstd, lz4, none)", name)
}

// Path returns the file being written.
func (r *Recorder) Path() string { return r.path }

// run is the writer goroutine: it drains the subscription until Stop closes it.
func (r *Recorder) run() {
	defer close(r.done)
	for m := range r.sub.C() {
		if err := r.write(m); err != nil {
			r.mu.Lock()
			first := r.err == nil
			if first {
				r.err = err
			}
			r.mu.Unlock()
			if first {
				r.log.Error("recording stopped writing", "path", r.path, "err", err)
			}
		}
	}
}

func (r *Recorder) write(m transport.Message) error {
	r.mu.Lock()
	failed := r.err != nil
	r.mu.Unlock()
	if failed {
		return nil // after a write error the file is abandoned; keep draining
	}
	ch, ok := r.channels[m.Topic]
	if !ok {
		var err error
		if ch, err = r.addChannel(m); err != nil {
			return err
		}
	}
	var err error
	r.buf, err = proto.MarshalOptions{}.MarshalAppend(r.buf[:0], m.Msg)
	if err != nil {
		return fmt.Errorf("marshal %s on %s: %w", m.Type, m.Topic, err)
	}
	t := uint64(max(m.Stamp, 0))
	r.seq[ch]++
	if err := r.w.WriteMessage(&mcap.Message{ChannelID: ch, Sequence: r.seq[ch], LogTime: t, PublishTime: t, Data: r.buf}); err != nil {
		return fmt.Errorf("write %s: %w", r.path, err)
	}
	r.messages.Add(1)
	r.mu.Lock()
	r.perTopic[m.Topic]++
	r.mu.Unlock()
	return nil
}

func (r *Recorder) addChannel(m transport.Message) (uint16, error) {
	sid, ok := r.schemas[m.Type]
	if !ok {
		data, err := schemaData(m.Msg.ProtoReflect().Descriptor())
		if err != nil {
			return 0, fmt.Errorf("schema %s: %w", m.Type, err)
		}
		sid = uint16(len(r.schemas) + 1)
		if err := r.w.WriteSchema(&mcap.Schema{ID: sid, Name: m.Type, Encoding: "protobuf", Data: data}); err != nil {
			return 0, fmt.Errorf("write %s: %w", r.path, err)
		}
		r.schemas[m.Type] = sid
	}
	if len(r.channels) == 0xffff {
		return 0, fmt.Errorf("write %s: more than 65535 topics", r.path)
	}
	ch := uint16(len(r.channels) + 1)
	if err := r.w.WriteChannel(&mcap.Channel{ID: ch, SchemaID: sid, Topic: m.Topic, MessageEncoding: "protobuf"}); err != nil {
		return 0, fmt.Errorf("write %s: %w", r.path, err)
	}
	r.channels[m.Topic] = ch
	return ch, nil
}

// Stats returns the recording's counters so far.
func (r *Recorder) Stats() Stats {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := Stats{Path: r.path, Messages: r.messages.Load(), Dropped: r.sub.Dropped(), Topics: len(r.perTopic),
		PerTopic: make(map[string]uint64, len(r.perTopic))}
	for k, v := range r.perTopic {
		s.PerTopic[k] = v
	}
	return s
}

// Stop stops recording, writes the rest of the queue, the last chunk and the summary, and
// closes the file. It returns the final stats and the first write error; later calls return
// the same.
func (r *Recorder) Stop() (Stats, error) {
	r.stopOnce.Do(func() {
		r.sub.Close()
		<-r.done
		r.mu.Lock()
		err := r.err
		r.mu.Unlock()
		if err == nil {
			err = r.w.Close()
		}
		if err == nil {
			err = r.f.Sync()
		}
		if cerr := r.f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			r.stopErr = fmt.Errorf("record %s: %w", r.path, err)
		}
	})
	return r.Stats(), r.stopErr
}
