package plugins

import (
	"strconv"
	"strings"
)

// ContractVersion is the semantic version of a contract or plugin:
// major.minor.patch, compared lexicographically.
type ContractVersion struct {
	Major int `json:"major"`
	Minor int `json:"minor"`
	Patch int `json:"patch"`
}

// IsValid reports whether no component is negative (0.0.0 is valid).
func (v ContractVersion) IsValid() bool { return v.Major >= 0 && v.Minor >= 0 && v.Patch >= 0 }

// String formats v as "major.minor.patch".
func (v ContractVersion) String() string {
	return strconv.Itoa(v.Major) + "." + strconv.Itoa(v.Minor) + "." + strconv.Itoa(v.Patch)
}

// Compare returns -1, 0 or +1 as v is less than, equal to or greater than w.
func (v ContractVersion) Compare(w ContractVersion) int {
	switch {
	case v.Major != w.Major:
		return cmpInt(v.Major, w.Major)
	case v.Minor != w.Minor:
		return cmpInt(v.Minor, w.Minor)
	default:
		return cmpInt(v.Patch, w.Patch)
	}
}

// Less reports whether v < w.
func (v ContractVersion) Less(w ContractVersion) bool { return v.Compare(w) < 0 }

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// MaxVersionComponent is the largest version component: the SDK's components are 32-bit
// signed integers (C# int), so 1.2147483647.0 parses and 1.2147483648.0 does not.
const MaxVersionComponent = 1<<31 - 1

// ParseContractVersion parses "major.minor.patch": exactly three dot-separated non-negative
// decimal integers, each at most MaxVersionComponent (leading zeros allowed). Like
// ContractVersion.TryParse it rejects anything else (empty string, two or four parts, signs,
// spaces, letters, negative numbers, "v" prefixes).
func ParseContractVersion(s string) (ContractVersion, bool) {
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return ContractVersion{}, false
	}
	var n [3]int
	for i, p := range parts {
		if p == "" {
			return ContractVersion{}, false
		}
		for _, c := range p {
			if c < '0' || c > '9' {
				return ContractVersion{}, false
			}
		}
		x, err := strconv.ParseInt(p, 10, 32) // digits only, so the only error is the range
		if err != nil {
			return ContractVersion{}, false
		}
		n[i] = int(x)
	}
	return ContractVersion{n[0], n[1], n[2]}, true
}
