package editor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"simgui/plugins"
)

// The forms hold every value as the text a person typed, so that a half-typed number is kept
// as typed and reported with its field instead of silently becoming 0. build turns the text
// into descriptors and reports text that is not a number (or a list of numbers) as a Problem
// at the path the validator uses for that field; every other rule is the validator's.

// num formats a number for a text field, as briefly as it round-trips.
func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// parser turns field text into values, collecting what could not be read.
type parser struct {
	ps plugins.Problems
	// standIn is the number float returns for text that is not one (draft.build builds with
	// two, to tell the problems of the plugin from those of the stand-in).
	standIn float64
}

func (p *parser) add(path, format string, args ...any) {
	p.ps = append(p.ps, plugins.Problem{Path: path, Message: fmt.Sprintf(format, args...)})
}

// float reads a number; empty text is 0 (the validator then says what 0 means there), text
// that is not a number is p.standIn.
func (p *parser) float(path, s string) float64 {
	x, ok := p.optFloat(path, s)
	if !ok && strings.TrimSpace(s) != "" {
		return p.standIn
	}
	return x
}

// optFloat reads a number that may be left empty (ok false).
func (p *parser) optFloat(path, s string) (x float64, ok bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || !finite(x) {
		p.add(path, "%q is not a number", s)
		return 0, false
	}
	return x, true
}

// optInt reads a whole number that may be left empty (nil).
func (p *parser) optInt(path, s string) *int {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		p.add(path, "%q is not a whole number", s)
		return nil
	}
	return &n
}

// finite reports whether x is a number JSON can hold: strconv takes "NaN" and "Inf".
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// ints reads a list of whole numbers such as "240, 320, 3" or "[240, 320, 3]".
func (p *parser) ints(path, s string) []int {
	s = strings.Trim(strings.TrimSpace(s), "[]")
	if strings.TrimSpace(s) == "" {
		return []int{}
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			p.add(path, "%q is not a list of whole numbers such as 240, 320, 3", s)
			return []int{}
		}
		out = append(out, n)
	}
	return out
}

// points reads "x,y; x,y; ..." (metres).
func (p *parser) points(path, s string) [][2]float64 {
	var out [][2]float64
	for _, pt := range strings.Split(s, ";") {
		if strings.TrimSpace(pt) == "" {
			continue
		}
		xy := strings.Split(pt, ",")
		if len(xy) != 2 {
			p.add(path, "%q is not a list of points x,y; x,y; ... (%q is not x,y)", s, strings.TrimSpace(pt))
			return nil
		}
		x, errx := strconv.ParseFloat(strings.TrimSpace(xy[0]), 64)
		y, erry := strconv.ParseFloat(strings.TrimSpace(xy[1]), 64)
		if errx != nil || erry != nil || !finite(x) || !finite(y) {
			p.add(path, "%q is not a list of points x,y; x,y; ... (%q is not two numbers)", s, strings.TrimSpace(pt))
			return nil
		}
		out = append(out, [2]float64{x, y})
	}
	return out
}

// formatInts is the inverse of ints.
func formatInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ", ")
}

// formatPoints is the inverse of points.
func formatPoints(ps [][2]float64) string {
	parts := make([]string, len(ps))
	for i, pt := range ps {
		parts[i] = num(pt[0]) + ", " + num(pt[1])
	}
	return strings.Join(parts, "; ")
}

// oneLine makes JSON text fit a one-line field: compacted when it is JSON, else with line
// breaks turned into spaces (both keep its meaning).
func oneLine(s string) string {
	var b bytes.Buffer
	if json.Compact(&b, []byte(s)) == nil {
		return b.String()
	}
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ").Replace(s)
}

// escapeLines shows line breaks in one-line text fields as \n; unescapeLines undoes it.
func escapeLines(s string) string {
	return strings.NewReplacer(`\`, `\\`, "\n", `\n`).Replace(s)
}

func unescapeLines(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case 'n':
				b.WriteByte('\n')
				i++
				continue
			case '\\':
				b.WriteByte('\\')
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// baseForm is PluginDescriptorBase (rusim's SDK) plus the manifest's own fields.
type baseForm struct {
	ID          string
	DisplayName string
	Version     string
	Description string
	Author      string
	Runtime     string // manifest compatibleRuntime
}

func baseFrom(m plugins.Manifest, id, displayName string, v plugins.ContractVersion, description string) baseForm {
	return baseForm{ID: id, DisplayName: displayName, Version: v.String(), Description: escapeLines(description),
		Author: m.Author, Runtime: m.CompatibleRuntime}
}

// build returns the manifest and the descriptor's version. A version that does not parse is
// left to the validator, which reports it as manifest.version (the manifest carries the text);
// the descriptor then takes the id's major, so that the id is not reported as well for a
// version it never saw.
func (b *baseForm) build(typ plugins.Type) (plugins.Manifest, plugins.ContractVersion) {
	v, ok := plugins.ParseContractVersion(strings.TrimSpace(b.Version))
	if !ok {
		v = plugins.ContractVersion{}
		if _, major, err := plugins.ParseID(strings.TrimSpace(b.ID)); err == nil {
			v.Major = major
		}
	}
	m := plugins.Manifest{
		PluginID: strings.TrimSpace(b.ID), Type: typ, DisplayName: b.DisplayName,
		Version: strings.TrimSpace(b.Version), CompatibleRuntime: strings.TrimSpace(b.Runtime), Author: b.Author,
	}
	return m, v
}
