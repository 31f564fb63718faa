// Package archive reads and writes plugin archives (<pluginId>.rusim-plugin.zip) and plugin folders in the same layout, refusing hostile input before anything else
// sees it.
//
// A plugin archive holds manifest.json, descriptor.json, device-contract.json (vehicles),
// README.md and, from simgui, SIGNATURE.json, all at the root; the only folder allowed is
// assets/ with images (.png, .jpg, .jpeg, .webp). Read refuses, each with its own message:
// names that are not UTF-8 or hold control characters, backslashes, absolute paths, ".."
// and other unclean paths, symbolic links and other non-regular files, duplicate names
// (also when they differ only in case), names outside the allowed set, encrypted entries,
// compression methods other than store and deflate, more than 512 entries, a JSON file over
// 1 MiB, an uncompressed total over 64 MiB, an entry over 1 MiB that expands more than 100
// times (a compression bomb), and entries whose data does not match their header. Sizes are
// checked from the central directory before any data is inflated, and inflating stops at the
// declared size, so a hostile archive costs at most the limits in memory.
//
// Archive values are immutable; their files are plain bytes for plugins.ReadPlugin and the
// signing package.
package archive
