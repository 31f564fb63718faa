package plugins

import (
	"bytes"
	"image"
	"image/jpeg"
	"image/png"
	"path"
	"slices"
	"strings"

	"golang.org/x/image/webp"
)

// MaxAssetSide bounds each side of an image in a plugin's assets folder, in pixels: an image
// of a few kilobytes can declare 100000×100000 pixels, gigabytes to whatever decodes it.
const MaxAssetSide = 8192

// assetDecoders read the header of an asset image by its name's extension (the archive
// allows no others).
var assetDecoders = map[string]func(b []byte) (image.Config, error){
	".png":  func(b []byte) (image.Config, error) { return png.DecodeConfig(bytes.NewReader(b)) },
	".jpg":  func(b []byte) (image.Config, error) { return jpeg.DecodeConfig(bytes.NewReader(b)) },
	".jpeg": func(b []byte) (image.Config, error) { return jpeg.DecodeConfig(bytes.NewReader(b)) },
	".webp": func(b []byte) (image.Config, error) { return webp.DecodeConfig(bytes.NewReader(b)) },
}

// checkAssetImages checks every image under assets/ — those no material names too, which
// nothing reads today but a viewer or a later version may: it must be the image its name
// says, of at most MaxAssetSide pixels a side.
func checkAssetImages(files map[string][]byte) Problems {
	var ps Problems
	names := make([]string, 0, len(files))
	for name := range files {
		if strings.HasPrefix(name, AssetsDir+"/") {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		decode, ok := assetDecoders[strings.ToLower(path.Ext(name))]
		if !ok {
			continue
		}
		cfg, err := decode(files[name])
		switch {
		case err != nil:
			ps.add(name, "not a %s image: %v", strings.TrimPrefix(strings.ToLower(path.Ext(name)), "."), err)
		case cfg.Width > MaxAssetSide || cfg.Height > MaxAssetSide:
			ps.add(name, "%d×%d pixels; an asset image may have at most %d a side", cfg.Width, cfg.Height, MaxAssetSide)
		}
	}
	return ps
}
