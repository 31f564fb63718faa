package plugins

import "strings"

// ParamError is one bad scenario parameter. Prefix says where the parameters sit in the
// scenario ("world.params", "vehicle.params"); callers may change it before printing.
type ParamError struct {
	Prefix  string
	Key     string
	Problem string // what is wrong with the value and what was expected
}

func (e *ParamError) Error() string {
	if e.Key == "" {
		return e.Prefix + ": " + e.Problem
	}
	return e.Prefix + "." + e.Key + ": " + e.Problem
}

// ParamErrors is every problem found in one parameter map, sorted by key. Its text is one line.
type ParamErrors []*ParamError

func (es ParamErrors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "; ")
}

// SetPrefix sets every error's Prefix, for callers whose parameters live elsewhere.
func (es ParamErrors) SetPrefix(p string) {
	for _, e := range es {
		e.Prefix = p
	}
}
