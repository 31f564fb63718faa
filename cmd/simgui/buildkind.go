//go:build !headless

package main

// buildKind names this build in `simgui version`.
const buildKind = "window"
