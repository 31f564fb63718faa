package plugins

import (
	"fmt"

	"github.com/Masterminds/semver/v3"
)

// RuntimeVersion is the version of the simgui runtime, the one plugins' compatibleRuntime
// constraints are checked against; app.Version refers to it. It is 0.3.0
// because simgui does what rusim's roadmap puts at runtime 0.3.0 — side-loading installed
// plugins and checking compatibleRuntime at load — and because rusim's Unity exporter writes
// ">=0.2.0" into every archive, so a lower number would refuse them all.
const RuntimeVersion = "0.3.0"

// IncompatibleRuntimeError is a plugin whose compatibleRuntime does not admit this runtime.
type IncompatibleRuntimeError struct {
	PluginID   string
	Constraint string // the manifest's compatibleRuntime
	Runtime    string // the runtime version checked
}

func (e *IncompatibleRuntimeError) Error() string {
	return fmt.Sprintf("plugin %s needs runtime %s; this is %s", e.PluginID, e.Constraint, e.Runtime)
}

// CheckRuntime checks m's compatibleRuntime against the runtime version runtime
// (RuntimeVersion when empty). An empty constraint admits every runtime. The constraint syntax
// is Masterminds/semver's: ">=0.2.0", ">=1.0.0,<2.0.0" (comma or space: and), "^1.2", "~0.3",
// "a || b". It returns an *IncompatibleRuntimeError, or an error for an unparsable
// constraint.
func CheckRuntime(m Manifest, runtime string) error {
	if m.CompatibleRuntime == "" {
		return nil
	}
	if runtime == "" {
		runtime = RuntimeVersion
	}
	v, err := semver.StrictNewVersion(runtime)
	if err != nil {
		return fmt.Errorf("runtime version %q: %w", runtime, err)
	}
	c, err := semver.NewConstraint(m.CompatibleRuntime)
	if err != nil {
		return fmt.Errorf("plugin %s: compatibleRuntime %q: %w", m.PluginID, m.CompatibleRuntime, err)
	}
	if !c.Check(v) {
		return &IncompatibleRuntimeError{PluginID: m.PluginID, Constraint: m.CompatibleRuntime, Runtime: runtime}
	}
	return nil
}
