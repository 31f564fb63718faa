package mcap

// Version of the MCAP library.
var Version = "v1.9.0"
