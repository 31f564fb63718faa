//go:build headless

package jpegenc

// TurboBuilt reports whether this build can load libturbojpeg: not the headless build.
const TurboBuilt = false

// Turbo stands in for the libturbojpeg encoder in the headless build, which is a static
// binary: purego loads libraries through the dynamic loader, which a static binary does not
// have, so [NewTurbo] always fails with [ErrNoTurbo] and [Default] is Go's image/jpeg.
type Turbo struct{}

// NewTurbo fails with ErrNoTurbo: this build cannot load libturbojpeg.
func NewTurbo(string) (*Turbo, error) { return nil, ErrNoTurbo }

// Name names the missing encoder.
func (*Turbo) Name() string { return "libturbojpeg (not in this build)" }

// Encode fails with ErrNoTurbo.
func (*Turbo) Encode([]byte, []byte, int, int, int, int) ([]byte, error) { return nil, ErrNoTurbo }

// Close does nothing.
func (*Turbo) Close() error { return nil }
