package plugins

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// duplicateKey returns the path (".a[2].b") of the first key in JSON text b that its object
// has already (compared as encoding/json matches keys to fields: without case), or "" for
// none. encoding/json keeps the last of them silently, so a manifest could show one
// displayName to a reader and install with another.
func duplicateKey(b []byte) string {
	type frame struct {
		array bool
		index int
		key   string
		keys  map[string]bool
	}
	var stack []*frame
	path := func() string {
		var sb strings.Builder
		for _, f := range stack {
			if f.array {
				sb.WriteString("[" + strconv.Itoa(f.index) + "]")
			} else {
				sb.WriteString("." + f.key)
			}
		}
		return sb.String()
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	expectKey := false
	for {
		t, err := d.Token()
		if err != nil {
			return "" // the end, or an error the decoder reports itself
		}
		if n := len(stack); n > 0 && expectKey {
			if k, ok := t.(string); ok {
				f := stack[n-1]
				f.key = k
				if f.keys[strings.ToLower(k)] {
					return path()
				}
				f.keys[strings.ToLower(k)] = true
				expectKey = false
				continue
			}
		}
		ended := true // a value ended: its parent moves on
		switch t {
		case json.Delim('{'):
			stack = append(stack, &frame{keys: map[string]bool{}})
			expectKey, ended = true, false
		case json.Delim('['):
			stack = append(stack, &frame{array: true})
			ended = false
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		if n := len(stack); ended && n > 0 {
			if stack[n-1].array {
				stack[n-1].index++
			} else {
				expectKey = true
			}
		}
	}
}
