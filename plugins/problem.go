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
// "N problems: a; b; ...".
type ValidationError struct {
	Problems Problems
}

func (e *ValidationError) Error() string {
	if len(e.Problems) == 1 {
		return e.Problems[0].String()
	}
	parts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		parts[i] = p.String()
	}
	return strconv.Itoa(len(e.Problems)) + " problems: " + strings.Join(parts, "; ")
}

// index formats path[i].
func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }
