package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"simgui/plugins"
	"simgui/plugins/archive"
	"simgui/safefile"
)

// Names of what a change leaves in the home folder while it runs. Only the holder of the lock
// makes them; the next holder finishes or clears them (recoverChanges).
const (
	// journalName is the pending install: written after the new files are staged and before
	// the first rename, removed when the install is complete.
	journalName    = ".plugin-install.json"
	stagingPrefix  = ".staging-"  // new files being unpacked
	previousPrefix = ".previous-" // the earlier install of an id, until the new one is recorded
	removedPrefix  = ".removed-"  // a removed plugin's files, being deleted
)

// journal is one install in progress: plugins/<PluginID> is to hold the files staged in the
// home folder under Staged, the earlier install moves to Previous, and Entry is to be
// recorded in plugin-registry.json. Once it is written the install rolls forward: every step
// can be taken again from the files' state, so a crash at any point leaves the plugin usable
// in its old version (before the journal) or its new one (from the journal on), and the next
// command completes what the crash interrupted.
type journal struct {
	PluginID string `json:"pluginId"`
	Staged   string `json:"staged"`
	Previous string `json:"previous"`
	Entry    Entry  `json:"entry"`
}

func (r *Registry) journalPath() string { return filepath.Join(r.home, journalName) }

// valid reports whether j names folders a change of this registry makes: a hostile journal
// must not make the registry rename anything else.
func (j *journal) valid() bool {
	base := func(s, prefix string) bool {
		return strings.HasPrefix(s, prefix) && len(s) > len(prefix) && filepath.Base(s) == s && !strings.ContainsAny(s, `/\`)
	}
	return plugins.SafeID(j.PluginID) && j.Entry.PluginID == j.PluginID &&
		base(j.Staged, stagingPrefix) && base(j.Previous, previousPrefix)
}

// readJournal returns the pending install, nil when there is none. A journal that is not one
// (it cannot be torn: it is written atomically) is removed and reported as none; the sweep
// then saves what it can.
func (r *Registry) readJournal() *journal {
	b, err := safefile.ReadFile(r.journalPath(), 1<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	var j journal
	if err != nil || json.Unmarshal(b, &j) != nil || !j.valid() {
		r.ops.Remove(r.journalPath())
		return nil
	}
	return &j
}

func (r *Registry) writeJournal(j *journal) error {
	b, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return err
	}
	return r.ops.WriteFile(r.journalPath(), append(b, '\n'))
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// complete finishes the install j or, when it cannot, rolls it back to the earlier install.
func (r *Registry) complete(j *journal) error {
	err := r.finish(j)
	if err == nil {
		return nil
	}
	if rerr := r.rollBack(j); rerr != nil {
		return fmt.Errorf("%w; putting %s back failed too: %v (the next change tries again)", err, j.PluginID, rerr)
	}
	return err
}

// finish takes the remaining steps of j: move the earlier install aside, move the staged
// files in, record the entry, delete the earlier files and the journal. Which steps remain is
// read from the folders, so finish can run again after a crash inside it. An error before the
// entry is recorded leaves the registry file as it was.
func (r *Registry) finish(j *journal) error {
	stage, prev, dest := filepath.Join(r.home, j.Staged), filepath.Join(r.home, j.Previous), r.Path(j.PluginID)
	switch {
	case exists(stage):
		if exists(dest) {
			if err := r.ops.Rename(dest, prev); err != nil {
				return err
			}
		}
		if err := r.ops.Rename(stage, dest); err != nil {
			return err
		}
	case !exists(dest):
		return fmt.Errorf("the staged files of %s are gone", j.PluginID)
	}
	data, err := readRegistry(r.file())
	if err != nil {
		return err
	}
	if i := data.find(j.PluginID); i < 0 || data.Plugins[i] != j.Entry {
		data.put(j.Entry)
		if err := r.writeRegistry(data); err != nil {
			return err
		}
	}
	// The install is complete; what follows is tidying, which the next change also does.
	r.ops.RemoveAll(prev)
	r.ops.Remove(r.journalPath())
	return nil
}

// rollBack undoes the steps of j that were taken, putting the earlier install (if any) back,
// and removes the journal. It runs only while the registry file does not yet record j.
func (r *Registry) rollBack(j *journal) error {
	stage, prev, dest := filepath.Join(r.home, j.Staged), filepath.Join(r.home, j.Previous), r.Path(j.PluginID)
	if !exists(stage) && exists(dest) && (exists(prev) || !r.listed(j.PluginID)) {
		// The new files were moved in (over an earlier install, or as the first one): move
		// them out again.
		if err := r.ops.Rename(dest, stage); err != nil {
			return err
		}
	}
	if exists(prev) && !exists(dest) {
		if err := r.ops.Rename(prev, dest); err != nil {
			return err
		}
	}
	r.ops.RemoveAll(stage)
	return r.ops.Remove(r.journalPath())
}

// listed reports whether the registry file lists id.
func (r *Registry) listed(id string) bool {
	data, err := readRegistry(r.file())
	return err == nil && data.find(id) >= 0
}

// recoverChanges completes the install a crash interrupted, then sweeps what changes left in
// the home folder. It runs under the lock, before every change.
func (r *Registry) recoverChanges() error {
	if j := r.readJournal(); j != nil {
		if err := r.complete(j); err != nil {
			return fmt.Errorf("complete the interrupted install of %s: %w", j.PluginID, err)
		}
	}
	r.sweep()
	return nil
}

// sweep deletes staging, previous and removed folders and temporary registry files. Before
// that, a listed plugin whose folder is missing (as an older simgui left it when it crashed
// between its two renames) gets back the leftover folder holding its files, the one of the
// listed version first.
func (r *Registry) sweep() {
	entries, _ := os.ReadDir(r.home)
	var leftovers []string
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, stagingPrefix) || strings.HasPrefix(n, previousPrefix) ||
			strings.HasPrefix(n, removedPrefix) || strings.HasPrefix(n, "."+FileName+".tmp-") ||
			strings.HasPrefix(n, "."+journalName+".tmp-") {
			leftovers = append(leftovers, n)
		}
	}
	if len(leftovers) == 0 {
		return
	}
	if data, err := readRegistry(r.file()); err == nil {
		leftovers = r.rescue(data, leftovers)
	}
	for _, n := range leftovers {
		r.ops.RemoveAll(filepath.Join(r.home, n))
	}
}

// rescue moves leftover folders back into plugins/ for listed plugins that lack theirs and
// returns the leftovers it did not use.
func (r *Registry) rescue(data registryFile, leftovers []string) []string {
	type found struct {
		name    string
		id      string
		version string
	}
	var plugs []found
	for _, n := range leftovers {
		a, err := archive.ReadDir(filepath.Join(r.home, n))
		if err != nil {
			continue
		}
		if p, ps := a.Plugin(); ps.Err() == nil {
			plugs = append(plugs, found{n, p.ID(), p.Manifest.Version})
		}
	}
	used := map[string]bool{}
	for _, e := range data.Plugins {
		if !plugins.SafeID(e.PluginID) || exists(r.Path(e.PluginID)) {
			continue
		}
		pick := -1
		for i, f := range plugs {
			if f.id == e.PluginID && !used[f.name] && (pick < 0 || f.version == e.Version) {
				pick = i
			}
		}
		if pick >= 0 && r.ops.Rename(filepath.Join(r.home, plugs[pick].name), r.Path(e.PluginID)) == nil {
			used[plugs[pick].name] = true
		}
	}
	var rest []string
	for _, n := range leftovers {
		if !used[n] {
			rest = append(rest, n)
		}
	}
	return rest
}
