package editor

import (
	"bytes"
	"encoding/json"
	"maps"
	"strconv"
	"strings"

	"simgui/plugins"
)

// maxLeftOut bounds how many unreadable values an open leaves out before it gives up.
const maxLeftOut = 20

// readable returns files with descriptor.json's values that cannot be read (a value of the
// wrong JSON type, a number out of its field's range) left out, one at a time, as the decoder
// names the first it meets, and the problems of those left out; files itself is unchanged.
// An invalid plugin opens so that it can be fixed: a value that could not be stored is one to
// type again. Other problems (malformed JSON, a missing file) are left to the caller.
func readable(files map[string][]byte) (map[string][]byte, plugins.Problems) {
	var left plugins.Problems
	for range maxLeftOut {
		p, ps := plugins.DecodePlugin(files)
		errs := ps.Errors()
		if p != nil || len(errs) != 1 || !strings.HasPrefix(errs[0].Path, "descriptor.") {
			return files, left
		}
		b, ok := withoutValue(files[plugins.DescriptorFile], strings.TrimPrefix(errs[0].Path, "descriptor"))
		if !ok {
			return files, left
		}
		files = maps.Clone(files)
		files[plugins.DescriptorFile] = b
		left = append(left, errs[0])
	}
	return files, left
}

// withoutValue returns the JSON document b without the value at path (".a[2].b": a key is
// removed, an array item becomes null), its numbers as written; false when path does not lead
// to a value.
func withoutValue(b []byte, path string) ([]byte, bool) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var doc any
	if d.Decode(&doc) != nil {
		return nil, false
	}
	steps, ok := pathSteps(path)
	if !ok || len(steps) == 0 {
		return nil, false
	}
	at := doc
	for i, s := range steps {
		last := i == len(steps)-1
		switch v := at.(type) {
		case map[string]any:
			if _, has := v[s.key]; s.index >= 0 || !has {
				return nil, false
			}
			if last {
				delete(v, s.key)
			} else {
				at = v[s.key]
			}
		case []any:
			if s.index < 0 || s.index >= len(v) {
				return nil, false
			}
			if last {
				v[s.index] = nil
			} else {
				at = v[s.index]
			}
		default:
			return nil, false
		}
	}
	out, err := json.Marshal(doc)
	return out, err == nil
}

// pathStep is a step of a problem's path: a key, or an array index (index >= 0).
type pathStep struct {
	key   string
	index int
}

// pathSteps splits ".a[2].b" into its steps.
func pathSteps(p string) ([]pathStep, bool) {
	var out []pathStep
	for p != "" {
		switch p[0] {
		case '.':
			end := strings.IndexAny(p[1:], ".[")
			if end < 0 {
				end = len(p) - 1
			}
			out = append(out, pathStep{key: p[1 : end+1], index: -1})
			p = p[end+1:]
		case '[':
			end := strings.IndexByte(p, ']')
			n, err := strconv.Atoi(p[1:max(end, 1)])
			if end < 0 || err != nil || n < 0 {
				return nil, false
			}
			out = append(out, pathStep{index: n})
			p = p[end+1:]
		default:
			return nil, false
		}
	}
	return out, true
}
