package main

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// printable returns s with every character a terminal could act on written as an escape, so
// that text from a plugin or a registry file (a display name, a description, an id in an
// error) cannot move the cursor, retitle the window or reorder what is shown: C0 controls and
// DEL as \n, \t or \xNN, C1 controls and the bidirectional controls (U+061C, U+200E, U+200F,
// U+202A–U+202E, U+2066–U+2069) as \uNNNN, bytes that are not UTF-8 as \xNN. A backslash
// stays as it is: the output is for reading, not for parsing back.
func printable(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case isC1OrBidi(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func needsEscape(s string) bool {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || r < 0x20 || r == 0x7f || isC1OrBidi(r) {
			return true
		}
		i += n
	}
	return false
}

func isC1OrBidi(r rune) bool {
	return r >= 0x80 && r <= 0x9f || r == 0x61c || r == 0x200e || r == 0x200f ||
		r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// escapeJSON rewrites the characters encoding/json leaves raw but a terminal acts on (DEL, C1
// and bidirectional controls; json already escapes C0) as \uNNNN. In JSON text they can only
// sit inside strings, where \uNNNN means the same character, so the JSON decodes to the same
// values.
func escapeJSON(b []byte) []byte {
	if !needsEscape(string(b)) {
		return b
	}
	var out bytes.Buffer
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == 0x7f || isC1OrBidi(r) {
			fmt.Fprintf(&out, `\u%04x`, r)
		} else {
			out.Write(b[i : i+n])
		}
		i += n
	}
	return out.Bytes()
}
