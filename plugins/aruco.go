package plugins

// ArucoDictionary names the marker family a marker element's ArucoID picks from: OpenCV's
// DICT_4X4_50, the 4×4-bit markers small robots' cameras read from furthest away.
const ArucoDictionary = "DICT_4X4_50"

// aruco4x4 holds the 50 markers' 4×4 data bits, row by row from the top left, the first bit
// the most significant (1 white). Each marker is these bits inside a black border one cell
// wide: 6×6 cells.
var aruco4x4 = [...]uint16{
	0xb532, 0x0f9a, 0x332d, 0x9946, 0x549e, 0x79cd, 0x9e2e, 0xc4f2, 0xfeda, 0xcf56,
	0xf991, 0x11a7, 0x0eb7, 0x2a0f, 0x24b1, 0x263e, 0x4665, 0x6600, 0x6c5e, 0x76af,
	0x868b, 0xb02b, 0xccd5, 0xdd82, 0xfe47, 0x9471, 0xace4, 0xa554, 0x2123, 0x346f,
	0x4415, 0x57b2, 0x9ecf, 0xf0cb, 0x08ae, 0x0929, 0x1875, 0x04ff, 0x0df6, 0x1c5a,
	0x1718, 0x2a28, 0x328c, 0x38b2, 0x24e8, 0x2eeb, 0x2d3f, 0x4b64, 0x502e, 0x5013,
}

// ArucoIDs is how many markers ArucoDictionary has: ids 0 to ArucoIDs-1.
const ArucoIDs = len(aruco4x4)

// ArucoCells returns marker id's 6×6 cells, row by row from the top left as seen from its
// front, true where the cell is white; false when id is not in the dictionary.
func ArucoCells(id int) (cells [6][6]bool, ok bool) {
	if id < 0 || id >= ArucoIDs {
		return cells, false
	}
	bits := aruco4x4[id]
	for r := range 4 {
		for c := range 4 {
			cells[r+1][c+1] = bits&(1<<(15-(4*r+c))) != 0
		}
	}
	return cells, true
}
