package editor

import (
	"simgui/app/bench"
	"simgui/plugins"
)

// The editor's per-change costs, registered for `simgui bench` and run by `go test -bench` too.
// Unlike the other areas' cases (in <area>bench packages that production code never imports),
// these stay in the editor: they measure its unexported per-keystroke work, and they add no
// dependency (app/bench is the harness simgui bench runs).
// Whenever the form changes (each key typed), the game goroutine builds the plugin's files and
// validates them; the case compares that with validating the same files alone, the part
// `simgui plugin validate` does too. The preview renders on its own goroutine.
func init() {
	bench.Register(bench.Case{Name: "editor/validate/ks0223", F: benchValidate,
		Doc: "validating the KS0223's files as `simgui plugin validate` does (plugins.ReadPlugin)"})
	bench.Register(bench.Case{Name: "editor/check/ks0223", Baseline: "editor/validate/ks0223", F: benchCheck,
		Doc: "the editor's check after a key: build the KS0223's files from its form, fingerprint, validate"})
	bench.Register(bench.Case{Name: "editor/preview/ks0223", F: benchPreview,
		Doc: "the preview of the KS0223: its camera's view and a 3D view, 320x240 each, on one core"})
}

func ks0223Draft(b bench.B) *draft {
	d, _, err := openInstalled(nil, "vehicle.ks0223.v1")
	if err != nil {
		b.Fatal(err)
	}
	return d
}

func benchValidate(b bench.B) {
	built, err := ks0223Draft(b).build()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, ps := plugins.ReadPlugin(built.files); len(ps.Errors()) > 0 {
			b.Fatal(ps)
		}
	}
}

func benchCheck(b bench.B) {
	d := ks0223Draft(b)
	b.ReportAllocs()
	for b.Loop() {
		built, err := d.build()
		if err != nil {
			b.Fatal(err)
		}
		_ = fingerprint(built.files)
		if _, ps := built.validate(); len(ps.Errors()) > 0 {
			b.Fatal(ps)
		}
	}
}

func benchPreview(b bench.B) {
	built, err := ks0223Draft(b).build()
	if err != nil {
		b.Fatal(err)
	}
	p := &previewer{}
	p.r = newRenderer()
	defer p.r.Close()
	out := &previewOut{}
	if err := p.vehicle(out, built.plugin.Vehicle); err != nil { // builds the arena once
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := p.vehicle(out, built.plugin.Vehicle); err != nil {
			b.Fatal(err)
		}
	}
}
