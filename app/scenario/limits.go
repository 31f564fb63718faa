package scenario

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"simgui/safefile"
)

// Limits of a scenario, checked before yaml.v3 decodes it. yaml.v3 compares every key of a
// mapping with every other one to find duplicates, so one mapping of n keys costs n²/2 string
// comparisons (40,000 keys took 12.7 s; 1,000,000 never finished), and it allocates for every
// node. The limits keep the worst file that passes them to well under a second, far above
// any real scenario (the examples are 1–4 KB, with at most a few dozen keys in a mapping).
const (
	// MaxBytes is the largest scenario file.
	MaxBytes = 1 << 20
	// MaxMappingKeys is the most keys one mapping may have.
	MaxMappingKeys = 1000
	// MaxDepth is the deepest nesting of mappings and sequences.
	MaxDepth = 64
	// MaxNodes is the most YAML nodes (keys, values, items), aliases counted as often as they
	// are used.
	MaxNodes = 200_000
	// MaxSystems is the most plugins: entries (systems) a scenario may load: each is started
	// and tracked on its own, and 20,000 world clocks took minutes to start.
	MaxSystems = 256
)

// LimitError is a scenario over one of the limits. Its text names the file, where the limit
// was passed and the limit.
type LimitError struct {
	Source string
	// Limit is the constant passed: "MaxBytes", "MaxMappingKeys", "MaxDepth" or "MaxNodes".
	Limit string
	// Line is the line of the node that passed it (0 for MaxBytes).
	Line int
	// Detail says what passed the limit.
	Detail string
}

func (e *LimitError) Error() string {
	at := ""
	if e.Line > 0 {
		at = fmt.Sprintf("line %d: ", e.Line)
	}
	return fmt.Sprintf("%s: %s%s (limit %s)", e.Source, at, e.Detail, e.Limit)
}

// FieldError is a scenario value refused for its field, named as the scenario names it
// ("runtime.actionPeriod"), so that a caller that set the value another way can say so.
type FieldError struct {
	Field string
	Err   error
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Err.Error() }
func (e *FieldError) Unwrap() error { return e.Err }

// readFile reads a scenario file: a regular file of at most MaxBytes.
func readFile(path string) ([]byte, error) {
	data, err := safefile.ReadFile(path, MaxBytes)
	var tl *safefile.TooLargeError
	switch {
	case errors.As(err, &tl):
		return nil, &LimitError{Source: path, Limit: "MaxBytes",
			Detail: fmt.Sprintf("the file has %d bytes; a scenario may have at most %d", tl.Size, MaxBytes)}
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("scenario file %s not found", path)
	case err != nil:
		return nil, fmt.Errorf("read scenario %s: %w", path, err)
	}
	return data, nil
}

// checkLimits parses data into yaml.v3's node tree, which costs time linear in its size, and
// walks it for the limits and for numbers that are not finite (.nan, .inf), before anything
// decodes it into values.
func checkLimits(data []byte, source string) error {
	if len(data) > MaxBytes {
		return &LimitError{Source: source, Limit: "MaxBytes",
			Detail: fmt.Sprintf("the scenario has %d bytes; a scenario may have at most %d", len(data), MaxBytes)}
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return fmt.Errorf("%s: %s", source, explainYAML(err, nil))
	}
	w := walker{source: source}
	return w.walk(&root, nil, 0)
}

// walker counts nodes across the tree.
type walker struct {
	source string
	nodes  int
}

// step is one link of the path from the root to a node, for messages.
type step struct {
	parent *step
	key    string // a mapping key, or "" for a sequence item
	index  int
	line   int // of the key
}

func (s *step) String() string {
	if s == nil {
		return "the top level"
	}
	var parts []string
	for ; s != nil; s = s.parent {
		if s.key != "" {
			parts = append(parts, "."+s.key)
		} else {
			parts = append(parts, "["+strconv.Itoa(s.index)+"]")
		}
	}
	var b strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		b.WriteString(parts[i])
	}
	return strings.TrimPrefix(b.String(), ".")
}

func (w *walker) walk(n *yaml.Node, at *step, depth int) error {
	w.nodes++
	if w.nodes > MaxNodes {
		return &LimitError{Source: w.source, Limit: "MaxNodes", Line: n.Line,
			Detail: fmt.Sprintf("%s: the scenario has more than %d YAML nodes", at, MaxNodes)}
	}
	if depth > MaxDepth {
		return &LimitError{Source: w.source, Limit: "MaxDepth", Line: n.Line,
			Detail: fmt.Sprintf("%s is nested more than %d levels deep", at, MaxDepth)}
	}
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			if err := w.walk(c, at, depth); err != nil {
				return err
			}
		}
	case yaml.AliasNode:
		// Followed, so that an alias used many times counts as often as it expands.
		if n.Alias != nil {
			return w.walk(n.Alias, at, depth+1)
		}
	case yaml.MappingNode:
		if keys := len(n.Content) / 2; keys > MaxMappingKeys {
			line := n.Line
			if at != nil && at.line > 0 {
				line = at.line // a block mapping starts on the line after its key
			}
			return &LimitError{Source: w.source, Limit: "MaxMappingKeys", Line: line,
				Detail: fmt.Sprintf("%s has %d keys; a mapping may have at most %d", at, keys, MaxMappingKeys)}
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if err := w.walk(k, at, depth+1); err != nil {
				return err
			}
			if err := w.walk(v, &step{parent: at, key: k.Value, line: k.Line}, depth+1); err != nil {
				return err
			}
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			if err := w.walk(c, &step{parent: at, index: i}, depth+1); err != nil {
				return err
			}
		}
	case yaml.ScalarNode:
		if n.ShortTag() == "!!float" {
			var f float64
			if err := n.Decode(&f); err == nil && (math.IsNaN(f) || math.IsInf(f, 0)) {
				return fmt.Errorf("%s: line %d: %s: %s is not a finite number", w.source, n.Line, at, n.Value)
			}
		}
	}
	return nil
}
