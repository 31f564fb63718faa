module github.com/ebitengine/debugui

go 1.24.0

require (
	github.com/hajimehoshi/bitmapfont/v4 v4.1.0
	github.com/hajimehoshi/ebiten/v2 v2.8.8
	github.com/rivo/uniseg v0.4.7
)
