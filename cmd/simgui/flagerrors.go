package main

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// flagError is every command's FlagErrorFunc (set on the root, inherited by the rest): a value
// a flag cannot parse is reported as `--steps: "-5" is not a whole number ≥ 0`, in the terms
// of the flag's kind, instead of pflag's text with strconv's inside.
func flagError(_ *cobra.Command, err error) error {
	var ive *pflag.InvalidValueError
	if !errors.As(err, &ive) {
		return err
	}
	f, value := ive.GetFlag(), ive.GetValue()
	name := "--" + f.Name
	typ := f.Value.Type()
	var ne *strconv.NumError
	if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
		if lo, hi, ok := flagIntRange(typ); ok {
			return fmt.Errorf("%s: %q is outside the range %s..%s", name, value, lo, hi)
		}
		return fmt.Errorf("%s: %q is too large a number", name, value)
	}
	switch {
	case strings.HasPrefix(typ, "uint"):
		return fmt.Errorf("%s: %q is not a whole number ≥ 0", name, value)
	case strings.HasPrefix(typ, "int"):
		return fmt.Errorf("%s: %q is not a whole number", name, value)
	case strings.HasPrefix(typ, "float"):
		return fmt.Errorf("%s: %q is not a number", name, value)
	case typ == "duration":
		return fmt.Errorf("%s: %q is not a duration such as 500ms, 90s or 2m", name, value)
	case typ == "bool":
		return fmt.Errorf("%s: %q is not true or false", name, value)
	}
	return fmt.Errorf("%s: %q: %w", name, value, errors.Unwrap(ive))
}

// flagIntRange gives the bounds of a pflag integer type ("int", "uint64", ...).
func flagIntRange(typ string) (lo, hi string, ok bool) {
	bits := strconv.IntSize
	digits := strings.TrimPrefix(strings.TrimPrefix(typ, "u"), "int")
	if digits != "" {
		n, err := strconv.Atoi(digits)
		if err != nil {
			return "", "", false
		}
		bits = n
	}
	switch {
	case strings.HasPrefix(typ, "uint"):
		return "0", strconv.FormatUint(math.MaxUint64>>(64-bits), 10), true
	case strings.HasPrefix(typ, "int"):
		return strconv.FormatInt(-1<<(bits-1), 10), strconv.FormatInt(1<<(bits-1)-1, 10), true
	}
	return "", "", false
}
