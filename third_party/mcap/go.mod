module github.com/foxglove/mcap/go/mcap

go 1.21

require (
	github.com/klauspost/compress v1.16.7
	github.com/pierrec/lz4/v4 v4.1.22
)
