package bridge

import "encoding/binary"

// Tag returns libstdc++'s std::hash<std::string> of hashKey on 64-bit targets: _Hash_bytes with
// seed 0xc70f6907, a MurmurHash64A variant. CLOiSim and cloisim_ros prefix every message with
// it (see [TagBytes]) and subscribe to it.
func Tag(hashKey string) uint64 {
	const (
		mul  = 0xc6a4a7935bd1e995
		seed = 0xc70f6907
	)
	shiftMix := func(v uint64) uint64 { return v ^ v>>47 }
	n := len(hashKey)
	h := uint64(seed) ^ uint64(n)*mul
	i := 0
	for ; i+8 <= n; i += 8 {
		k := binary.LittleEndian.Uint64([]byte(hashKey[i : i+8]))
		h ^= shiftMix(k*mul) * mul
		h *= mul
	}
	if tail := n - i; tail > 0 {
		var k uint64
		for j := tail - 1; j >= 0; j-- { // little-endian load of 1..7 bytes, as unsigned chars
			k = k<<8 | uint64(hashKey[i+j])
		}
		h ^= k
		h *= mul
	}
	h = shiftMix(h) * mul
	return shiftMix(h)
}

// TagBytes returns the 8-byte wire form of [Tag](hashKey): little-endian, as the first 8 bytes
// of every message frame and the SUB sockets' subscription prefix.
func TagBytes(hashKey string) [8]byte {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], Tag(hashKey))
	return b
}

// AppendTag appends the 8-byte wire tag of hashKey to dst.
func AppendTag(dst []byte, hashKey string) []byte {
	return binary.LittleEndian.AppendUint64(dst, Tag(hashKey))
}
