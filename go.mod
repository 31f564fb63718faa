module simgui

go 1.26.0

require (
	github.com/Masterminds/semver/v3 v3.5.0
	github.com/ebitengine/debugui v0.3.0
	github.com/ebitengine/purego v0.11.3
	github.com/foxglove/mcap/go/mcap v1.9.0
	github.com/go-gl/mathgl v1.2.0
	github.com/go-zeromq/zmq4 v0.17.0
	github.com/gofrs/flock v0.13.2
	github.com/gorilla/websocket v1.5.3
	github.com/hajimehoshi/bitmapfont/v4 v4.2.0
	github.com/hajimehoshi/ebiten/v2 v2.10.4
	github.com/jakecoffman/cp/v2 v2.4.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/schollz/progressbar/v3 v3.19.1
	github.com/spf13/cobra v1.10.2
	github.com/spf13/pflag v1.0.9
	golang.design/x/clipboard v0.7.1
	golang.org/x/image v0.45.0
	golang.org/x/sync v0.22.0
	golang.org/x/sys v0.49.0
	golang.org/x/term v0.44.0
	golang.org/x/text v0.41.0
	google.golang.org/protobuf v1.36.12
	gopkg.in/yaml.v3 v3.0.1
)

require (
	github.com/ebitengine/gomobile v0.0.0-20260820040257-d11f821a26a6 // indirect
	github.com/ebitengine/hideconsole v1.0.0 // indirect
	github.com/go-text/typesetting v0.3.5 // indirect
	github.com/go-zeromq/goczmq/v4 v4.2.2 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/klauspost/compress v1.16.7 // indirect
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/pierrec/lz4/v4 v4.1.29 // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	github.com/srwiley/rasterx v0.0.0-20220730225603-2ab79fcdd4ef // indirect
	golang.org/x/exp/shiny v0.0.0-20250606033433-dcc06ee1d476 // indirect
	golang.org/x/mobile v0.0.0-20250606033058-a2a15c67f36f // indirect
)

replace github.com/ebitengine/debugui => ./app/window/debugui

replace github.com/foxglove/mcap/go/mcap => ./third_party/mcap

replace github.com/jakecoffman/cp/v2 => ./third_party/cp
