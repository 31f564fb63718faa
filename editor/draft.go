package editor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"simgui/plugins"
	"simgui/plugins/archive"
)

// draft is the plugin being edited: one form, plus the files of an opened plugin the forms do
// not cover (assets/, its README.md), which an export carries over unchanged.
type draft struct {
	typ     plugins.Type
	vehicle *vehicleForm // when typ is vehicle
	track   *trackForm   // when typ is track
	// extra holds other files of the opened plugin by archive name.
	extra map[string][]byte
	// readmeID is the id the kept README.md was written for; a README is generated again
	// when the id changes.
	readmeID string
	// source says where the draft came from, for the status line and the title.
	source string
	// folder is the plugin folder the draft was opened from, "" otherwise: Save writes back
	// there.
	folder string
	// wrapped is the contractVersion of an opened device-contract.json in the Editor asset's
	// wrapper shape, written back in that shape; nil for the bare contract.
	wrapped *plugins.ContractVersion
	// added are the files of extra the editor added (Add image): left out of a build once no
	// material names them.
	added map[string]bool
}

// id returns the id as typed.
func (d *draft) id() string {
	if d.typ == plugins.TypeTrack {
		return strings.TrimSpace(d.track.Base.ID)
	}
	return strings.TrimSpace(d.vehicle.Base.ID)
}

// base returns the form's PluginDescriptorBase fields.
func (d *draft) base() *baseForm {
	if d.typ == plugins.TypeTrack {
		return &d.track.Base
	}
	return &d.vehicle.Base
}

// built is a draft turned into values: the plugin, the encoded files and the text that could
// not be read.
type built struct {
	plugin *plugins.Plugin
	files  map[string][]byte
	parse  plugins.Problems
	// other is the draft built again with another number in place of the text that is not a
	// number (nil when all of it read): see validate.
	other *built
}

// build encodes the draft as the files of a plugin archive: manifest.json,
// descriptor.json, device-contract.json for vehicles, README.md, and the kept extra files.
// Text that is not a number is 0 in them.
func (d *draft) build() (*built, error) {
	b, err := d.buildWith(0)
	if err != nil || len(b.parse) == 0 {
		return b, err
	}
	b.other, err = d.buildWith(1)
	return b, err
}

// buildWith builds the draft with standIn for text that is not a number.
func (d *draft) buildWith(standIn float64) (*built, error) {
	p := &plugins.Plugin{}
	var ps plugins.Problems
	var desc any
	switch d.typ {
	case plugins.TypeVehicle:
		p.Manifest, p.Vehicle, ps = d.vehicle.build(standIn)
		desc = p.Vehicle
	case plugins.TypeTrack:
		p.Manifest, p.Track, ps = d.track.build(standIn)
		desc = p.Track
	default:
		return nil, fmt.Errorf("unknown plugin type %q", d.typ)
	}
	files := maps.Clone(d.extra)
	if files == nil {
		files = map[string][]byte{}
	}
	for n := range d.unusedAdded() {
		delete(files, n)
	}
	// As reading the archive does, so that the draft validates and previews as its files would.
	if p.Track != nil {
		plugins.LoadMaterialImages(p.Track.Materials, files)
	}
	if p.Vehicle != nil {
		plugins.LoadMaterialImages(p.Vehicle.Materials, files)
	}
	for name, v := range map[string]any{plugins.ManifestFile: p.Manifest, plugins.DescriptorFile: desc} {
		b, err := encodeJSON(v)
		if err != nil {
			return nil, fmt.Errorf("encode %s: %w", name, err)
		}
		files[name] = b
	}
	if p.Vehicle != nil {
		var contract any = p.Vehicle.Contract
		if d.wrapped != nil {
			contract = struct {
				ContractVersion plugins.ContractVersion `json:"contractVersion"`
				Descriptor      *plugins.DeviceContract `json:"descriptor"`
			}{*d.wrapped, p.Vehicle.Contract}
		}
		b, err := encodeJSON(contract)
		if err != nil {
			return nil, fmt.Errorf("encode %s: %w", plugins.ContractFile, err)
		}
		files[plugins.ContractFile] = b
	}
	// A README kept from the plugin is its author's text: under a new id it is carried over
	// with the old id renamed, not replaced by a stub.
	if kept, ok := files[plugins.ReadmeFile]; !ok {
		files[plugins.ReadmeFile] = readme(p)
	} else if id := p.Manifest.PluginID; d.readmeID != id && d.readmeID != "" && id != "" {
		files[plugins.ReadmeFile] = bytes.ReplaceAll(kept, []byte(d.readmeID), []byte(id))
	}
	return &built{plugin: p, files: files, parse: ps}, nil
}

// encodeJSON is how the editor writes JSON files: indented, with a final newline, and "<",
// ">" and "&" as themselves (JSON schemas hold them).
func encodeJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// readme writes a README.md for a plugin made in the editor.
func readme(p *plugins.Plugin) []byte {
	var b strings.Builder
	name, id := p.Manifest.DisplayName, p.Manifest.PluginID
	fmt.Fprintf(&b, "# %s (%s)\n\n", name, id)
	desc := ""
	if p.Vehicle != nil {
		desc = p.Vehicle.Description
	} else if p.Track != nil {
		desc = p.Track.Description
	}
	if desc != "" {
		b.WriteString(desc + "\n\n")
	}
	if p.Manifest.Author != "" {
		fmt.Fprintf(&b, "Author: %s\n\n", p.Manifest.Author)
	}
	fmt.Fprintf(&b, "A simgui %s plugin made with the simgui plugin editor, version %s.\n\n", p.Manifest.Type, p.Manifest.Version)
	fmt.Fprintf(&b, "    simgui plugin install %s.rusim-plugin.zip\n", id)
	return []byte(b.String())
}

// validate checks the draft as `simgui plugin validate` checks an archive: the files are
// checked by the archive's rules, then read and validated by plugins.ReadPlugin (through
// archive.Archive.Plugin). Where reading stops early (a manifest without an id stops it
// before the descriptor), the descriptor in memory is validated too, with the same
// validator, so that every problem is listed. Text that is not a number comes first. The
// archive is nil when the files break the archive's rules.
//
// A field whose text is not a number is that one problem. What the validator says of the
// number standing in for it is not the plugin's: problems at the field or inside it are left
// out, and so are those that change with the stand-in (an element "0×0.1 is not positive"
// for a length typed "long"), found by validating the draft built with another stand-in.
func (b *built) validate() (*archive.Archive, plugins.Problems) {
	a, ps := b.check()
	if b.other != nil {
		_, other := b.other.check()
		ps = slices.DeleteFunc(ps, func(p plugins.Problem) bool { return !slices.Contains(other, p) })
	}
	return a, withoutRepeats(ps)
}

// withoutRepeats drops a problem of a value the files repeat (the manifest's pluginId is the
// descriptor's id) when the field the form shows once has a problem of its own: an empty id
// is one problem to the author, not two.
func withoutRepeats(ps plugins.Problems) plugins.Problems {
	all := slices.Clone(ps) // DeleteFunc moves ps's elements as it goes
	return slices.DeleteFunc(ps, func(p plugins.Problem) bool {
		field := canonicalPath(p.Path)
		return field != p.Path && slices.ContainsFunc(all, func(q plugins.Problem) bool {
			return q.Path == field && q.Warning == p.Warning
		})
	})
}

// archiveProblem checks files by the archive's rules, as opening the plugin's folder or archive
// again does: nil when they pass. Over the total, it says what the files come to, rounded up
// (64.0 MiB would read as within 64).
func archiveProblem(files map[string][]byte) error {
	err := archive.DefaultLimits.Check(files)
	if _, ok := errors.AsType[*archive.TotalError](err); ok {
		var n int64
		for _, b := range files {
			n += int64(len(b))
		}
		return fmt.Errorf("the plugin's files come to %.1f MiB, over the %d MiB a plugin may hold in all",
			math.Ceil(float64(n)/(1<<20)*10)/10, archive.DefaultLimits.MaxTotal>>20)
	}
	return err
}

// check is validate for one stand-in.
func (b *built) check() (*archive.Archive, plugins.Problems) {
	ps := append(plugins.Problems(nil), b.parse...)
	err := archiveProblem(b.files)
	var a *archive.Archive
	if err == nil {
		a, err = archive.DefaultLimits.FromFiles(b.files)
	}
	if err != nil {
		return nil, append(ps, plugins.Problem{Message: err.Error()})
	}
	_, read := a.Plugin()
	read = slices.DeleteFunc(read, b.unread)
	ps = append(ps, read...)
	var mem plugins.Problems
	if b.plugin.Vehicle != nil {
		mem = plugins.ValidateVehicle(&b.plugin.Manifest, b.plugin.Vehicle)
	} else {
		mem = plugins.ValidateTrack(&b.plugin.Manifest, b.plugin.Track)
	}
	for _, p := range mem {
		if slices.Contains(ps, p) || b.unread(p) {
			continue
		}
		if strings.HasPrefix(p.Path, "manifest.") && slices.ContainsFunc(read, func(q plugins.Problem) bool { return q.Path == p.Path }) {
			continue // the reader said it its own way
		}
		ps = append(ps, p)
	}
	return a, ps
}

// unread reports whether p is about a field whose text could not be read, or about a value
// inside it: the validator saw the number (or the empty list) that stood in for the text.
func (b *built) unread(p plugins.Problem) bool {
	return slices.ContainsFunc(b.parse, func(q plugins.Problem) bool {
		return p.Path == q.Path || strings.HasPrefix(p.Path, q.Path+".") || strings.HasPrefix(p.Path, q.Path+"[")
	})
}
