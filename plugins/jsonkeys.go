package plugins

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// jsonWalker reads JSON text token by token and keeps the path (".a[2].b") of the value at
// hand, for problems that name where in a file they are.
type jsonWalker struct {
	d     *json.Decoder
	stack []*jsonFrame
}

// jsonFrame is an open object or array: the index or key of its value at hand, and the keys
// it has had so far (objects).
type jsonFrame struct {
	array     bool
	index     int
	key       string
	expectKey bool
	keys      map[string]bool
}

func newJSONWalker(b []byte) *jsonWalker {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber() // a number too large for a float64 is still a token here
	return &jsonWalker{d: d}
}

// path returns the path of the value at hand.
func (w *jsonWalker) path() string {
	var sb strings.Builder
	for _, f := range w.stack {
		if f.array {
			sb.WriteString("[" + strconv.Itoa(f.index) + "]")
		} else {
			sb.WriteString("." + f.key)
		}
	}
	return sb.String()
}

// key takes t as the key of the object at hand when one is due: it returns the frame and true.
func (w *jsonWalker) key(t json.Token) (*jsonFrame, bool) {
	if n := len(w.stack); n > 0 && w.stack[n-1].expectKey {
		if k, ok := t.(string); ok {
			f := w.stack[n-1]
			f.key, f.expectKey = k, false
			return f, true
		}
	}
	return nil, false
}

// close ends the object or array t closes, reporting whether it was a closing delimiter.
func (w *jsonWalker) close(t json.Token) bool {
	if t != json.Delim('}') && t != json.Delim(']') {
		return false
	}
	w.stack = w.stack[:len(w.stack)-1]
	w.next()
	return true
}

// open starts the object or array t opens; any other value ends.
func (w *jsonWalker) open(t json.Token) {
	switch t {
	case json.Delim('{'):
		w.stack = append(w.stack, &jsonFrame{expectKey: true, keys: map[string]bool{}})
	case json.Delim('['):
		w.stack = append(w.stack, &jsonFrame{array: true})
	default:
		w.next()
	}
}

// next moves the parent on once a value has ended.
func (w *jsonWalker) next() {
	if n := len(w.stack); n > 0 {
		if f := w.stack[n-1]; f.array {
			f.index++
		} else {
			f.expectKey = true
		}
	}
}

// duplicateKey returns the path (".a[2].b") of the first key in JSON text b that its object
// has already (compared as encoding/json matches keys to fields: without case), or "" for
// none. encoding/json keeps the last of them silently, so a manifest could show one
// displayName to a reader and install with another.
func duplicateKey(b []byte) string {
	w := newJSONWalker(b)
	for {
		t, err := w.d.Token()
		if err != nil {
			return "" // the end, or an error the decoder reports itself
		}
		if f, isKey := w.key(t); isKey {
			k := strings.ToLower(f.key)
			if f.keys[k] {
				return w.path()
			}
			f.keys[k] = true
			continue
		}
		if !w.close(t) {
			w.open(t)
		}
	}
}
