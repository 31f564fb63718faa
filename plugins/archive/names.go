package archive

import (
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"simgui/plugins"
)

// rootFiles are the files allowed at an archive's root.
var rootFiles = []string{plugins.ManifestFile, plugins.DescriptorFile, plugins.ContractFile, plugins.ReadmeFile, plugins.SignatureFile}

// assetExts are the file types allowed under assets/: images for previews and textures.
var assetExts = []string{".png", ".jpg", ".jpeg", ".webp"}

// maxAssetDepth bounds the folders under assets/ (assets/a/b/c/x.png).
const maxAssetDepth = 4

// allowedText describes the allowed set in error messages.
var allowedText = "allowed: " + strings.Join(rootFiles, ", ") + " at the root, and images (" +
	strings.Join(assetExts, " ") + ") under " + plugins.AssetsDir + "/"

// checkName returns why name cannot be an entry of a plugin archive, or "". Folder names end
// in '/'.
func checkName(name string) string {
	isDir := strings.HasSuffix(name, "/")
	clean := strings.TrimSuffix(name, "/")
	switch {
	case name == "":
		return "the name is empty"
	case len(name) > 255:
		return "the name is longer than 255 bytes"
	case !utf8.ValidString(name):
		return "the name is not UTF-8"
	case strings.ContainsFunc(name, isControl):
		return "the name has a control character"
	case strings.Contains(name, `\`):
		return `the name has a backslash; zip names separate folders with "/"`
	case strings.HasPrefix(name, "/") || len(name) >= 2 && name[1] == ':' && isLetter(name[0]):
		return "absolute path"
	}
	segs := strings.Split(clean, "/")
	for _, s := range segs {
		if s == ".." {
			return "the path leaves the archive (..)"
		}
	}
	for _, s := range segs {
		if s == "" || s == "." {
			return `the path is not clean (an empty or "." folder)`
		}
		if strings.ContainsAny(s, `<>:"|?*`) || strings.HasSuffix(s, " ") || strings.HasSuffix(s, ".") {
			return `the name is not portable (it has one of <>:"|?* or ends in a space or ".")`
		}
	}
	if !allowed(segs, isDir) {
		return "not part of a plugin (" + allowedText + ")"
	}
	return ""
}

// allowed reports whether the clean path segs is in the allowed set.
func allowed(segs []string, isDir bool) bool {
	if segs[0] != plugins.AssetsDir {
		return len(segs) == 1 && !isDir && slices.Contains(rootFiles, segs[0])
	}
	depth := len(segs) - 1 // folders under assets/, plus the file
	if isDir {
		return depth < maxAssetDepth
	}
	return depth >= 1 && depth <= maxAssetDepth && slices.Contains(assetExts, strings.ToLower(path.Ext(segs[len(segs)-1])))
}

// isControl reports C0 and C1 control characters and DEL.
func isControl(r rune) bool { return r < 0x20 || r >= 0x7f && r <= 0x9f }

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// isJSON reports whether the entry is one of the JSON files the size cap applies to.
func isJSON(name string) bool { return strings.HasSuffix(name, ".json") }
