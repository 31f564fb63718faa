package plugins

import (
	"fmt"
	"strconv"
	"strings"
)

// Problem is one thing wrong with a plugin, found by validation. Path names the field the way
// an author finds it: the file's stem and a JSON path ("manifest.version",
// "descriptor.sensors[2].pose", "device-contract.sensors[1].rateHz"), or a file name for
// problems with a whole file ("README.md"). Warnings do not stop an install.
type Problem struct {
	Path    string `json:"path"`
	Message string `json:"message"`
	Warning bool   `json:"warning,omitempty"`
}

// String returns "path: message", or the message alone when there is no path.
func (p Problem) String() string {
	if p.Path == "" {
		return p.Message
	}
	return p.Path + ": " + p.Message
}

// Problems is what a validation found, in the order it found them.
type Problems []Problem

// Errors returns the problems that are not warnings.
func (ps Problems) Errors() Problems {
	var out Problems
	for _, p := range ps {
		if !p.Warning {
			out = append(out, p)
		}
	}
	return out
}

// Warnings returns the warnings.
func (ps Problems) Warnings() Problems {
	var out Problems
	for _, p := range ps {
		if p.Warning {
			out = append(out, p)
		}
	}
	return out
}

// Err returns a *ValidationError holding the errors, or nil when there are only warnings.
func (ps Problems) Err() error {
	if errs := ps.Errors(); len(errs) > 0 {
		return &ValidationError{Problems: errs}
	}
	return nil
}

// add appends an error at path.
func (ps *Problems) add(path, format string, args ...any) {
	*ps = append(*ps, Problem{Path: path, Message: fmt.Sprintf(format, args...)})
}

// warn appends a warning at path.
func (ps *Problems) warn(path, format string, args ...any) {
	*ps = append(*ps, Problem{Path: path, Message: fmt.Sprintf(format, args...), Warning: true})
}

// ValidationError is a plugin that failed validation. Its text is one line: the problem, or
// "N problems: a; b; ..." with the first MaxWorded of them (Problems holds them all).
type ValidationError struct {
	Problems Problems
}

// MaxWorded is how many problems one line of text names; the rest are counted. A descriptor
// with 3000 bad sensors made a 684 KB line.
const MaxWorded = 10

func (e *ValidationError) Error() string {
	if len(e.Problems) == 1 {
		return e.Problems[0].String()
	}
	n := min(len(e.Problems), MaxWorded)
	parts := make([]string, n, n+1)
	for i, p := range e.Problems[:n] {
		parts[i] = p.String()
	}
	if more := len(e.Problems) - n; more > 0 {
		parts = append(parts, "and "+strconv.Itoa(more)+" more")
	}
	return strconv.Itoa(len(e.Problems)) + " problems: " + strings.Join(parts, "; ")
}

// index formats path[i].
func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }
