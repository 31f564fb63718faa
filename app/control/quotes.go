package control

// fixQuotes rewrites the single-quoted strings of a JSON-like text as JSON strings, so that
// {'command':'device_list','filter':”} — what cloisim_ros sends, and what CLOiSim's lenient
// parser accepts — decodes with encoding/json. Double-quoted strings are copied unchanged, so
// valid JSON passes through as it is. Inside a single-quoted string \' becomes ', a bare "
// becomes \", and other escapes are kept. Anything else, including an unterminated string, is
// left for the JSON decoder to reject.
func fixQuotes(data []byte) []byte {
	if !hasSingleQuote(data) {
		return data
	}
	out := make([]byte, 0, len(data)+8)
	for i := 0; i < len(data); {
		switch c := data[i]; c {
		case '"':
			j := i + 1
			for j < len(data) && data[j] != '"' {
				if data[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(data) {
				return append(out, data[i:]...)
			}
			out = append(out, data[i:j+1]...)
			i = j + 1
		case '\'':
			out = append(out, '"')
			j := i + 1
			for ; j < len(data) && data[j] != '\''; j++ {
				switch data[j] {
				case '\\':
					if j+1 >= len(data) {
						return append(out, '\\')
					}
					if data[j+1] == '\'' {
						out = append(out, '\'')
					} else {
						out = append(out, '\\', data[j+1])
					}
					j++
				case '"':
					out = append(out, '\\', '"')
				default:
					out = append(out, data[j])
				}
			}
			if j >= len(data) {
				return out // unterminated: the decoder reports it
			}
			out = append(out, '"')
			i = j + 1
		default:
			out = append(out, c)
			i++
		}
	}
	return out
}

func hasSingleQuote(data []byte) bool {
	for _, c := range data {
		if c == '\'' {
			return true
		}
	}
	return false
}
