#!/bin/sh
# generate.sh regenerates the Go code for proto/gz/msgs/*.proto; `go generate`
# runs it from this directory. Another package of generated messages runs it
# from its own folder with its import path and its .proto folder under proto/:
#   sh ../../transport/msgs/generate.sh simgui/app/foxview/foxglove foxglove
#
# protoc is Debian's (protobuf-compiler). protoc-gen-go is built from
# google.golang.org/protobuf at the version go.mod requires, so generated code
# and runtime always match: Debian 12's /usr/bin/protoc-gen-go is the v1.3
# generator (github.com/golang/protobuf API), which this module does not use.
# Set PROTOC_GEN_GO to use another protoc-gen-go binary. Google's well-known
# types (google/protobuf/timestamp.proto) come from Debian's libprotobuf-dev.
set -eu

module=${1:-simgui/app/transport/msgs}
protos=${2:-gz/msgs}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

plugin=${PROTOC_GEN_GO:-}
if [ -z "$plugin" ]; then
	plugin="$tmp/protoc-gen-go"
	go build -o "$plugin" google.golang.org/protobuf/cmd/protoc-gen-go
fi

protoc=${PROTOC:-/usr/bin/protoc}
if [ ! -x "$protoc" ]; then
	echo "generate.sh: $protoc not found; install Debian's protobuf-compiler (build/setup.sh)" >&2
	exit 1
fi

rm -f ./*.pb.go
"$protoc" --plugin=protoc-gen-go="$plugin" -I proto \
	--go_out=. --go_opt=module="$module" \
	proto/"$protos"/*.proto
